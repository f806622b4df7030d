// Package build compiles redis-server for one cell of the matrix with the
// cell's exact compiler and flags, in a work directory of its own.
//
// Flags are given to make as OPTIMIZATION (compile) and REDIS_LDFLAGS (link), so
// LTO happens at link time; V=1 puts the real compiler command lines in the log,
// and Check verifies the flags are on them. By default the bundled dependencies
// are built once per (version, compiler) with Redis's own defaults and reused:
// make passes command-line variables down to sub-makes, so the deps are built in a
// separate step without the flags, and the server step overrides Redis's
// "settings changed -> distclean" check (PREV_FINAL_*FLAGS) so they are kept.
package build

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
)

// Spec is everything that defines one build.
type Spec struct {
	Cell         config.Cell
	SourceDir    string // extracted release tree (read only)
	WorkDir      string // collector work directory (deps cache, cell dirs)
	DepsGetFlags bool
	Jobs         int
	Compat       []config.Compat
	Timeout      time.Duration
	// ProfileFlags are a profile-guided build's instrumenting or profile
	// flags, added to the compile and the link (buildPGO sets them).
	ProfileFlags string
	// Ccache, when set, is the ccache directory: make gets CC="ccache <cc>",
	// so a file compiled before with the same preprocessed text and flags
	// (the same file of another patch release) is taken from the cache,
	// which holds the compiler's own output for it.
	Ccache string
}

// Result describes a finished build attempt; Status is "ok" or "failed".
type Result struct {
	Status      string
	Error       string
	LogTail     string
	LogPath     string
	Binary      string // path of the kept redis-server (when ok)
	CCPath      string
	CCVersion   string
	CFlags      string
	LDFlags     string
	CompatFlags string
	MakeArgs    string
	DepsSeconds float64
	// CopySeconds is the time spent copying the source tree into the work directory.
	CopySeconds  float64
	BuildSeconds float64
	BinaryBytes  int64
	// RedisBuildID is the REDIS_BUILD_ID the server was compiled with
	// (release.h), "" for a release without one (2.6).
	RedisBuildID string
	// CodeSHA256 is the hash of the server's mapped code (CodeSHA256): the
	// same for two builds that are the same binary to the instruction.
	CodeSHA256 string
	// JemallocLgVaddr is the LG_VADDR the bundled jemalloc was compiled with
	// (FixedLgVaddr), 0 for a release whose jemalloc has none (before 5.0)
	// or that uses no jemalloc.
	JemallocLgVaddr int
	// PGOTraining describes a profile-guided build's training run and
	// PGOProfileSHA256 is the digest of the profile it used ("" otherwise).
	PGOTraining, PGOProfileSHA256 string
}

// Slug turns a cell id into a directory name.
func Slug(id string) string {
	r := strings.NewReplacer("|", "_", " ", "", "/", "_")
	return r.Replace(id)
}

// CellDir is the cell's directory under the work directory: its binary,
// build log, build id and raw client output.
func CellDir(workDir, cellID string) string {
	return filepath.Join(workDir, "cells", Slug(cellID))
}

// Build runs the build of one cell. A build that fails returns a Result with
// Status "failed" and the tail of its log; err is only for problems of the
// collector itself (disk full, missing work directory).
func Build(ctx context.Context, s Spec) (Result, error) {
	if s.Cell.FlagSet.PGO {
		return buildPGO(ctx, s)
	}
	return build(ctx, s)
}

