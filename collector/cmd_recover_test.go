package main

import (
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/runner"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func TestRecoverCommand(t *testing.T) {
	at := time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	const cell = "7.4.1|gcc|-O2"
	version := func(id string, at time.Time, other string) string {
		dir := t.TempDir()
		d := &store.Data{
			Runs:    []store.Run{{RunID: id, CellID: cell, Mode: "data", Repeat: 1, Status: "ok", OtherCPU: other, StartedAt: at}},
			Results: []store.Result{{RunID: id, CellID: cell, Mode: "data", Repeat: 1, Test: "SET"}},
		}
		if err := d.Save(dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	earlier := version("old", at, "others:30")
	data := version("new", at.Add(time.Hour), "others:0")
	stdout, _, err := runCLI(t, "recover", "-data", data, "-redo-noisy", "5", earlier, data)
	if err != nil {
		t.Fatal(err)
	}
	if want := "recovered 1 runs measured again from 2 earlier versions (0 left out: their cell, mode and repeat is not in " + data + "); 1 redone runs in all\n"; stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	d, err := store.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) != 1 || d.Runs[0].RunID != "new" || len(d.RedoneRuns) != 1 || len(d.RedoneResults) != 1 ||
		d.RedoneRuns[0].RedoReason != "other processes 30% of a CPU > 5%"+runner.RecoveredNote || d.RedoneRuns[0].ReplacedBy != "new" {
		t.Errorf("after recover: runs %+v, redone %+v", d.Runs, d.RedoneRuns)
	}
}
