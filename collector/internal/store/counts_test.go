package store

import (
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// A count_runs file written before guest_cpu was recorded loads (null guest
// CPU), merges with a shard that records it, and both survive a save.
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
	s := &Data{CountRuns: []CountRun{{RunID: "r2", CellID: "7.4.1|gcc|-O2", Mode: "data", Repeat: 2, Status: "ok", MachineID: "m1", StartedAt: t0, GuestCPU: &sig}}}
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
	got := map[string]*string{}
	for _, r := range m.CountRuns {
		got[r.RunID] = r.GuestCPU
	}
	if len(m.CountRuns) != 2 || got["r1"] != nil || got["r2"] == nil || *got["r2"] != sig {
		t.Errorf("merged count runs %+v", m.CountRuns)
	}
}