func build(ctx context.Context, s Spec) (Result, error) {
	var r Result
	ccPath, err := exec.LookPath(s.Cell.Compiler.CC)
	if err != nil {
		return r, fmt.Errorf("compiler %q not found on PATH", s.Cell.Compiler.CC)
	}
	r.CCPath = ccPath
	r.CCVersion = CCVersion(ctx, ccPath)
	cellDir := CellDir(s.WorkDir, s.Cell.ID())
	if err := os.MkdirAll(cellDir, 0o755); err != nil {
		return r, err
	}
	r.LogPath = filepath.Join(cellDir, "build.log")
	logf, err := os.Create(r.LogPath)
	if err != nil {
		return r, err
	}
	defer logf.Close()

	base := s.SourceDir
	if !s.DepsGetFlags {
		dr, secs, err := depsTree(ctx, s, logf)
		r.DepsSeconds = secs
		if ctx.Err() != nil { // stopped, not failed: nothing is recorded
			return r, ctx.Err()
		}
		if err != nil {
			return fail(r, err), nil
		}
		base = dr
	}
	var compat []string
	for {
		tree := filepath.Join(cellDir, "tree")
		t0 := time.Now()
		if err := copyTree(ctx, base, tree); err != nil {
			return r, fmt.Errorf("copy source for %s: %w", s.Cell.ID(), err)
		}
		r.CopySeconds += time.Since(t0).Seconds()
		if err := fixBuildID(tree, logf); err != nil {
			os.RemoveAll(tree)
			return r, fmt.Errorf("fix the build ID of %s: %w", s.Cell.ID(), err)
		}
		args := MakeArgs(s, compat)
		r.CFlags, r.LDFlags = withProfile(cflags(s.Cell, compat), s), withProfile(ldflags(s.Cell), s)
		r.CompatFlags = strings.Join(compat, " ")
		r.MakeArgs = "make " + shellJoin(args)
		fmt.Fprintf(logf, "\n### server build: %s\n", r.MakeArgs)
		t1 := time.Now()
		out, berr := runMake(ctx, s, tree, args, logf)
		r.BuildSeconds += time.Since(t1).Seconds()
		bin := filepath.Join(tree, "src", "redis-server")
		if berr == nil && s.Cell.FlagSet.Stock {
			// A stock build records what reached the compiler, not what it gave.
			r.CFlags, r.LDFlags, berr = EffectiveFlags(out)
		}
		if berr == nil {
			if err := Check(out, withProfile(s.Cell.FlagSet.CFlags, s)); err != nil {
				berr = err
			} else if err := checkNoneAdded(out, withProfile(cflags(s.Cell, compat), s), s.Cell.FlagSet.Stock); err != nil {
				berr = err
			} else if _, err := os.Stat(bin); err != nil {
				berr = fmt.Errorf("make succeeded but src/redis-server is missing")
			}
		}
		if berr == nil {
			berr = checkServerVersion(ctx, bin, s.Cell.Version)
		}
		if berr == nil {
			r.JemallocLgVaddr, berr = CompiledLgVaddr(tree)
		}
		if berr == nil {
			r.RedisBuildID = compiledBuildID(tree)
			if r.RedisBuildID != "" && r.RedisBuildID != FixedBuildID {
				fmt.Fprintf(logf, "\n### release.h: REDIS_BUILD_ID is %q, not the fixed one: this build is not reproducible\n", r.RedisBuildID)
			}
			kept := filepath.Join(cellDir, "redis-server")
			if err := os.Rename(bin, kept); err != nil {
				return r, err
			}
			st, _ := os.Stat(kept)
			r.Binary, r.BinaryBytes, r.Status = kept, st.Size(), "ok"
			if code, err := CodeSHA256(kept); err != nil {
				fmt.Fprintf(logf, "\n### code hash: %v\n", err)
			} else {
				r.CodeSHA256 = code
				fmt.Fprintf(logf, "\n### code sha256 (allocated sections, notes aside): %s\n", code)
			}
			r.LogTail = tail(out, 20)
			os.RemoveAll(tree)
			return r, nil
		}
		os.RemoveAll(tree)
		if ctx.Err() != nil {
			return r, ctx.Err()
		}
		// Each retry adds one more rule, so this ends after len(s.Compat) retries.
		if fix := compatFor(s.Compat, out, compat); fix != "" {
			fmt.Fprintf(logf, "\n### build failed; retrying with compatibility flags %q\n", fix)
			compat = append(compat, fix)
			continue
		}
		r.LogTail = tail(out, 40)
		return fail(r, berr), nil
	}
}

