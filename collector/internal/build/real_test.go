package build

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/testenv"
)

// TestBuildDepsGetFlagsRealRedis builds Redis 7.0.15 (Debian's source tarball,
// RCB_DEBIAN_TARBALLS as in the end-to-end test) with deps_get_flags = true and
// -O2 -flto with each compiler, the hardest case: jemalloc, Lua and hiredis
// must be compiled with the cell's flags too, archived with the compiler's
// archiver (clang: llvm-ar, an archive of LLVM bitcode) and linked with LTO
// (clang: by lld). Without NM=llvm-nm-19 the clang build fails to link
// (undefined je_get_defrag_hint): binutils' nm cannot read bitcode, so
// jemalloc's build finds no symbols to give its je_ private prefix. It checks
// the compile lines of each dependency in the build log and that the binary
// runs. It takes about 3 minutes of both cores.
func TestBuildDepsGetFlagsRealRedis(t *testing.T) {
	testenv.Real(t, "builds Redis")
	tarDir := testenv.Tarballs(t, false)
	for _, cc := range []struct {
		compiler       config.Compiler
		ldflags, tools string
	}{
		{clang, "-O2 -flto -fuse-ld=lld", "ld.lld-19"},
		{gcc, "-O2 -flto", ""},
	} {
		t.Run(cc.compiler.Name, func(t *testing.T) { buildDepsGetFlags(t, tarDir, cc.compiler, cc.ldflags, cc.tools) })
	}
}

func buildDepsGetFlags(t *testing.T, tarDir string, compiler config.Compiler, ldflags string, extraTools ...string) {
	for _, tool := range append([]string{compiler.CC, compiler.AR, compiler.NM}, extraTools...) {
		if tool == "" {
			continue
		}
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed: scripts/test.sh installs it", tool)
		}
	}
	src := filepath.Join(t.TempDir(), "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	tar := exec.Command("tar", "xzf", filepath.Join(tarDir, "redis_7.0.15.orig.tar.gz"), "-C", src, "--strip-components=1")
	if out, err := tar.CombinedOutput(); err != nil {
		t.Fatalf("extract: %v\n%s", err, out)
	}
	spec := Spec{Cell: cell(compiler, "-O2 -flto"), SourceDir: src, WorkDir: t.TempDir(), DepsGetFlags: true,
		Jobs: runtime.NumCPU(), Timeout: 15 * time.Minute}
	r, err := Build(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "ok" {
		t.Fatalf("status %q: %s\n%s", r.Status, r.Error, r.LogTail)
	}
	if r.DepsSeconds != 0 || r.CFlags != "-O2 -flto" || r.LDFlags != ldflags {
		t.Errorf("deps %.1fs (want 0: no shared deps tree), cflags %q, ldflags %q", r.DepsSeconds, r.CFlags, r.LDFlags)
	}
	for _, arg := range []string{"CFLAGS=-O2 -flto", "LDFLAGS=" + ldflags, "AR=" + compiler.AR, "NM=" + compiler.NM} {
		if !strings.Contains(r.MakeArgs, arg) {
			t.Errorf("make arguments %q lack %q", r.MakeArgs, arg)
		}
	}
	logBytes, err := os.ReadFile(r.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	log := string(logBytes)
	if strings.Contains(log, "### dependencies") {
		t.Error("the build used a shared dependencies tree")
	}
	// One compile line of each dependency, each with the cell's flags.
	for _, file := range []string{`jemalloc\.c`, `lapi\.c`, `hiredis\.c`, `server\.c`} {
		line := regexp.MustCompile(`(?m)^.*\b` + regexp.QuoteMeta(compiler.CC) + `\b.*[ /]` + file + `\b.*$`).FindString(log)
		if line == "" {
			t.Errorf("no %s compile line for %s in %s", compiler.CC, file, r.LogPath)
		} else if !strings.Contains(line, "-O2 -flto") {
			t.Errorf("%s compiled without the cell's flags: %s", file, line)
		}
	}
	out, err := exec.Command(r.Binary, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "v=7.0.15") {
		t.Errorf("%s --version: %v: %s", r.Binary, err, out)
	}
}
