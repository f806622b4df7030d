package runner

import (
	"fmt"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// historyRun is a run of 2.8.24|gcc|-O2 data #1 started `after` t0, with a SET result of rps.
func historyRun(id string, after time.Duration, other string, steal *float64, rps float64) (store.Run, store.Result) {
	r := store.Run{RunID: id, CellID: "2.8.24|gcc|-O2", Mode: "data", Repeat: 1, Status: "ok", OtherCPU: other, StealPct: steal, StartedAt: t0.Add(after)}
	return r, store.Result{RunID: id, CellID: r.CellID, Mode: "data", Repeat: 1, Test: "SET", Status: "ok", RPS: &rps}
}

func TestRecoverFindsRunsMeasuredAgainInTheDatasetsHistory(t *testing.T) {
	steal := 26.9
	a1, a1r := historyRun("a1", 0, "others:12", nil, 90000)
	a2, a2r := historyRun("a2", time.Hour, "others:0", &steal, 70000)
	a3, a3r := historyRun("a3", 2*time.Hour, "others:0", nil, 100000)
	gone, goneR := historyRun("gone", 0, "others:0", nil, 1)
	gone.Mode, goneR.Mode = "pipe", "pipe" // its (cell, mode, repeat) is no longer in the dataset
	earlier := []*store.Data{
		{Runs: []store.Run{a1, gone}, Results: []store.Result{a1r, goneR}},
		{Runs: []store.Run{a2}, Results: []store.Result{a2r}},
		{Runs: []store.Run{a2}, Results: []store.Result{a2r}}, // the same run in two versions
	}
	d := &store.Data{Runs: []store.Run{a3}, Results: []store.Result{a3r}}
	n, orphans := Recover(d, earlier, Redo{NoisyPercent: 5, StealPercent: 10})
	if n != 2 || orphans != 1 {
		t.Fatalf("recovered %d, orphans %d; want 2 and 1", n, orphans)
	}
	var got []string
	for _, r := range d.RedoneRuns {
		got = append(got, fmt.Sprintf("%s -> %s: %s", r.RunID, r.ReplacedBy, r.RedoReason))
	}
	want := []string{
		"a1 -> a2: other processes 12% of a CPU > 5%" + RecoveredNote,
		"a2 -> a3: host steal 26.9% > 10%" + RecoveredNote,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("redone runs\n%v\nwant\n%v", got, want)
	}
	if len(d.RedoneResults) != 2 || *d.RedoneResults[0].RPS+*d.RedoneResults[1].RPS != 160000 {
		t.Errorf("redone results %+v, want a1's and a2's, once each", d.RedoneResults)
	}
	if len(d.Runs) != 1 || d.Runs[0].RunID != "a3" || len(d.Results) != 1 {
		t.Errorf("runs %+v: the current run must stay as it is", d.Runs)
	}
	// Recovering again adds nothing; a run no rule explains says so.
	if n, _ := Recover(d, earlier, Redo{NoisyPercent: 5, StealPercent: 10}); n != 0 {
		t.Errorf("second Recover added %d runs, want 0", n)
	}
	d2 := &store.Data{Runs: []store.Run{a3}, Results: []store.Result{a3r}}
	Recover(d2, earlier[:1], Redo{})
	if len(d2.RedoneRuns) != 1 || d2.RedoneRuns[0].RedoReason != "unknown"+RecoveredNote || d2.RedoneRuns[0].ReplacedBy != "a3" {
		t.Errorf("without rules: %+v", d2.RedoneRuns)
	}
}
