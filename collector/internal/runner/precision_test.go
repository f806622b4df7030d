package runner

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/bench"
	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/machine"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func TestTestRunsSendEachTestsOwnRequests(t *testing.T) {
	runs := testRuns([]string{"--csv", "-d", "64", "-r", "9999999999"})
	if len(runs) != len(bench.DefaultTests) {
		t.Fatalf("%d tests, want %d", len(runs), len(bench.DefaultTests))
	}
	byName := map[string]bench.TestRun{}
	for i, r := range runs {
		if r.Name != bench.DefaultTests[i].Name || r.Index != i {
			t.Errorf("test %d is %q, want the client's order", i, r.Name)
		}
		byName[r.Name] = r
	}
	if got := byName["SET"].Args; !reflect.DeepEqual(got, []string{"-t", "set"}) {
		t.Errorf("SET args %q", got)
	}
	// -t lrange_100 would send the LPUSH set-up too: the set-up is its own test.
	if got := byName["LRANGE_100 (first 100 elements)"].Args; !reflect.DeepEqual(got, []string{"LRANGE", "mylist", "0", "99"}) {
		t.Errorf("LRANGE_100 args %q", got)
	}
	if got := byName["LPUSH (needed to benchmark LRANGE)"].Args; len(got) != 3 || got[2] != strings.Repeat("x", 64) {
		t.Errorf("LRANGE set-up args %q", got)
	}
}

func calTask(t *testing.T) Task {
	c, modes := roundsConfig(t)
	return Task{Cell: c.Cells()[6], Mode: modes[0], Repeat: 1, Round: &Round{Seed: 5, Position: 3}}
}

// The stored counts are balanced (SADD raised to what SPOP takes), the ramp
// and the configuration it ran on are kept, an unsupported test has no count.
func TestCalibrationRowsBalanceAndKeepTheRamp(t *testing.T) {
	task := calTask(t)
	cal := bench.Calibration{Tests: []bench.Calibrated{
		{Name: "SADD", Index: 9, Status: "ok", Requests: 1000, Steps: []bench.Step{{Requests: 1000, Took: 2 * time.Second}}},
		{Name: "SPOP", Index: 11, Status: "ok", Requests: 3000, Steps: []bench.Step{{Requests: 10, Took: 0}, {Requests: 3000, Took: 1600 * time.Millisecond}}},
		{Name: "ZPOPMIN", Index: 13, Status: "unsupported", Error: "ERR unknown command 'ZPOPMIN'"},
	}}
	rows := calibrationRows(cal, task, "AMD, 2 cores", "b1", "m1", t0)
	if len(rows) != 3 {
		t.Fatalf("%d rows", len(rows))
	}
	sadd, spop, zpop := rows[0], rows[1], rows[2]
	if sadd.Requests != 3000 || sadd.Steps != "1000:2000" || spop.Requests != 3000 || spop.Steps != "10:0,3000:1600" {
		t.Errorf("SADD %+v\nSPOP %+v", sadd, spop)
	}
	if sadd.HardwareClass != "AMD, 2 cores" || sadd.Version != "7.4.1" || sadd.Mode != "data-long" || sadd.CellID != task.Cell.ID() ||
		sadd.BuildID != "b1" || sadd.MinTimeSeconds != 1.5 || !sadd.CalibratedAt.Equal(t0) || sadd.TestIndex != 9 {
		t.Errorf("SADD row does not say where it comes from: %+v", sadd)
	}
	if zpop.Status != "unsupported" || zpop.Requests != 0 || *zpop.Error != "ERR unknown command 'ZPOPMIN'" {
		t.Errorf("ZPOPMIN %+v", zpop)
	}
}

// A class's calibration of a version and mode is used only when complete;
// another class's is not.
func TestCalibratedIsTheClasssCompleteCalibration(t *testing.T) {
	tests := []bench.TestRun{{Name: "SET"}, {Name: "ZPOPMIN"}}
	cals := []store.Calibration{
		{HardwareClass: "A", Version: "7.4.1", Mode: "data-long", Test: "SET", Requests: 5000},
		{HardwareClass: "A", Version: "7.4.1", Mode: "data-long", Test: "ZPOPMIN", Status: "unsupported"},
		{HardwareClass: "B", Version: "7.4.1", Mode: "data-long", Test: "SET", Requests: 9},
		{HardwareClass: "A", Version: "6.2.16", Mode: "data-long", Test: "SET", Requests: 7},
	}
	if got := calibrated(cals, "A", "7.4.1", "data-long", tests); !reflect.DeepEqual(got, map[string]int64{"SET": 5000, "ZPOPMIN": 1}) {
		t.Errorf("class A: %v", got)
	}
	if got := calibrated(cals, "B", "7.4.1", "data-long", tests); got != nil {
		t.Errorf("class B lacks ZPOPMIN, got %v", got)
	}
	if got := calibrated(cals, "A", "7.4.1", "pipe-long", tests); got != nil {
		t.Errorf("no pipe-long calibration, got %v", got)
	}
}

// A precision run stores its round's seed and its place; its results the
// count each test ran with. A reference run has neither.
func TestPrecisionRunRowCarriesRoundAndRequests(t *testing.T) {
	task := calTask(t)
	m := measurement{out: bench.Outcome{Results: []bench.Result{{Test: "SET", Index: 2, Status: "ok", Row: &bench.Row{Test: "SET", RPS: 1e5}, Requests: 180000}}}, start: t0, end: t0.Add(time.Minute)}
	c := &collector{machine: machine.Info{ID: "m1"}}
	run := c.runRow(task, "b1", bench.Spec{}, m)
	if *run.RoundSeed != 5 || *run.RoundPosition != 3 || run.ClientArgs != "--csv" {
		t.Errorf("run %+v", run)
	}
	rows := resultRows(run, m.out.Results)
	if *rows[0].Requests != 180000 {
		t.Errorf("requests %v", rows[0].Requests)
	}
	ref := Task{Cell: task.Cell, Mode: config.Mode{Name: "data"}, Repeat: 1}
	if r := c.runRow(ref, "b1", bench.Spec{}, m); r.RoundSeed != nil || r.RoundPosition != nil {
		t.Errorf("reference run has round columns: %+v", r)
	}
	m.out.Results[0].Requests = 0 // a reference run's result: its count is in the mode's arguments
	if rows := resultRows(run, m.out.Results); rows[0].Requests != nil {
		t.Error("a reference result has a request count")
	}
}

// The log line names each test measured again with both durations, and
// those still short after it.
func TestAgainTextNamesTestsMeasuredAgainAndThoseStillShort(t *testing.T) {
	if got := againText(nil, "", 1500*time.Millisecond); got != "" {
		t.Errorf("nothing measured again: %q", got)
	}
	tests := []bench.Remeasured{
		{Test: "GET", Before: 1200 * time.Millisecond, After: 1610 * time.Millisecond},
		{Test: "LPOP", Before: 700 * time.Millisecond, After: 1420 * time.Millisecond},
		{Test: "SPOP", Before: 900 * time.Millisecond},
	}
	want := ", measured again for lasting less than min_time 1.5s: GET 1.20s -> 1.61s, LPOP 0.70s -> 1.42s, SPOP 0.90s -> no figure (server: exited)" +
		"; still short, stored as such: LPOP, SPOP"
	if got := againText(tests, "exited", 1500*time.Millisecond); got != want {
		t.Errorf("againText =\n%q\nwant\n%q", got, want)
	}
}
