package build

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/testenv"
)

// slowRealBuild skips a test that builds Redis several times unless
// RCB_SLOW_TESTS is set (scripts/test-slow.sh) and the run is not -short.
func slowRealBuild(t *testing.T) {
	t.Helper()
	if os.Getenv("RCB_SLOW_TESTS") == "" {
		t.Skip("a slow real-build test: scripts/test-slow.sh runs it (RCB_SLOW_TESTS=1)")
	}
	testenv.Real(t, "builds Redis")
}

// debianTree extracts Debian's source tarball of version from
// RCB_DEBIAN_TARBALLS (scripts/test.sh downloads 7.0.15 and 8.0.2) into a
// temporary directory; the test is skipped when the variable is not set.
func debianTree(t *testing.T, version string) string {
	t.Helper()
	tarDir := testenv.Tarballs(t, false)
	src := filepath.Join(t.TempDir(), "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	tar := exec.Command("tar", "xzf", filepath.Join(tarDir, "redis_"+version+".orig.tar.gz"), "-C", src, "--strip-components=1")
	if out, err := tar.CombinedOutput(); err != nil {
		t.Fatalf("extract: %v\n%s", err, out)
	}
	return src
}

// realBuild builds cell c from src in a new work directory with every core,
// and fails the test unless the build is ok.
func realBuild(t *testing.T, c config.Cell, src string) Result {
	t.Helper()
	r, err := Build(context.Background(), Spec{Cell: c, SourceDir: src, WorkDir: t.TempDir(), Jobs: runtime.NumCPU(), Timeout: 20 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "ok" {
		t.Fatalf("status %q: %s\n%s", r.Status, r.Error, r.LogTail)
	}
	return r
}
