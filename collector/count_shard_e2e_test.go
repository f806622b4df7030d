package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
	"github.com/redis-compiler-benchmarks/collector/internal/testenv"
)

// TestCountShardsMergeToTheSerialCounts counts 3 configurations (gcc -O2, -Os,
// -Ofast) of Redis 7.0.15, and of 8.0.2 when Debian's tarball of it is in
// RCB_DEBIAN_TARBALLS too, once serially and once as 3 shards (collector count
// -cells, each into its own data directory, checked against the serial
// dataset's setup with -reference), merges the shards (collector merge), and
// finds every test's instructions (and reads, writes, branches and requests)
// in the merge equal to the serial run's, the simulated cache and branch
// misses within simulatedSlack; merging the serial dataset into the merge is
// then accepted (the same cells counted twice alike). It needs RCB_DEBIAN_TARBALLS (see TestEndToEnd)
// and valgrind; it takes about ten minutes on 2 cores.
func TestCountShardsMergeToTheSerialCounts(t *testing.T) {
	if os.Getenv("RCB_SLOW_TESTS") == "" {
		t.Skip("a slow real-build test: scripts/test-slow.sh runs it (RCB_SLOW_TESTS=1)")
	}
	testenv.Real(t, "builds Redis and counts it under Valgrind")
	tarDir := testenv.Tarballs(t, true)
	versions := []string{"7.0.15"}
	if _, err := os.Stat(filepath.Join(tarDir, "redis_8.0.2.orig.tar.gz")); err == nil {
		versions = append(versions, "8.0.2")
	} else {
		t.Logf("1 version: %s has no redis_8.0.2.orig.tar.gz (Debian trixie's source)", tarDir)
	}
	ctx := testenv.Context(t)
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
	worst, at := 0.0, ""
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			t.Errorf("%s: not counted by the shards", k)
			continue
		}
		if g.exact != w.exact {
			t.Errorf("%s: shards %q, serial %q (status, requests, Ir, Dr, Dw, Bc, Bi)", k, g.exact, w.exact)
		}
		for i := range w.simulated {
			a, b := float64(g.simulated[i]), float64(w.simulated[i])
			d := math.Abs(a - b)
			if rel := d / math.Max(b, 1); rel > worst {
				worst, at = rel, fmt.Sprintf("%s %s: %d and %d", k, simulatedEvents[i], g.simulated[i], w.simulated[i])
			}
			if d > simulatedSlack && d > 0.001*b {
				t.Errorf("%s %s: shards %d, serial %d", k, simulatedEvents[i], g.simulated[i], w.simulated[i])
			}
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s counted by a shard only", k)
		}
	}
	t.Logf("%d versions x 3 configurations: %d (cell, mode, test) counted alike in the merged shards and the serial run; simulated misses at most %.3f%% apart (%s)",
		len(versions), len(want), worst*100, at)
	collector("merge", "-out", merged, serial)
}

// simulatedEvents are the events of callgrind's cache and branch-predictor
// simulation, which depend on addresses (where the stack or a buffer lies),
// not only on the instructions executed: a count of the same binary made
// elsewhere differed in them by up to 2 events in a test, the instructions,
// reads, writes and branches the same.
var simulatedEvents = []string{"I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw", "Bcm", "Bim"}

// simulatedSlack is the difference in a simulated event that passes whatever
// the count (else 0.1% of it).
const simulatedSlack = 3

// testCounts are one test's counts: the executed ones (status, requests, Ir,
// Dr, Dw, Bc, Bi) as one string, which a shard must give exactly, and the
// simulated ones (simulatedEvents).
type testCounts struct {
	exact     string
	simulated []int64
}

// countsByKey reads a dataset's counts as cell|mode|repeat|test -> counts.
func countsByKey(t *testing.T, dir string) map[string]testCounts {
	t.Helper()
	d, err := store.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]testCounts{}
	for _, c := range d.Counts {
		k := testCounts{exact: c.Status}
		for _, p := range []*int64{c.Requests, c.Ir, c.Dr, c.Dw, c.Bc, c.Bi} {
			k.exact += fmt.Sprintf(" %d", value(p))
		}
		for _, p := range []*int64{c.I1mr, c.D1mr, c.D1mw, c.ILmr, c.DLmr, c.DLmw, c.Bcm, c.Bim} {
			k.simulated = append(k.simulated, value(p))
		}
		out[fmt.Sprintf("%s|%s|%d|%s", c.CellID, c.Mode, c.Repeat, c.Test)] = k
	}
	return out
}

func value(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}
