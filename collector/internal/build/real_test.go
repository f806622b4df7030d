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
)

// TestBuildDepsGetFlagsRealRedis builds Redis 7.0.15 (Debian's source tarball,
// RCB_DEBIAN_TARBALLS as in the end-to-end test) with deps_get_flags = true and
// clang -O2 -flto, the hardest case: jemalloc, Lua and hiredis must be compiled
// with the cell's flags too, archived with llvm-ar (an archive of LLVM bitcode)
// and linked by lld. Without NM=llvm-nm-19 it fails to link (undefined
// je_get_defrag_hint): binutils' nm cannot read bitcode, so jemalloc's build
// finds no symbols to give its je_ private prefix. It checks the compile lines of each dependency in the build
// log and that the binary runs. It takes a few minutes of both cores.
func TestBuildDepsGetFlagsRealRedis(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Redis")
	}
	tarDir := os.Getenv("RCB_DEBIAN_TARBALLS")
	if tarDir == "" {
		t.Skip("RCB_DEBIAN_TARBALLS is not set (scripts/test.sh sets it)")
	}
	for _, tool := range []string{clang.CC, clang.AR, clang.NM, "ld.lld-19"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed: scripts/test.sh installs clang-19 and lld-19", tool)
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
	spec := Spec{Cell: cell(clang, "-O2 -flto"), SourceDir: src, WorkDir: t.TempDir(), DepsGetFlags: true,
		Jobs: runtime.NumCPU(), Timeout: 15 * time.Minute}
	r, err := Build(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "ok" {
		t.Fatalf("status %q: %s\n%s", r.Status, r.Error, r.LogTail)
	}
	if r.DepsSeconds != 0 || r.CFlags != "-O2 -flto" || r.LDFlags != "-O2 -flto -fuse-ld=lld" {
		t.Errorf("deps %.1fs (want 0: no shared deps tree), cflags %q, ldflags %q", r.DepsSeconds, r.CFlags, r.LDFlags)
	}
	for _, arg := range []string{"CFLAGS=-O2 -flto", "LDFLAGS=-O2 -flto -fuse-ld=lld", "AR=llvm-ar-19", "NM=llvm-nm-19"} {
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
		line := regexp.MustCompile(`(?m)^.*\bclang-19\b.*[ /]` + file + `\b.*$`).FindString(log)
		if line == "" {
			t.Errorf("no clang-19 compile line for %s in %s", file, r.LogPath)
		} else if !strings.Contains(line, "-O2 -flto") {
			t.Errorf("%s compiled without the cell's flags: %s", file, line)
		}
	}
	out, err := exec.Command(r.Binary, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "v=7.0.15") {
		t.Errorf("%s --version: %v: %s", r.Binary, err, out)
	}
}
