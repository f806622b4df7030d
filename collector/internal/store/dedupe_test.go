package store

import (
	"fmt"
	"testing"
	"time"
)

// runWithResults is one finished run of cell/mode/repeat started at `at`,
// with one result row per test.
func runWithResults(cell, mode string, repeat int, at time.Time, tests ...string) (Run, []Result) {
	id := fmt.Sprintf("%s|%s|%d|%s", cell, mode, repeat, at.Format("150405.000"))
	run := Run{RunID: id, CellID: cell, Mode: mode, Repeat: int32(repeat), Status: "ok", StartedAt: at, FinishedAt: at.Add(time.Second)}
	var res []Result
	for i, t := range tests {
		res = append(res, Result{RunID: id, CellID: cell, Mode: mode, Repeat: int32(repeat), Test: t, TestIndex: int32(i), Status: "ok", RPS: ptr(1000.0 * float64(i+1))})
	}
	return run, res
}

func TestDedupeAfterRepeatedRuns(t *testing.T) {
	d := &Data{}
	add := func(cell, mode string, repeat int, at time.Time, tests ...string) Run {
		r, res := runWithResults(cell, mode, repeat, at, tests...)
		d.Runs = append(d.Runs, r)
		d.Results = append(d.Results, res...)
		return r
	}
	a1 := add("7.4.1|gcc|-O2", "data", 1, t0, "SET", "GET")
	// The same (cell, mode, repeat) run again later (a rerun, or a shard that
	// did it too): the later one is kept, the first one's results go with it.
	a1again := add("7.4.1|gcc|-O2", "data", 1, t0.Add(time.Hour), "SET", "GET", "INCR")
	b1 := add("7.4.1|gcc|-O2", "pipe", 1, t0.Add(time.Minute), "SET")
	// The very same rows loaded twice (e.g. merging a directory into itself).
	d.Runs = append(d.Runs, b1)
	_, b1res := runWithResults("7.4.1|gcc|-O2", "pipe", 1, t0.Add(time.Minute), "SET")
	d.Results = append(d.Results, b1res...)
	// Results of a run that was never stored (interrupted save) are dropped.
	_, orphan := runWithResults("7.4.1|gcc|-O2", "data", 2, t0.Add(2*time.Hour), "SET")
	d.Results = append(d.Results, orphan...)
	d.Builds = []Build{
		{BuildID: "b2", CellID: "7.4.1|gcc|-O2", StartedAt: t0.Add(time.Minute)},
		{BuildID: "b1", CellID: "7.4.1|gcc|-O2", StartedAt: t0},
		{BuildID: "b2", CellID: "7.4.1|gcc|-O2", StartedAt: t0.Add(time.Minute), Status: "ok"},
	}
	d.Plan = []Plan{
		{CellID: "7.4.1|gcc|-O2", VersionIndex: 1},
		{CellID: "2.6.17|gcc|-O2", VersionIndex: 0, Repeats: 3},
		{CellID: "2.6.17|gcc|-O2", VersionIndex: 0, Repeats: 5},
	}
	d.Machines = []Machine{{MachineID: "m", Cores: 2}, {MachineID: "m", Cores: 4}}

	d.Dedupe()

	if got := ids(d.Runs); fmt.Sprint(got) != fmt.Sprint([]string{b1.RunID, a1again.RunID}) {
		t.Errorf("runs = %v, want pipe#1 then the later data#1 (sorted by start)", got)
	}
	want := map[string]int{a1again.RunID: 3, b1.RunID: 1}
	got := map[string]int{}
	for _, r := range d.Results {
		got[r.RunID]++
		if r.RunID == a1.RunID {
			t.Errorf("result %s of the replaced run kept", r.Test)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("results per run = %v, want %v", got, want)
	}
	if len(d.Builds) != 2 || d.Builds[0].BuildID != "b1" || d.Builds[1].Status != "ok" {
		t.Errorf("builds = %+v, want b1 then the last b2", d.Builds)
	}
	if len(d.Plan) != 2 || d.Plan[0].CellID != "2.6.17|gcc|-O2" || d.Plan[0].Repeats != 5 {
		t.Errorf("plan = %+v, want one row per cell in matrix order, the last kept", d.Plan)
	}
	if len(d.Machines) != 1 || d.Machines[0].Cores != 4 {
		t.Errorf("machines = %+v", d.Machines)
	}

	// Idempotent, and stable through a save and load.
	before := fmt.Sprintf("%+v", *d)
	d.Dedupe()
	if after := fmt.Sprintf("%+v", *d); after != before {
		t.Error("a second Dedupe changed the data")
	}
	dir := t.TempDir()
	if err := d.Save(dir); err != nil {
		t.Fatal(err)
	}
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Runs) != 2 || len(back.Results) != 4 || len(back.Builds) != 2 {
		t.Errorf("after save and load: %d runs, %d results, %d builds", len(back.Runs), len(back.Results), len(back.Builds))
	}
}