func fail(r Result, err error) Result {
	r.Status, r.Error = "failed", oneLine(err.Error())
	return r
}

// MakeArgs is the exact make command line of the server build (without "make").
func MakeArgs(s Spec, compat []string) []string {
	cc := s.Cell.Compiler
	args := []string{"-C", "src", fmt.Sprintf("-j%d", s.Jobs), "V=1", "CC=" + s.cc()}
	if s.Cell.FlagSet.Stock {
		return append(args, stockArgs(s, compat)...)
	}
	opt := withProfile(cflags(s.Cell, compat), s)
	args = append(args, "OPTIMIZATION="+opt, "REDIS_LDFLAGS="+withProfile(ldflags(s.Cell), s))
	if MakefileAddsLTO(s.SourceDir, opt) {
		args = append(args, "REDIS_CFLAGS=")
	}
	if s.DepsGetFlags {
		f := cflags(s.Cell, compat)
		args = append(args, "CFLAGS="+f, "LDFLAGS="+ldflags(s.Cell))
		if cc.AR != "" {
			args = append(args, "AR="+cc.AR, "RANLIB="+cc.AR+" s")
		}
		if cc.NM != "" {
			args = append(args, "NM="+cc.NM)
		}
	} else {
		// Keep the prebuilt dependencies: tell the Makefile its settings did not change.
		args = append(args, "PREV_FINAL_CFLAGS=$(FINAL_CFLAGS)", "PREV_FINAL_LDFLAGS=$(FINAL_LDFLAGS)")
	}
	return append(args, "redis-server")
}

// cc is the compiler command make gets: the cell's compiler, behind ccache
// when s.Ccache is set and the cell has no LTO. An LTO object is the
// compiler's intermediate code, turned into machine code at the link, and a
// cache shared across releases changes that code: 7.4.1 clang -O2 -flto
// linked from objects partly taken from 7.4.0's compiles is other code
// (docs/evidence/clang-lto-code-identity.md).
func (s Spec) cc() string {
	if s.Ccache != "" && !s.Cell.HasLTO() {
		return "ccache " + s.Cell.Compiler.CC
	}
	return s.Cell.Compiler.CC
}

// ccacheEnv is ccache's settings: its directory; a hit across cells, whose
// trees sit in directories of their own (the compiler is given relative
// paths; only the debug information's compile directory, which counting
// strips, can name another cell's); room for every configuration of a few
// releases.
func (s Spec) ccacheEnv() []string {
	if s.Ccache == "" || s.Cell.HasLTO() {
		return nil
	}
	return []string{"CCACHE_DIR=" + s.Ccache, "CCACHE_NOHASHDIR=true", "CCACHE_BASEDIR=" + s.WorkDir, "CCACHE_MAXSIZE=20G"}
}

// stockArgs is the rest of a stock build's make line: no OPTIMIZATION and no
// REDIS_CFLAGS or REDIS_LDFLAGS, since from 7.2 on the Makefile adds -flto to
// those (a command-line value would replace what it adds). Compatibility flags
// go in CFLAGS, and a release whose default build uses LTO is linked by the
// compiler's LTO linker (lld for clang) through LDFLAGS: the Makefile sets
// neither on x86 Linux. The dependencies are prebuilt as for every cell.
func stockArgs(s Spec, compat []string) []string {
	var args []string
	if len(compat) > 0 {
		args = append(args, "CFLAGS="+strings.Join(compat, " "))
	}
	if lto := s.Cell.Compiler.LTOLDFlags; lto != "" && defaultLTO(s.SourceDir) {
		args = append(args, "LDFLAGS="+lto)
	}
	args = append(args, "PREV_FINAL_CFLAGS=$(FINAL_CFLAGS)", "PREV_FINAL_LDFLAGS=$(FINAL_LDFLAGS)")
	return append(args, "redis-server")
}

