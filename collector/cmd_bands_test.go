package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// collector bands writes rebuild_bands.parquet into the data directory,
// alone, and prints the bands; with -n it only prints them.
func TestBandsWritesTheRebuildBandsAlone(t *testing.T) {
	data := statsFixture(t)
	file := filepath.Join(data, store.RebuildBandsFile)
	os.Remove(file) // statsFixture's save wrote it; the command must write it again
	before, err := os.Stat(filepath.Join(data, store.CountsFile))
	if err != nil {
		t.Fatal(err)
	}
	if out, stderr, err := runCLI(t, "bands", "-n", "-data", data); err != nil || !strings.Contains(out, "rebuild band: instructions_per_request: no rebuild pair yet, band 0") {
		t.Fatalf("bands -n: %v %s\n%s", err, stderr, out)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("bands -n wrote %s (%v)", file, err)
	}
	out, stderr, err := runCLI(t, "bands", "-data", data)
	if err != nil || !strings.Contains(out, "wrote "+file) {
		t.Fatalf("bands: %v %s\n%s", err, stderr, out)
	}
	d, err := store.Load(data)
	if err != nil || len(d.RebuildBands) != len(store.CountedMetrics) {
		t.Fatalf("loaded %v, %d bands; want one per counted metric", err, len(d.RebuildBands))
	}
	if after, err := os.Stat(filepath.Join(data, store.CountsFile)); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("bands rewrote %s (%v)", store.CountsFile, err)
	}
}