func ids(runs []Run) []string {
	var out []string
	for _, r := range runs {
		out = append(out, r.RunID)
	}
	return out
}

func TestMergeTwoShards(t *testing.T) {
	plan := []Plan{
		{CellID: "2.6.17|gcc|-O2", VersionIndex: 0, FlagIndex: 0},
		{CellID: "2.6.17|gcc|-Os", VersionIndex: 0, FlagIndex: 1},
		{CellID: "7.4.1|gcc|-O2", VersionIndex: 1, FlagIndex: 0},
	}
	shard := func(cells []string, at time.Time, machine string) *Data {
		d := &Data{Plan: append([]Plan(nil), plan...), Machines: []Machine{{MachineID: machine}}}
		for i, c := range cells {
			d.Builds = append(d.Builds, Build{BuildID: c + "|b", CellID: c, Status: "ok", StartedAt: at.Add(time.Duration(i) * time.Minute)})
			for _, mode := range []string{"data", "pipe"} {
				r, res := runWithResults(c, mode, 1, at.Add(time.Duration(i)*time.Minute+time.Second), "SET", "GET")
				r.BuildID = c + "|b"
				d.Runs = append(d.Runs, r)
				d.Results = append(d.Results, res...)
			}
		}
		return d
	}
	dir0, dir1, out := t.TempDir(), t.TempDir(), t.TempDir()
	if err := shard([]string{"2.6.17|gcc|-O2", "7.4.1|gcc|-O2"}, t0, "m0").Save(dir0); err != nil {
		t.Fatal(err)
	}
	if err := shard([]string{"2.6.17|gcc|-Os"}, t0.Add(30*time.Second), "m1").Save(dir1); err != nil {
		t.Fatal(err)
	}
	all, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{dir0, dir1, dir0} { // merging a shard twice adds nothing
		d, err := Load(in)
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
	if len(m.Plan) != 3 || len(m.Builds) != 3 || len(m.Runs) != 6 || len(m.Results) != 12 || len(m.Machines) != 2 {
		t.Fatalf("merged: %d plan, %d builds, %d runs, %d results, %d machines; want 3, 3, 6, 12, 2",
			len(m.Plan), len(m.Builds), len(m.Runs), len(m.Results), len(m.Machines))
	}
	for i, p := range m.Plan {
		if p.CellID != plan[i].CellID {
			t.Errorf("plan row %d = %s, want %s (matrix order)", i, p.CellID, plan[i].CellID)
		}
	}
	for i := 1; i < len(m.Runs); i++ {
		if m.Runs[i].StartedAt.Before(m.Runs[i-1].StartedAt) {
			t.Errorf("runs not in start order at %s", m.Runs[i].RunID)
		}
	}
}

func TestSaveWritesOnlyTheLastRunOfAKey(t *testing.T) {
	// As the runner does when it redoes a run: append the new one, then save.
	d := &Data{}
	old, oldRes := runWithResults("2.8.24|gcc|-O2", "data", 1, t0, "SET")
	redo, redoRes := runWithResults("2.8.24|gcc|-O2", "data", 1, t0.Add(time.Hour), "SET")
	d.Runs = append(d.Runs, old, redo)
	d.Results = append(d.Results, oldRes...)
	d.Results = append(d.Results, redoRes...)
	dir := t.TempDir()
	if err := d.Save(dir); err != nil {
		t.Fatal(err)
	}
	runs, err := read[Run](dir, RunsFile)
	if err != nil {
		t.Fatal(err)
	}
	results, err := read[Result](dir, ResultsFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].RunID != redo.RunID || len(results) != 1 || results[0].RunID != redo.RunID {
		t.Errorf("saved runs %v and %d results, want only the redone run and its result", ids(runs), len(results))
	}
}

func TestRetireKeepsTheReplacedRunWithItsResultsAndWhy(t *testing.T) {
	// As the runner does when it redoes a run: retire the old one, append the new one, save.
	d := &Data{}
	old, oldRes := runWithResults("2.8.24|gcc|-O2", "data", 1, t0, "SET", "GET")
	other, otherRes := runWithResults("2.8.24|gcc|-O2", "pipe", 1, t0.Add(time.Minute), "SET")
	d.Runs = append(d.Runs, old, other)
	d.Results = append(append(d.Results, oldRes...), otherRes...)
	redo, redoRes := runWithResults("2.8.24|gcc|-O2", "data", 1, t0.Add(time.Hour), "SET", "GET")
	d.Retire(redo.CellID, redo.Mode, int(redo.Repeat), "host steal 26.9% > 10%", redo.RunID)
	d.Runs = append(d.Runs, redo)
	d.Results = append(d.Results, redoRes...)
	dir := t.TempDir()
	if err := d.Save(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != 2 || got.Runs[0].RunID != other.RunID || got.Runs[1].RunID != redo.RunID || len(got.Results) != 3 {
		t.Fatalf("runs %v with %d results, want the pipe run and the new data run with 3", ids(got.Runs), len(got.Results))
	}
	if len(got.RedoneRuns) != 1 {
		t.Fatalf("redone runs %+v, want the replaced one", got.RedoneRuns)
	}
	r := got.RedoneRuns[0]
	if r.RunID != old.RunID || r.RedoReason != "host steal 26.9% > 10%" || r.ReplacedBy != redo.RunID || !r.StartedAt.Equal(old.StartedAt) {
		t.Errorf("redone run = %s (%q, replaced by %s), want %s as it was, why and by %s", r.RunID, r.RedoReason, r.ReplacedBy, old.RunID, redo.RunID)
	}
	if len(got.RedoneResults) != 2 || got.RedoneResults[0].RunID != old.RunID || *got.RedoneResults[1].RPS != *oldRes[1].RPS {
		t.Errorf("redone results %+v, want the replaced run's 2 results as they were", got.RedoneResults)
	}

	// Redone again: the second run joins the first in the redone tables, each naming its successor;
	// a retire repeated after a save cut short (the same run again) is recorded once.
	again, againRes := runWithResults("2.8.24|gcc|-O2", "data", 1, t0.Add(2*time.Hour), "SET", "GET")
	got.Retire(again.CellID, again.Mode, int(again.Repeat), "other processes 12% of a CPU > 5%", again.RunID)
	got.Retire(again.CellID, again.Mode, int(again.Repeat), "other processes 12% of a CPU > 5%", again.RunID)
	got.Runs = append(got.Runs, again)
	got.Results = append(got.Results, againRes...)
	if err := got.Save(dir); err != nil {
		t.Fatal(err)
	}
	final, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	chain := []string{}
	for _, r := range final.RedoneRuns {
		chain = append(chain, r.RunID+" -> "+r.ReplacedBy)
	}
	want := []string{old.RunID + " -> " + redo.RunID, redo.RunID + " -> " + again.RunID}
	if fmt.Sprint(chain) != fmt.Sprint(want) || len(final.RedoneResults) != 4 || len(final.Runs) != 2 {
		t.Errorf("redone chain %v with %d results, %d runs; want %v with 4, 2", chain, len(final.RedoneResults), len(final.Runs), want)
	}
}