// defaultLTO says whether the release's Makefile builds with LTO by default
// (7.2 on: `OPTIMIZATION?=-O3`, then -flto added when it is -O3).
func defaultLTO(sourceDir string) bool {
	mk, err := os.ReadFile(filepath.Join(sourceDir, "src", "Makefile"))
	return err == nil && bytes.Contains(mk, []byte("OPTIMIZATION?=-O3")) && bytes.Contains(mk, []byte("-flto"))
}

// MakefileAddsLTO says whether the release's src/Makefile adds -flto of its
// own to the compile when given OPTIMIZATION=optimization. 7.2's does for -O3
// (`ifeq ($(OPTIMIZATION),-O3)` then `REDIS_CFLAGS+=-flto`, -flto=auto with
// gcc), and its link flags, which the command line's REDIS_LDFLAGS replaces,
// then lack it: a gcc -O3 build was -O3 -flto and a clang one failed to link.
// MakeArgs gives such a build an empty REDIS_CFLAGS, so that only the cell's
// flags reach the compile. 7.4 on adds -flto to OPTIMIZATION itself, which
// the command line replaces.
func MakefileAddsLTO(sourceDir, optimization string) bool {
	if optimization != "-O3" {
		return false
	}
	mk, err := os.ReadFile(filepath.Join(sourceDir, "src", "Makefile"))
	return err == nil && bytes.Contains(mk, []byte("ifeq ($(OPTIMIZATION),-O3)")) && bytes.Contains(mk, []byte("REDIS_CFLAGS+=-flto"))
}

// EffectiveFlags reads from a V=1 make log the optimisation flags (-O… and
// -f…, in order) that reached the compile of the server's own code
// (server.c, redis.c before 3.2) and the link of redis-server: what a stock
// build, which gives make none, was built with.
func EffectiveFlags(log string) (compile, link string, err error) {
	for _, line := range strings.Split(log, "\n") {
		if compile == "" && serverCompile(line) {
			compile = optFlags(line)
		}
		if strings.Contains(line, "-o redis-server") {
			link = optFlags(line)
		}
	}
	if compile == "" {
		return "", "", fmt.Errorf("no optimisation flags on the compile of server.c/redis.c")
	}
	return compile, link, nil
}

