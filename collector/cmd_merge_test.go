package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func TestMergeCommand(t *testing.T) {
	at := time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	shard := func(cell string) string {
		dir := t.TempDir()
		d := &store.Data{
			Plan:    []store.Plan{{CellID: cell}},
			Builds:  []store.Build{{BuildID: cell + "|b", CellID: cell, Status: "ok", StartedAt: at}},
			Runs:    []store.Run{{RunID: cell + "|r", CellID: cell, Mode: "data", Repeat: 1, StartedAt: at}},
			Results: []store.Result{{RunID: cell + "|r", CellID: cell, Test: "SET"}, {RunID: cell + "|r", CellID: cell, Test: "GET"}},
		}
		if err := d.Save(dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	a, b, out := shard("7.4.1|gcc|-O2"), shard("7.4.1|clang|-O2"), filepath.Join(t.TempDir(), "merged")
	stdout, _, err := runCLI(t, "merge", "-out", out, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if want := "merged 2 inputs into " + out + ": 2 builds, 2 runs, 4 results\n"; stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	// Merging again into the same output adds nothing.
	stdout, _, err = runCLI(t, "merge", "-out", out, b)
	if err != nil || !strings.HasSuffix(stdout, ": 2 builds, 2 runs, 4 results\n") {
		t.Errorf("second merge: %q, %v", stdout, err)
	}
}

// Two VMs from one image can share a plain machine ID; a merge that would
// give one's record to the other (and move its runs to the other's hardware
// class) is refused, and the output is left as it was.
func TestMergeRefusesOneMachineIDForTwoCPUs(t *testing.T) {
	at := time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	dataset := func(cpu, class string) string {
		dir := t.TempDir()
		d := &store.Data{
			Machines: []store.Machine{{MachineID: "6dfb9b388c55", CPUModel: "AMD EPYC", Cores: 2, MeasuredAt: at, CPUID: &cpu, HardwareClass: &class}},
			Builds:   []store.Build{{BuildID: cpu + "|b", CellID: "7.4.1|gcc|-O2", Status: "ok", StartedAt: at, MachineID: "6dfb9b388c55"}},
		}
		if err := d.Save(dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	out := dataset("family 25 model 17 stepping 1", "AMD EPYC (family 25 model 17), 2 cores")
	in := dataset("family 26 model 2 stepping 1", "AMD EPYC (family 26 model 2), 2 cores")
	before, _ := os.ReadFile(filepath.Join(out, store.MachinesFile))
	_, _, err := runCLI(t, "merge", "-out", out, in)
	if err == nil || !strings.Contains(err.Error(), "two CPUs under one ID") || !strings.Contains(err.Error(), "nothing merged") {
		t.Fatalf("merge: %v, want a refusal", err)
	}
	if after, _ := os.ReadFile(filepath.Join(out, store.MachinesFile)); string(after) != string(before) {
		t.Error("the refused merge changed the output's machines")
	}
	// The same CPU under its ID merges.
	if _, _, err := runCLI(t, "merge", "-out", out, dataset("family 25 model 17 stepping 1", "AMD EPYC (family 25 model 17), 2 cores")); err != nil {
		t.Errorf("merge of the same machine: %v", err)
	}
}
