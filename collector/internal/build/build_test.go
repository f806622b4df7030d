package build

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
)

var (
	gcc   = config.Compiler{Name: "gcc", CC: "gcc-12", AR: "gcc-ar-12", NM: "gcc-nm-12"}
	clang = config.Compiler{Name: "clang", CC: "clang-19", AR: "llvm-ar-19", NM: "llvm-nm-19", LTOLDFlags: "-fuse-ld=lld"}
)

func cell(cc config.Compiler, flags string) config.Cell {
	return config.Cell{Version: "7.0.15", Compiler: cc, FlagSet: config.FlagSet{Name: flags, CFlags: flags}}
}

func TestMakeArgs(t *testing.T) {
	tests := []struct {
		name   string
		spec   Spec
		compat []string
		want   string
	}{
		{"deps keep their defaults", Spec{Cell: cell(gcc, "-O2"), Jobs: 2}, nil,
			"-C src -j2 V=1 CC=gcc-12 OPTIMIZATION=-O2 REDIS_LDFLAGS=-O2 'PREV_FINAL_CFLAGS=$(FINAL_CFLAGS)' 'PREV_FINAL_LDFLAGS=$(FINAL_LDFLAGS)' redis-server"},
		{"gcc LTO needs no extra link flag", Spec{Cell: cell(gcc, "-Ofast -flto"), Jobs: 4}, nil,
			"-C src -j4 V=1 CC=gcc-12 'OPTIMIZATION=-Ofast -flto' 'REDIS_LDFLAGS=-Ofast -flto' 'PREV_FINAL_CFLAGS=$(FINAL_CFLAGS)' 'PREV_FINAL_LDFLAGS=$(FINAL_LDFLAGS)' redis-server"},
		{"clang LTO links with lld", Spec{Cell: cell(clang, "-O2 -flto"), Jobs: 2}, nil,
			"-C src -j2 V=1 CC=clang-19 'OPTIMIZATION=-O2 -flto' 'REDIS_LDFLAGS=-O2 -flto -fuse-ld=lld' 'PREV_FINAL_CFLAGS=$(FINAL_CFLAGS)' 'PREV_FINAL_LDFLAGS=$(FINAL_LDFLAGS)' redis-server"},
		{"clang without LTO: no lld", Spec{Cell: cell(clang, "-Os"), Jobs: 2}, nil,
			"-C src -j2 V=1 CC=clang-19 OPTIMIZATION=-Os REDIS_LDFLAGS=-Os 'PREV_FINAL_CFLAGS=$(FINAL_CFLAGS)' 'PREV_FINAL_LDFLAGS=$(FINAL_LDFLAGS)' redis-server"},
		{"deps get the flags and the LTO archiver and nm", Spec{Cell: cell(clang, "-O2 -flto"), Jobs: 2, DepsGetFlags: true}, nil,
			"-C src -j2 V=1 CC=clang-19 'OPTIMIZATION=-O2 -flto' 'REDIS_LDFLAGS=-O2 -flto -fuse-ld=lld' 'CFLAGS=-O2 -flto' 'LDFLAGS=-O2 -flto -fuse-ld=lld' AR=llvm-ar-19 'RANLIB=llvm-ar-19 s' NM=llvm-nm-19 redis-server"},
		{"deps get the flags, no archiver given", Spec{Cell: cell(config.Compiler{Name: "cc", CC: "cc"}, "-O2"), Jobs: 1, DepsGetFlags: true}, nil,
			"-C src -j1 V=1 CC=cc OPTIMIZATION=-O2 REDIS_LDFLAGS=-O2 CFLAGS=-O2 LDFLAGS=-O2 redis-server"},
		{"compat flags reach the compile only", Spec{Cell: cell(gcc, "-O2"), Jobs: 2}, []string{"-fcommon"},
			"-C src -j2 V=1 CC=gcc-12 'OPTIMIZATION=-O2 -fcommon' REDIS_LDFLAGS=-O2 'PREV_FINAL_CFLAGS=$(FINAL_CFLAGS)' 'PREV_FINAL_LDFLAGS=$(FINAL_LDFLAGS)' redis-server"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := shellJoin(MakeArgs(tt.spec, tt.compat)); got != tt.want {
				t.Errorf("make %s\nwant make %s", got, tt.want)
			}
		})
	}
}