func optFlags(line string) string {
	var out []string
	for _, f := range strings.Fields(line) {
		if (strings.HasPrefix(f, "-O") || strings.HasPrefix(f, "-f")) && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return strings.Join(out, " ")
}

// withProfile is flags with s's profile flags, if any, after them.
func withProfile(flags string, s Spec) string {
	if s.ProfileFlags == "" {
		return flags
	}
	return flags + " " + s.ProfileFlags
}

func cflags(c config.Cell, compat []string) string {
	return strings.Join(append([]string{c.FlagSet.CFlags}, compat...), " ")
}

func ldflags(c config.Cell) string {
	f := c.FlagSet.CFlags
	if c.HasLTO() && c.Compiler.LTOLDFlags != "" {
		f += " " + c.Compiler.LTOLDFlags
	}
	return f
}

// depsTree returns a source tree whose dependencies are built with the cell's
// compiler and default flags, building and caching it per (version, compiler).
func depsTree(ctx context.Context, s Spec, logf *os.File) (string, float64, error) {
	dir := filepath.Join(s.WorkDir, "deps", filepath.Base(s.SourceDir)+"-"+s.Cell.Compiler.Name)
	ok := filepath.Join(dir, ".rcb-deps-ok")
	if recipe, err := os.ReadFile(ok); err == nil && string(recipe) == depsRecipe {
		fmt.Fprintf(logf, "### dependencies reused from %s\n", dir)
		return dir, 0, nil
	}
	t0 := time.Now()
	os.RemoveAll(dir)
	if err := copyTree(ctx, s.SourceDir, dir); err != nil {
		return "", 0, err
	}
	args := []string{"-C", "src", fmt.Sprintf("-j%d", s.Jobs), "V=1", "CC=" + s.cc(), ".make-prerequisites"}
	fmt.Fprintf(logf, "### dependencies build: %s make %s\n", lgVaddrVar, shellJoin(args))
	out, err := runMake(ctx, s, dir, args, logf)
	if err != nil {
		os.RemoveAll(dir)
		return "", time.Since(t0).Seconds(), fmt.Errorf("dependencies build failed: %v: %s", err, lastLine(out))
	}
	// The saved settings hold the default OPT; the server build sets its own.
	os.Remove(filepath.Join(dir, "src", ".make-settings"))
	if err := os.WriteFile(ok, []byte(depsRecipe), 0o644); err != nil {
		return "", 0, err
	}
	return dir, time.Since(t0).Seconds(), nil
}

func runMake(ctx context.Context, s Spec, dir string, args []string, logf *os.File) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	var buf bytes.Buffer
	cmd := exec.CommandContext(ctx, "make", args...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), s.ccacheEnv()...)
	cmd.Stdout = io.MultiWriter(&buf, logf)
	cmd.Stderr = cmd.Stdout
	// On a stop or a timeout, kill make with every compiler it started (its
	// process group), not make alone: a surviving child would keep the output
	// pipe open and the build running.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return buf.String(), fmt.Errorf("build timed out after %s", s.Timeout)
	}
	if err != nil {
		return buf.String(), fmt.Errorf("make: %v: %s", err, lastError(buf.String()))
	}
	return buf.String(), nil
}

// FixedBuildID is the REDIS_BUILD_ID every server is compiled with. From 2.8
// on, src/mkreleasehdr.sh writes the host name and the time of the build into
// release.h (from 5.0 on, SOURCE_DATE_EPOCH's value instead when it is set),
// and the server embeds it; under clang's LTO a different time changes the
// code (docs/evidence/reproducible-builds.md). With the ID fixed, a rebuild,
// here or on another machine, is the same binary. The value is
// SOURCE_DATE_EPOCH's form (5.0+), the frozen clock's time (internal/count).
const FixedBuildID = "1700000000"

var buildIDLine = regexp.MustCompile(`(?m)^#define REDIS_BUILD_ID "(.*)"$`)

// fixBuildID wraps the release's src/mkreleasehdr.sh, which Redis's Makefile
// runs each time it reads itself (twice when it remakes an included file):
// the release's own script runs as it is, and then its release.h gets
// FixedBuildID as the build ID, whatever it wrote there. Nothing else in the
// tree changes; compiledBuildID reads what was compiled in. A release whose
// script writes no build ID (2.6) is left alone.
func fixBuildID(tree string, logf io.Writer) error {
	src := filepath.Join(tree, "src")
	script, err := os.ReadFile(filepath.Join(src, "mkreleasehdr.sh"))
	if err != nil || !bytes.Contains(script, []byte("BUILD_ID=")) {
		return nil
	}
	if err := os.WriteFile(filepath.Join(src, releaseScript), script, 0o755); err != nil {
		return err
	}
	wrapper := "#!/bin/sh\n# Written by the collector: the release's script, then a fixed build ID.\n" +
		"sh ./" + releaseScript + " \"$@\"\nst=$?\n" +
		"sed 's/^#define REDIS_BUILD_ID .*/#define REDIS_BUILD_ID \"" + FixedBuildID + "\"/' release.h > release.h.rcb && mv release.h.rcb release.h\n" +
		"exit $st\n"
	if err := os.WriteFile(filepath.Join(src, "mkreleasehdr.sh"), []byte(wrapper), 0o755); err != nil {
		return err
	}
	fmt.Fprintf(logf, "### release.h: REDIS_BUILD_ID fixed to %q (reproducible builds): src/mkreleasehdr.sh runs the release's script (kept as %s), then sets it\n", FixedBuildID, releaseScript)
	return nil
}

