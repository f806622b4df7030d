package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// countedFixture is a data directory with one counting run of cell (data
// mode, repeat 1, run runID) under valgrind vg on guest CPU guest, built by
// gcc version cc, its SET test counting ir instructions for 1,000 requests.
func countedFixture(t *testing.T, cell, runID, vg, guest, cc string, ir int64) string {
	t.Helper()
	at := time.Date(2026, 11, 28, 2, 0, 0, 0, time.UTC)
	req := int64(1000)
	buildID := cell + "|" + cc
	d := &store.Data{
		Builds:    []store.Build{{BuildID: buildID, CellID: cell, Compiler: "gcc", Status: "ok", CCVersion: cc, StartedAt: at}},
		CountRuns: []store.CountRun{{RunID: runID, CellID: cell, BuildID: buildID, Compiler: "gcc", Mode: "data", Repeat: 1, Status: "ok", ValgrindVersion: vg, GuestCPU: &guest, StartedAt: at, Protocol: store.CountProtocol}},
		Counts:    []store.Count{{RunID: runID, BuildID: buildID, CellID: cell, Compiler: "gcc", Mode: "data", Repeat: 1, Test: "SET", Status: "ok", Ir: &ir, Requests: &req}},
	}
	dir := t.TempDir()
	if err := d.Save(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

const (
	fixtureGuest = "GenuineIntel max=0xd 1=000306c3,7ffefbff,bfebfbff | glibc=2.36 platform=haswell"
	fixtureVG    = "valgrind-3.19.0"
	fixtureGCC   = "gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0"
)

// A merge refuses, in one line and writing nothing, counts that could not be
// compared with the dataset's: another Valgrind, guest CPU or compiler
// version, or a cell counted twice with different results.
func TestMergeRefusesCountsOfAnotherSetup(t *testing.T) {
	const cell, other = "7.4.1|gcc|-O2", "7.4.1|gcc|-Os"
	for _, c := range []struct {
		name, want string
		in         string
	}{
		{"valgrind", "Valgrind valgrind-3.20.0 is not the dataset's (valgrind-3.19.0)",
			countedFixture(t, other, "b", "valgrind-3.20.0", fixtureGuest, fixtureGCC, 5000)},
		{"guest CPU", "guest CPU ", // then its hash and summary
			countedFixture(t, other, "b", fixtureVG, "AuthenticAMD max=0x10 1=00a20f12,7ed8320b,178bfbff | glibc=2.36 platform=x86-64-v3", fixtureGCC, 5000)},
		{"compiler", "gcc compiler gcc-12 (Debian 12.2.0-14+deb12u2) 12.2.0 is not the dataset's",
			countedFixture(t, other, "b", fixtureVG, fixtureGuest, "gcc-12 (Debian 12.2.0-14+deb12u2) 12.2.0", 5000)},
		{"counted twice", "7.4.1|gcc|-O2 data #1 counted twice with different results: SET 5000000 instructions for 1000 requests in one, 5000001 for 1000 in the other",
			countedFixture(t, cell, "b", fixtureVG, fixtureGuest, fixtureGCC, 5000001)},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := countedFixture(t, cell, "a", fixtureVG, fixtureGuest, fixtureGCC, 5000000)
			before, _ := os.ReadFile(filepath.Join(out, store.CountRunsFile))
			stdout, _, err := runCLI(t, "merge", "-out", out, c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasSuffix(err.Error(), "; nothing merged") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("merge: %v, want one line with %q", err, c.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
			if after, _ := os.ReadFile(filepath.Join(out, store.CountRunsFile)); string(after) != string(before) {
				t.Error("the refused merge changed the output's count runs")
			}
		})
	}
	// The same setup merges, and so does a cell counted twice alike.
	out := countedFixture(t, cell, "a", fixtureVG, fixtureGuest, fixtureGCC, 5000000)
	same := countedFixture(t, other, "b", fixtureVG, fixtureGuest, fixtureGCC, 5000)
	again := countedFixture(t, cell, "c", fixtureVG, fixtureGuest, fixtureGCC, 5000000)
	if _, _, err := runCLI(t, "merge", "-out", out, same, again); err != nil {
		t.Errorf("merge of the same setup: %v", err)
	}
	// Into an empty directory (a new dataset) any setup merges.
	empty := filepath.Join(t.TempDir(), "new")
	if _, _, err := runCLI(t, "merge", "-out", empty, countedFixture(t, other, "b", "valgrind-3.20.0", fixtureGuest, fixtureGCC, 5000)); err != nil {
		t.Errorf("merge into a new dataset: %v", err)
	}
}
