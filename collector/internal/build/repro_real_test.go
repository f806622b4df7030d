package build

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestCodeHashReproducibleRealRedis builds Redis 7.0.15 (Debian's source
// tarball, RCB_DEBIAN_TARBALLS) with clang -O2 -flto three times, as the
// matrix builds it (dependencies built once per work directory with Redis's
// defaults), each in a work directory of its own at another depth: without
// ccache; through an empty ccache; and through the cache the second filled,
// so that every object comes from a compile in another directory. All three
// must have one code hash: a cell's code may not depend on where, or
// through which cache, it was built. (Spec.cc leaves ccache out of LTO
// cells since a cache shared across releases changed 7.4.1's code: builds 2
// and 3 pass Ccache and must match all the same.) It takes about 8 minutes
// of both cores.
func TestCodeHashReproducibleRealRedis(t *testing.T) {
	slowRealBuild(t)
	for _, tool := range []string{clang.CC, clang.AR, clang.NM, "ld.lld-19", "ccache"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	src := debianTree(t, "7.0.15")
	base := t.TempDir()
	builds := []struct{ work, ccache string }{
		{work: filepath.Join(base, "a", "work")},
		{work: filepath.Join(base, "another", "deeper", "work-dir"), ccache: filepath.Join(base, "ccache")},
		{work: filepath.Join(base, "third"), ccache: filepath.Join(base, "ccache")},
	}
	var codes []string
	for _, b := range builds {
		spec := Spec{Cell: cell(clang, "-O2 -flto"), SourceDir: src, WorkDir: b.work, Ccache: b.ccache,
			Jobs: runtime.NumCPU(), Timeout: 20 * time.Minute}
		r, err := Build(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != "ok" || r.CodeSHA256 == "" {
			t.Fatalf("build in %s: status %q, code %q: %s\n%s", b.work, r.Status, r.CodeSHA256, r.Error, r.LogTail)
		}
		t.Logf("work %s, ccache %q: code %s", b.work, b.ccache, r.CodeSHA256)
		codes = append(codes, r.CodeSHA256)
	}
	if codes[0] != codes[1] || codes[1] != codes[2] {
		t.Errorf("one cell, several code hashes: %s (no ccache), %s (empty ccache), %s (ccache hits from another directory)", codes[0], codes[1], codes[2])
	}
}