// releaseScript is the name the release's mkreleasehdr.sh is kept under.
const releaseScript = "mkreleasehdr.rcb-release.sh"

// compiledBuildID is the build ID in the tree's release.h after make, "" if
// it has none.
func compiledBuildID(tree string) string {
	h, err := os.ReadFile(filepath.Join(tree, "src", "release.h"))
	if err != nil {
		return ""
	}
	if m := buildIDLine.FindSubmatch(h); m != nil {
		return string(m[1])
	}
	return ""
}

// cleanEnv drops variables that would silently change a build.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "CFLAGS", "LDFLAGS", "CPPFLAGS", "CC", "OPTIMIZATION", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "REDIS_CFLAGS", "REDIS_LDFLAGS", "MALLOC":
			continue
		}
		env = append(env, kv)
	}
	// GIT_DIR: Redis's mkreleasehdr.sh asks git for a commit id; without this it
	// would find the repository the work directory happens to sit in.
	return append(env, "LC_ALL=C", "GIT_DIR=/nonexistent", lgVaddrVar)
}

// FixedLgVaddr is the number of virtual address bits every build's bundled
// jemalloc (5.x, Redis 5.0 on) is compiled for. Its configure otherwise
// asks the build host's CPU (cpuid) and compiles the answer in as LG_VADDR,
// which sizes the radix tree every free walks: a host with 5-level paging
// (57 bits, e.g. Intel family 6 model 207) built 6.0.9 gcc -Ofast -flto
// into other code than a 48-bit host did, and it counted up to 0.69% fewer
// instructions per request (docs/evidence/reproducible-builds.md). 48 is what x86-64 hosts
// without 5-level paging report, and what Linux gives a process that does
// not ask for more, so a server built for it runs on either kind of host.
const FixedLgVaddr = 48

// lgVaddrVar presets the configure test's cached answer (autoconf reads
// je_cv_* from the environment), so the host is not asked.
var lgVaddrVar = fmt.Sprintf("je_cv_lg_vaddr=%d", FixedLgVaddr)

// depsRecipe is what a dependency tree was built with beyond the release,
// its compiler and Redis's defaults: a tree built otherwise (before the
// recipe, e.g. with the host's LG_VADDR) is built again.
var depsRecipe = lgVaddrVar + "\n"

// OldDepsTree says whether dir is a dependency tree built before
// depsRecipe: one a build reused (its marker is there) whose recipe is
// another.
func OldDepsTree(dir string) bool {
	recipe, err := os.ReadFile(filepath.Join(dir, ".rcb-deps-ok"))
	return err == nil && string(recipe) != depsRecipe
}

// jemallocDefine is a numeric define of jemalloc_internal_defs.h.
var jemallocDefine = regexp.MustCompile(`(?m)^#define (LG_[A-Z]+) (\d+)\s*$`)

// hostProbes are the other values jemalloc's configure takes from the build
// host, with the one every x86-64 Linux host has given so far: the page size
// (sysconf) and the default huge page size (/proc/meminfo), as base-2
// logarithms. Not every release lets them be preset (LG_HUGEPAGE only
// through a configure option Redis passes on from 7.2), so a build whose
// host gives another value fails rather than build other code.
var hostProbes = []struct {
	name string
	want int
}{{"LG_PAGE", 12}, {"LG_HUGEPAGE", 21}}

