package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// TestCountShardsMergeToTheSerialCounts counts 3 configurations (gcc -O2, -Os,
// -Ofast) of Redis 7.0.15, and of 8.0.2 when Debian's tarball of it is in
// RCB_DEBIAN_TARBALLS too, once serially and once as 3 shards (collector count
// -cells, each into its own data directory, checked against the serial
// dataset's setup with -reference), merges the shards (collector merge), and
// finds every count of the merge equal, to the instruction, to the serial
// run's; merging the serial dataset into the merge is then accepted (the same
// cells counted twice alike). It needs RCB_DEBIAN_TARBALLS (see TestEndToEnd)
// and valgrind; it takes about ten minutes on 2 cores.
func TestCountShardsMergeToTheSerialCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Redis and counts it under Valgrind")
	}
	tarDir := os.Getenv("RCB_DEBIAN_TARBALLS")
	if tarDir == "" {
		t.Fatal("RCB_DEBIAN_TARBALLS is not set (see TestEndToEnd); or run go test -short")
	}
	versions := []string{"7.0.15"}
	if _, err := os.Stat(filepath.Join(tarDir, "redis_8.0.2.orig.tar.gz")); err == nil {
		versions = append(versions, "8.0.2")
	} else {
		t.Logf("1 version: %s has no redis_8.0.2.orig.tar.gz (Debian trixie's source)", tarDir)
	}
	ctx := context.Background()
	if deadline, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-30*time.Second))
		defer cancel()
	}
	tmp := t.TempDir()
	fixture, err := os.ReadFile("testdata/e2e-fixture-shard-matrix.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(tmp, "matrix.toml")
	line := `versions = ["` + strings.Join(versions, `", "`) + `"]`
	if err := os.WriteFile(cfg, []byte(strings.Replace(string(fixture), `versions = ["7.0.15"]`, line, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	collector := func(args ...string) string {
		t.Helper()
		var out, log bytes.Buffer
		if err := run(ctx, args, &out, &log); err != nil {
			t.Fatalf("collector %s: %v\n%s", strings.Join(args, " "), err, log.String())
		}
		return out.String()
	}
	count := func(data string, more ...string) {
		collector(append([]string{"count", "-config", cfg, "-data", data, "-work", filepath.Join(tmp, "work"), "-ccache",
			"-source", "tarballs", "-tarballs", tarDir, "-no-progress"}, more...)...)
	}
	serial := filepath.Join(tmp, "serial")
	count(serial)
	var cells [3][]string
	for i, v := range versions {
		for j, f := range []string{"-O2", "-Os", "-Ofast"} {
			k := (i + j) % 3
			cells[k] = append(cells[k], v+"|gcc|"+f)
		}
	}
	var shards []string
	for i, ids := range cells {
		dir := filepath.Join(tmp, fmt.Sprintf("shard-%d", i))
		count(dir, "-cells", strings.Join(ids, ","), "-reference", serial)
		shards = append(shards, dir)
	}
	merged := filepath.Join(tmp, "merged")
	collector(append([]string{"merge", "-out", merged}, shards...)...)
	want, got := countsByKey(t, serial), countsByKey(t, merged)
	if n := len(versions) * 3 * 20; len(want) != n {
		t.Errorf("serial run: %d (cell, mode, test) counted, want %d", len(want), n)
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || g != w {
			t.Errorf("%s: shards %q, serial %q", k, g, w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s counted by a shard only", k)
		}
	}
	t.Logf("%d versions x 3 configurations: %d (cell, mode, test) counts equal in the merged shards and the serial run", len(versions), len(want))
	collector("merge", "-out", merged, serial)
}

// countsByKey reads a dataset's counts as cell|mode|repeat|test -> status and
// every event counter.
func countsByKey(t *testing.T, dir string) map[string]string {
	t.Helper()
	d, err := store.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, c := range d.Counts {
		v := c.Status
		for _, p := range []*int64{c.Requests, c.Ir, c.Dr, c.Dw, c.I1mr, c.D1mr, c.D1mw, c.ILmr, c.DLmr, c.DLmw, c.Bc, c.Bcm, c.Bi, c.Bim} {
			v += fmt.Sprintf(" %d", value(p))
		}
		out[fmt.Sprintf("%s|%s|%d|%s", c.CellID, c.Mode, c.Repeat, c.Test)] = v
	}
	return out
}

func value(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}