func TestSlug(t *testing.T) {
	for id, want := range map[string]string{
		"7.4.1|clang|-O2 -flto":  "7.4.1_clang_-O2-flto",
		"2.6.17|gcc|-O2":         "2.6.17_gcc_-O2",
		"7.4.1|gcc|-I/opt/x -O2": "7.4.1_gcc_-I_opt_x-O2",
	} {
		if got := Slug(id); got != want {
			t.Errorf("Slug(%q) = %q, want %q", id, got, want)
		}
	}
}

func TestCompatFor(t *testing.T) {
	rules := []config.Compat{fcommon, implicit}
	both := "ld: x.o: multiple definition of `server'\nx.c:1: error: foo [-Werror=implicit-function-declaration]\n"
	tests := []struct {
		name, log string
		have      []string
		want      string
	}{
		{"first matching rule", both, nil, "-fcommon"},
		{"only the second matches", "x.c:1: error: foo [-Werror=implicit-function-declaration]", nil, "-Wno-error=implicit-function-declaration"},
		{"a rule already applied is not offered again", both, []string{"-fcommon"}, "-Wno-error=implicit-function-declaration"},
		{"all applied", both, []string{"-fcommon", "-Wno-error=implicit-function-declaration"}, ""},
		{"no match", "error: something else", nil, ""},
	}
	for _, tt := range tests {
		if got := compatFor(rules, tt.log, tt.have); got != tt.want {
			t.Errorf("%s: compatFor = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The reference matrix's compatibility rules.
var (
	fcommon  = config.Compat{Name: "fcommon", Match: "multiple definition of", CFlags: "-fcommon"}
	implicit = config.Compat{Name: "implicit", Match: "-Werror=implicit-function-declaration", CFlags: "-Wno-error=implicit-function-declaration"}
)

// fakeServer is a make recipe line writing a "redis-server" that answers
// --version as 7.0.15 does (cell's version).
const fakeServer = "\t@printf '#!/bin/sh\\necho Redis server v=7.0.15 sha=00000000:0\\n' > redis-server && chmod +x redis-server\n"

// fakeTree writes a source tree whose src/Makefile behaves like Redis's to
// the collector: it prints compile and link lines (V=1 style), builds
// dependencies on .make-prerequisites, and fails like an old release under a
// new compiler, printing rule.Match, while OPTIMIZATION lacks a rule's cflags.
func fakeTree(t *testing.T, needs ...config.Compat) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "redis-7.0.15")
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	check := ""
	for _, k := range needs {
		check += fmt.Sprintf("\t@case \"$(OPTIMIZATION)\" in *%s*) ;; *) echo \"x.c:1: %s\"; "+
			"echo \"collect2: error: ld returned 1 exit status\"; exit 1;; esac\n", k.CFlags, k.Match)
	}
	mk := ".make-prerequisites:\n\t@echo deps built by $(CC) > deps.txt\n\t@touch $@\n" +
		"redis-server:\n\t@test -f deps.txt\n\t@$(CC) --version > /dev/null\n\t@echo $(CC) $(OPTIMIZATION) -c server.c\n" + check +
		"\t@echo $(CC) $(REDIS_LDFLAGS) -o redis-server server.o\n" + fakeServer
	if err := os.WriteFile(filepath.Join(dir, "src", "Makefile"), []byte(mk), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestBuildWithCompatRetryAndDepsCache(t *testing.T) {
	// This release needs both rules, found one failed build at a time.
	src, work := fakeTree(t, implicit, fcommon), t.TempDir()
	spec := Spec{Cell: cell(config.Compiler{Name: "sys", CC: "true"}, "-O2 -flto"), SourceDir: src, WorkDir: work,
		Jobs: 1, Compat: []config.Compat{fcommon, implicit}, Timeout: time.Minute}
	r, err := Build(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "ok" || r.Error != "" {
		t.Fatalf("status %q, error %q; log tail:\n%s", r.Status, r.Error, r.LogTail)
	}
	cellDir := filepath.Join(work, "cells", "7.0.15_sys_-O2-flto")
	want := Result{
		Status: "ok", CFlags: "-O2 -flto -Wno-error=implicit-function-declaration -fcommon", LDFlags: "-O2 -flto",
		CompatFlags: "-Wno-error=implicit-function-declaration -fcommon",
		MakeArgs:    "make " + shellJoin(MakeArgs(spec, []string{"-Wno-error=implicit-function-declaration", "-fcommon"})),
		Binary:      filepath.Join(cellDir, "redis-server"), BinaryBytes: int64(len("#!/bin/sh\necho Redis server v=7.0.15 sha=00000000:0\n")),
		LogPath: filepath.Join(cellDir, "build.log"),
	}
	got := Result{Status: r.Status, CFlags: r.CFlags, LDFlags: r.LDFlags, CompatFlags: r.CompatFlags,
		MakeArgs: r.MakeArgs, Binary: r.Binary, BinaryBytes: r.BinaryBytes, LogPath: r.LogPath}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("build = %+v\nwant %+v", got, want)
	}
	if !strings.HasSuffix(r.CCPath, "/true") || r.DepsSeconds <= 0 || r.BuildSeconds <= 0 {
		t.Errorf("cc path %q, deps %.3fs, build %.3fs", r.CCPath, r.DepsSeconds, r.BuildSeconds)
	}
	if _, err := os.Stat(filepath.Join(cellDir, "tree")); !os.IsNotExist(err) {
		t.Errorf("the cell's build tree was kept: %v", err)
	}
	log, _ := os.ReadFile(r.LogPath)
	for _, s := range []string{"### dependencies build:", "multiple definition of",
		`retrying with compatibility flags "-Wno-error=implicit-function-declaration"`, `retrying with compatibility flags "-fcommon"`} {
		if !strings.Contains(string(log), s) {
			t.Errorf("build log lacks %q", s)
		}
	}
	// A second flag set of the same version and compiler reuses the dependencies.
	spec.Cell = cell(spec.Cell.Compiler, "-Os")
	spec.Compat = nil
	r2, err := Build(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if r2.Status != "failed" || r2.DepsSeconds != 0 {
		t.Errorf("second build: status %q, deps %.3fs; want failed (no compat rule) with reused deps", r2.Status, r2.DepsSeconds)
	}
	log2, _ := os.ReadFile(r2.LogPath)
	if !strings.Contains(string(log2), "### dependencies reused from") {
		t.Errorf("second build log does not say the dependencies were reused:\n%s", log2)
	}
}

// With Ccache set, make gets CC="ccache <cc>" for the dependencies and the
// server, and ccache its directory; the make line recorded says so.
func TestBuildThroughCcache(t *testing.T) {
	bin := t.TempDir()
	// A stand-in ccache: records its directory and arguments, then runs them.
	script := "#!/bin/sh\necho \"$CCACHE_DIR $CCACHE_NOHASHDIR $*\" >> \"$CCACHE_DIR/calls\"\nexec \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "ccache"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	src, work := fakeTree(t), t.TempDir()
	cache := filepath.Join(work, "ccache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	spec := Spec{Cell: cell(config.Compiler{Name: "sys", CC: "true"}, "-O2"), SourceDir: src, WorkDir: work, Jobs: 1, Timeout: time.Minute, Ccache: cache}
	r, err := Build(context.Background(), spec)
	if err != nil || r.Status != "ok" {
		t.Fatalf("status %q, error %v %q", r.Status, err, r.Error)
	}
	if !strings.Contains(r.MakeArgs, "'CC=ccache true'") {
		t.Errorf("make line %q does not show ccache", r.MakeArgs)
	}
	log, _ := os.ReadFile(r.LogPath)
	for _, s := range []string{"ccache true -O2 -c server.c", "ccache true -O2 -o redis-server"} {
		if !strings.Contains(string(log), s) {
			t.Errorf("build log lacks %q:\n%s", s, log)
		}
	}
	if got := readFile(t, filepath.Join(work, "deps", "redis-7.0.15-sys", "src", "deps.txt")); got != "deps built by ccache true\n" {
		t.Errorf("dependencies built by %q, want through ccache", got)
	}
	// The Makefile ran the compiler once, through ccache, with its settings.
	if got := readFile(t, filepath.Join(cache, "calls")); got != cache+" true true --version\n" {
		t.Errorf("ccache calls %q", got)
	}
	// An LTO cell compiles without ccache: a cache shared across releases changes its code.
	spec.Cell = cell(spec.Cell.Compiler, "-O2 -flto")
	if r, err := Build(context.Background(), spec); err != nil || r.Status != "ok" || strings.Contains(r.MakeArgs, "ccache") {
		t.Errorf("LTO cell: status %q, error %v, make line %q; want no ccache", r.Status, err, r.MakeArgs)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestBuildFailureKeepsTheLogTail(t *testing.T) {
	src, work := fakeTree(t, fcommon), t.TempDir()
	r, err := Build(context.Background(), Spec{Cell: cell(config.Compiler{Name: "sys", CC: "true"}, "-O2"),
		SourceDir: src, WorkDir: work, Jobs: 1, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "failed" || r.Binary != "" || r.BinaryBytes != 0 {
		t.Errorf("result %+v, want failed without a binary", r)
	}
	if r.Error != "make: exit status 2: collect2: error: ld returned 1 exit status" {
		t.Errorf("error %q, want make's status and the linker's error line", r.Error)
	}
	if !strings.Contains(r.LogTail, "multiple definition of") {
		t.Errorf("log tail %q lacks the error", r.LogTail)
	}
}

func TestBuildRefusesFlagsThatDoNotReachTheCompile(t *testing.T) {
	src, work := fakeTree(t), t.TempDir()
	mk := filepath.Join(src, "src", "Makefile")
	b, _ := os.ReadFile(mk)
	// A Makefile that ignores OPTIMIZATION, as an old one might.
	if err := os.WriteFile(mk, []byte(strings.Replace(string(b), "$(OPTIMIZATION) -c", "-O3 -c", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Build(context.Background(), Spec{Cell: cell(config.Compiler{Name: "sys", CC: "true"}, "-O2"),
		SourceDir: src, WorkDir: work, Jobs: 1, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "failed" || !strings.Contains(r.Error, `flags "-O2" not found on the compile`) || r.Binary != "" {
		t.Errorf("result %+v, want failed because the flags did not reach the compile", r)
	}
}

func TestBuildMissingCompiler(t *testing.T) {
	_, err := Build(context.Background(), Spec{Cell: cell(config.Compiler{Name: "none", CC: "no-such-cc-binary"}, "-O2"),
		SourceDir: t.TempDir(), WorkDir: t.TempDir(), Jobs: 1, Timeout: time.Minute})
	if err == nil || err.Error() != `compiler "no-such-cc-binary" not found on PATH` {
		t.Errorf("err = %v", err)
	}
}

func TestBuildStoppedDuringDependenciesIsNotAFailure(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "redis-7.0.15")
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	mk := ".make-prerequisites:\n\t@sleep 20\nredis-server:\n\t@echo binary > redis-server\n"
	if err := os.WriteFile(filepath.Join(dir, "src", "Makefile"), []byte(mk), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	r, err := Build(ctx, Spec{Cell: cell(config.Compiler{Name: "sys", CC: "true"}, "-O2"), SourceDir: dir, WorkDir: t.TempDir(),
		Jobs: 1, Timeout: time.Minute})
	if !errors.Is(err, context.Canceled) || r.Status != "" {
		t.Fatalf("Build = status %q (%s), error %v; want no status and context.Canceled (a stop is not a failure)", r.Status, r.Error, err)
	}
	if waited := time.Since(start); waited > 10*time.Second {
		t.Errorf("Build returned %s after the stop", waited)
	}
}

// releaseTree is a stand-in release whose src/mkreleasehdr.sh writes
// release.h as Redis 2.8-4.0's does: the host name and the time as the build
// ID, kept when the commit id and "dirty" lines are already what it would
// write (here "dirty" counts the files in src). Its Makefile runs the script
// each time make reads it, and reads itself twice, as 7.x's does after
// making the Makefile.dep it includes (which changes "dirty"); the "binary"
// is the release.h it compiled.
func releaseTree(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "redis-4.0.0")
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nGIT_SHA1=00000000\nGIT_DIRTY=`ls | wc -l`\nBUILD_ID=`uname -n`\"-\"`date +%s%N`\n" +
		"test -f release.h || touch release.h\n" +
		"(grep SHA1 release.h | grep $GIT_SHA1) && (grep DIRTY release.h | grep $GIT_DIRTY) && exit 0\n" +
		"echo \"#define REDIS_GIT_SHA1 \\\"$GIT_SHA1\\\"\" > release.h\n" +
		"echo \"#define REDIS_GIT_DIRTY \\\"$GIT_DIRTY\\\"\" >> release.h\n" +
		"echo \"#define REDIS_BUILD_ID \\\"$BUILD_ID\\\"\" >> release.h\n"
	mk := "release_hdr := $(shell sh -c './mkreleasehdr.sh')\n-include Makefile.dep\nMakefile.dep:\n\t@touch $@\n" +
		".make-prerequisites:\n\t@touch $@\n" +
		"redis-server:\n\t@echo $(CC) $(OPTIMIZATION) -c server.c\n\t@echo $(CC) $(REDIS_LDFLAGS) -o redis-server server.o\n" +
		"\t@(printf '#!/bin/sh\\necho Redis server v=7.0.15\\nexit 0\\n'; cat release.h) > redis-server && chmod +x redis-server\n"
	for name, text := range map[string]string{"mkreleasehdr.sh": script, "Makefile": mk} {
		if err := os.WriteFile(filepath.Join(dir, "src", name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Every build compiles the same fixed build ID, where the release's script
// would write the host name and the time: two builds of a cell in different
// work directories are the same binary. A release without a build ID is
// built as it is.
func TestBuildIDIsFixed(t *testing.T) {
	src := releaseTree(t)
	var bins []string
	for i := 0; i < 2; i++ {
		spec := Spec{Cell: cell(config.Compiler{Name: "sys", CC: "true"}, "-O2 -flto"), SourceDir: src, WorkDir: t.TempDir(), Jobs: 1, Timeout: time.Minute}
		r, err := Build(context.Background(), spec)
		if err != nil || r.Status != "ok" {
			t.Fatalf("build %d: status %q, error %v %q", i, r.Status, err, r.Error)
		}
		if r.RedisBuildID != FixedBuildID {
			t.Errorf("build %d: REDIS_BUILD_ID %q, want %q", i, r.RedisBuildID, FixedBuildID)
		}
		if log := readFile(t, r.LogPath); !strings.Contains(log, `### release.h: REDIS_BUILD_ID fixed to "1700000000" (reproducible builds)`) {
			t.Errorf("build log does not say the build ID was fixed:\n%s", log)
		}
		bins = append(bins, readFile(t, r.Binary))
	}
	if bins[0] != bins[1] || !strings.Contains(bins[0], `#define REDIS_BUILD_ID "1700000000"`) {
		t.Errorf("the two builds compiled\n%s\nand\n%s", bins[0], bins[1])
	}

	// 2.6: no build ID, nothing written.
	plain := fakeTree(t)
	spec := Spec{Cell: cell(config.Compiler{Name: "sys", CC: "true"}, "-O2"), SourceDir: plain, WorkDir: t.TempDir(), Jobs: 1, Timeout: time.Minute}
	r, err := Build(context.Background(), spec)
	if err != nil || r.Status != "ok" || r.RedisBuildID != "" {
		t.Fatalf("release without a build ID: status %q, error %v, REDIS_BUILD_ID %q", r.Status, err, r.RedisBuildID)
	}
}

// jemallocTree is fakeTree whose dependency build configures a jemalloc as
// jemalloc 5's configure does: LG_VADDR is the preset je_cv_lg_vaddr when
// the environment has one, and the build host's answer (hostBits) when not.
func jemallocTree(t *testing.T, hostBits int) string {
	t.Helper()
	dir := fakeTree(t)
	mk := readFile(t, filepath.Join(dir, "src", "Makefile"))
	defs := "../deps/jemalloc/include/jemalloc/internal"
	mk = strings.Replace(mk, ".make-prerequisites:\n", fmt.Sprintf(".make-prerequisites:\n\t@mkdir -p %s\n\t@echo \"#define LG_VADDR $${je_cv_lg_vaddr:-%d}\" > %s/jemalloc_internal_defs.h\n", defs, hostBits, defs), 1)
	if err := os.WriteFile(filepath.Join(dir, "src", "Makefile"), []byte(mk), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// jemalloc's virtual address bits are FixedLgVaddr whatever the build host
// says (a 57-bit host built other code), and a dependency tree built before
// they were fixed is built again, not reused.
func TestBuildFixesJemallocVirtualAddressBits(t *testing.T) {
	src, work := jemallocTree(t, 57), t.TempDir()
	spec := Spec{Cell: cell(config.Compiler{Name: "sys", CC: "true"}, "-O2"), SourceDir: src, WorkDir: work, Jobs: 1, Timeout: time.Minute}
	// A dependency tree left by an earlier collector: the host's 57 bits, a marker without the recipe.
	old := filepath.Join(work, "deps", filepath.Base(src)+"-sys")
	oldDefs := filepath.Join(old, "deps", "jemalloc", "include", "jemalloc", "internal")
	if err := os.MkdirAll(oldDefs, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(oldDefs, "jemalloc_internal_defs.h"), []byte("#define LG_VADDR 57\n"), 0o644)
	os.WriteFile(filepath.Join(old, ".rcb-deps-ok"), nil, 0o644)
	if !OldDepsTree(old) {
		t.Fatal("a tree with an empty marker is not an old dependency tree")
	}
	if n, err := CompiledLgVaddr(old); n != 57 || err == nil {
		t.Errorf("old tree: LG_VADDR %d, error %v; want 57 and an error", n, err)
	}

	r, err := Build(context.Background(), spec)
	if err != nil || r.Status != "ok" {
		t.Fatalf("status %q, error %v %q; log tail:\n%s", r.Status, err, r.Error, r.LogTail)
	}
	if r.JemallocLgVaddr != FixedLgVaddr {
		t.Errorf("jemalloc configured for %d-bit virtual addresses, want %d", r.JemallocLgVaddr, FixedLgVaddr)
	}
	if r.DepsSeconds == 0 || OldDepsTree(old) {
		t.Errorf("the old dependency tree was reused (deps %.3fs, still old: %v)", r.DepsSeconds, OldDepsTree(old))
	}
	if n, err := CompiledLgVaddr(old); n != FixedLgVaddr || err != nil {
		t.Errorf("rebuilt tree: LG_VADDR %d, error %v", n, err)
	}
	if log := readFile(t, r.LogPath); !strings.Contains(log, "### dependencies build: je_cv_lg_vaddr=48 make") {
		t.Errorf("build log does not show the preset:\n%s", log)
	}
	// The next build of the version and compiler reuses the new tree.
	spec.Cell = cell(spec.Cell.Compiler, "-Os")
	if r2, err := Build(context.Background(), spec); err != nil || r2.Status != "ok" || r2.DepsSeconds != 0 || r2.JemallocLgVaddr != FixedLgVaddr {
		t.Errorf("second build: status %q, error %v, deps %.3fs, LG_VADDR %d", r2.Status, err, r2.DepsSeconds, r2.JemallocLgVaddr)
	}

	// Another host value configure took (the default huge page size here) fails the build.
	defs := filepath.Join(old, "deps", "jemalloc", "include", "jemalloc", "internal", "jemalloc_internal_defs.h")
	os.WriteFile(defs, []byte("#define LG_VADDR 48\n#define LG_PAGE 12\n#define LG_HUGEPAGE 30\n"), 0o644)
	if _, err := CompiledLgVaddr(old); err == nil || !strings.Contains(err.Error(), "LG_HUGEPAGE 30, not 21") {
		t.Errorf("1 GiB huge pages: error %v", err)
	}
	os.WriteFile(defs, []byte("#define LG_VADDR 48\n#define LG_PAGE 12\n#define LG_HUGEPAGE 21\n"), 0o644)
	if n, err := CompiledLgVaddr(old); n != 48 || err != nil {
		t.Errorf("the usual values: %d, %v", n, err)
	}

	// No jemalloc 5 (2.6 to 4.0): 0, nothing to check.
	if n, err := CompiledLgVaddr(fakeTree(t)); n != 0 || err != nil {
		t.Errorf("tree without LG_VADDR: %d, %v", n, err)
	}
}

// A server that reports another version than its cell's is a failed build,
// with both versions in its reason.
func TestBuildRefusesAServerOfAnotherVersion(t *testing.T) {
	c := cell(config.Compiler{Name: "sys", CC: "true"}, "-O2")
	c.Version = "7.0.16"
	spec := Spec{Cell: c, SourceDir: fakeTree(t), WorkDir: t.TempDir(), Jobs: 1, Timeout: time.Minute}
	r, err := Build(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if want := "7.0.16: the built server reports version 7.0.15 (redis-server --version)"; r.Status != "failed" || r.Error != want || r.Binary != "" {
		t.Errorf("status %q, error %q, binary %q; want failed with %q", r.Status, r.Error, r.Binary, want)
	}
}

// A release whose Makefile adds -flto to -O3 through REDIS_CFLAGS (7.2) gets
// an empty REDIS_CFLAGS on an -O3 build, so that -O3 is -O3; another flag
// set, and a Makefile that adds -flto to OPTIMIZATION (7.4 on, which the
// command line replaces), get none.
func TestMakeArgsKeepTheMakefilesLTOOffO3(t *testing.T) {
	adds := makefileTree(t, "OPTIMIZATION?=-O3\nifeq ($(OPTIMIZATION),-O3)\n\tREDIS_CFLAGS+=-flto\n\tREDIS_LDFLAGS+=-O3 -flto\nendif\n")
	own := makefileTree(t, "OPTIMIZATION?=-O3\nifeq ($(OPTIMIZATION),-O3)\n\tOPTIMIZATION+=-flto\nendif\n")
	for _, tt := range []struct {
		name, dir, flags string
		empty            bool
	}{{"7.2", adds, "-O3", true}, {"7.2", adds, "-O3 -flto", false}, {"7.2", adds, "-O2", false}, {"7.4", own, "-O3", false}} {
		args := MakeArgs(Spec{Cell: cell(gcc, tt.flags), Jobs: 2, SourceDir: tt.dir}, nil)
		if got := slices.Contains(args, "REDIS_CFLAGS="); got != tt.empty {
			t.Errorf("%s's Makefile, %s: make %s; want an empty REDIS_CFLAGS: %v", tt.name, tt.flags, shellJoin(args), tt.empty)
		}
	}
}

// A compile of the server with an optimisation or LTO flag its flags do
// not have is refused, naming it; a stock build is not checked.
func TestCheckNoneAddedRefusesTheMakefilesOwnLTO(t *testing.T) {
	log := "gcc -std=c11 -Wall -O3 -g -ggdb -flto=auto -I../deps/hiredis -MMD -o server.o -c server.c\ngcc -O3 -g -ggdb -rdynamic -o redis-server server.o\n"
	err := checkNoneAdded(log, "-O3", false)
	if err == nil || err.Error() != `the compile of the server has -flto=auto, which the flags "-O3" do not: the release's Makefile added it` {
		t.Errorf("checkNoneAdded = %v", err)
	}
	if err := checkNoneAdded(log, "-O3 -flto=auto", false); err != nil {
		t.Errorf("checkNoneAdded with the flag given = %v", err)
	}
	if err := checkNoneAdded(log, "", true); err != nil {
		t.Errorf("checkNoneAdded of a stock build = %v", err)
	}
}