// CompiledLgVaddr reads the LG_VADDR a tree's bundled jemalloc was
// configured with: 0 when there is none (jemalloc before 5.0, or none
// bundled), and an error when it is not FixedLgVaddr, or when another value
// configure took from the host is not the usual one (hostProbes).
func CompiledLgVaddr(tree string) (int, error) {
	b, err := os.ReadFile(filepath.Join(tree, "deps", "jemalloc", "include", "jemalloc", "internal", "jemalloc_internal_defs.h"))
	if err != nil {
		return 0, nil
	}
	defines := map[string]int{}
	for _, m := range jemallocDefine.FindAllSubmatch(b, -1) {
		defines[string(m[1])], _ = strconv.Atoi(string(m[2]))
	}
	for _, p := range hostProbes {
		if v, ok := defines[p.name]; ok && v != p.want {
			return 0, fmt.Errorf("jemalloc was configured with the build host's %s %d, not %d: its code would differ from other hosts' builds", p.name, v, p.want)
		}
	}
	n, ok := defines["LG_VADDR"]
	if !ok {
		return 0, nil
	}
	if n != FixedLgVaddr {
		return n, fmt.Errorf("jemalloc was configured for %d-bit virtual addresses, not %d (%s was not honoured)", n, FixedLgVaddr, lgVaddrVar)
	}
	return n, nil
}

// serverVersionField is the version in `redis-server --version` ("Redis
// server v=7.4.1 sha=...", the same form since 2.6).
var serverVersionField = regexp.MustCompile(`\bv=(\S+)`)

// ProfileRuntimeInitOnce is added to the environment of every server the
// collector starts from a build (the version check, PGO training). Before
// main, clang's profile runtime (compiler-rt) in an instrumented server sets
// this variable with setenv unless it is set already, which moves environ;
// Redis releases from 2.8 until the fix of a use-after-free in setproctitle's
// spt_copyenv (redis/redis#8088, 2020; 2.8.24 to 4.0.14 among the current
// versions) then read the freed array and crash at start. Set beforehand, the
// runtime skips only creating the profile's directory and truncating an
// existing profile, which buildPGO does not need (a new directory, a file
// per process). It means nothing to a server built without instrumentation.
const ProfileRuntimeInitOnce = "__LLVM_PROFILE_RT_INIT_ONCE=__LLVM_PROFILE_RT_INIT_ONCE"

// serverCommand runs a built server with args, ProfileRuntimeInitOnce added
// to the collector's environment.
func serverCommand(ctx context.Context, bin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), ProfileRuntimeInitOnce)
	return cmd
}

// checkServerVersion fails unless the built server reports version: a tree
// that is not the release (source.Refusal checks its version.h first) must
// not pass for it.
func checkServerVersion(ctx context.Context, bin, version string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := serverCommand(ctx, bin, "--version").Output()
	if err != nil {
		return fmt.Errorf("redis-server --version: %v", err)
	}
	m := serverVersionField.FindSubmatch(out)
	if m == nil {
		return fmt.Errorf("redis-server --version names no version: %q", firstLine(string(out)))
	}
	if string(m[1]) != version {
		return fmt.Errorf("%s: the built server reports version %s (redis-server --version)", version, m[1])
	}
	return nil
}

// CCVersion is the first line of the compiler's --version, or "" if it does not answer.
func CCVersion(ctx context.Context, cc string) string {
	out, err := exec.CommandContext(ctx, cc, "--version").Output()
	if err != nil {
		return ""
	}
	return firstLine(string(out))
}

func copyTree(ctx context.Context, src, dst string) error {
	os.RemoveAll(dst)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := exec.CommandContext(ctx, "cp", "-a", src, dst).CombinedOutput()
	if err != nil {
		return fmt.Errorf("cp: %v: %s", err, firstLine(string(out)))
	}
	return nil
}

// compatFor returns the cflags of the first compatibility rule that matches
// the failed build's log and is not applied yet ("" if none).
func compatFor(rules []config.Compat, log string, have []string) string {
	for _, k := range rules {
		if strings.Contains(log, k.Match) && !slices.Contains(have, k.CFlags) {
			return k.CFlags
		}
	}
	return ""
}
