package store

import (
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// A count_runs file written before guest_cpu and protocol were recorded
// loads (null guest CPU, protocol 1: superseded), merges with a shard that
// records both, and both survive a save, each in its table.
func TestCountRunsWithoutTheGuestCPULoadAndMerge(t *testing.T) {
	type oldCountRun struct {
		RunID     string `parquet:"run_id"`
		CellID    string `parquet:"cell_id"`
		Mode      string `parquet:"mode"`
		Repeat    int32  `parquet:"repeat"`
		Status    string `parquet:"status"`
		MachineID string `parquet:"machine_id"`
	}
	old, shard, out := t.TempDir(), t.TempDir(), t.TempDir()
	if err := parquet.WriteFile(filepath.Join(old, CountRunsFile), []oldCountRun{{"r1", "7.4.1|gcc|-O2", "data", 1, "ok", "m0"}}); err != nil {
		t.Fatal(err)
	}
	sig := "GenuineIntel max=0xd 1=000306c3,7ffafbff,bfebfbff | glibc=2.36"
	s := &Data{CountRuns: []CountRun{{RunID: "r2", CellID: "7.4.1|gcc|-O2", Mode: "data", Repeat: 2, Status: "ok", MachineID: "m1", StartedAt: t0, GuestCPU: &sig, Protocol: CountProtocol}}}
	if err := s.Save(shard); err != nil {
		t.Fatal(err)
	}
	all := &Data{}
	for _, dir := range []string{old, shard} {
		d, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		all.Merge(d)
	}
	if err := all.Save(out); err != nil {
		t.Fatal(err)
	}
	m, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.CountRuns) != 1 || m.CountRuns[0].RunID != "r2" || m.CountRuns[0].GuestCPU == nil || *m.CountRuns[0].GuestCPU != sig {
		t.Errorf("current count runs %+v", m.CountRuns)
	}
	if len(m.SupersededCountRuns) != 1 || m.SupersededCountRuns[0].RunID != "r1" || m.SupersededCountRuns[0].GuestCPU != nil {
		t.Errorf("superseded count runs %+v", m.SupersededCountRuns)
	}
}

// Runs of an earlier counting protocol leave count_runs and counts with their
// counts, for the superseded tables, and are never lost: not by a save, not
// when the same (cell, mode, repeat) is counted again under the current one.
func TestEarlierProtocolsRunsAreSupersededNotLost(t *testing.T) {
	dir := t.TempDir()
	ir := 100.0
	d := &Data{
		CountRuns: []CountRun{
			{RunID: "old", CellID: "c", Mode: "data", Repeat: 1, Status: "ok", StartedAt: t0},
			{RunID: "new", CellID: "c", Mode: "data", Repeat: 1, Status: "ok", StartedAt: t0.Add(1), Protocol: CountProtocol},
		},
		Counts: []Count{
			{RunID: "old", CellID: "c", Mode: "data", Repeat: 1, Test: "SET", Status: "ok", InstructionsPerRequest: &ir},
			{RunID: "new", CellID: "c", Mode: "data", Repeat: 1, Test: "SET", Status: "ok", InstructionsPerRequest: &ir},
		},
	}
	if err := d.Save(dir); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // a second load and save changes nothing
		m, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.CountRuns) != 1 || m.CountRuns[0].RunID != "new" || len(m.Counts) != 1 || m.Counts[0].RunID != "new" {
			t.Fatalf("load %d: current %+v %+v", i, m.CountRuns, m.Counts)
		}
		if len(m.SupersededCountRuns) != 1 || m.SupersededCountRuns[0].RunID != "old" || len(m.SupersededCounts) != 1 || m.SupersededCounts[0].RunID != "old" {
			t.Fatalf("load %d: superseded %+v %+v", i, m.SupersededCountRuns, m.SupersededCounts)
		}
		if err := m.Save(dir); err != nil {
			t.Fatal(err)
		}
	}
}
