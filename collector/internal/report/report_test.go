package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func rps(v float64) *float64 { return &v }

var t0 = time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)

func TestMedianOfOddEvenAndEmpty(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {nil, 0}} {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestBestKeepsTheHighestOkRepeat(t *testing.T) {
	d := &store.Data{Results: []store.Result{
		{CellID: "c", Mode: "data", Test: "SET", Status: "ok", RPS: rps(90)},
		{CellID: "c", Mode: "data", Test: "SET", Status: "ok", RPS: rps(100)},
		{CellID: "c", Mode: "data", Test: "XADD", Status: "unsupported"},
	}}
	b := Best(d)
	if got := b[[3]string{"c", "data", "SET"}]; got != 100 {
		t.Errorf("best SET = %v, want 100", got)
	}
	if _, ok := b[[3]string{"c", "data", "XADD"}]; ok {
		t.Error("an unsupported test has no best figure")
	}
}

// Hand-computed: best 100 vs 110 -> |100-110| / 105 = 9.52%.
func TestNoisePrintsTheSpreadOfBestFigures(t *testing.T) {
	a := &store.Data{Results: []store.Result{{CellID: "c", Mode: "data", Test: "SET", Status: "ok", RPS: rps(100)}}}
	b := &store.Data{Results: []store.Result{
		{CellID: "c", Mode: "data", Test: "SET", Status: "ok", RPS: rps(110)},
		{CellID: "c", Mode: "data", Test: "SET", Status: "ok", RPS: rps(95)},
	}}
	var out bytes.Buffer
	Noise(&out, a, b)
	if !strings.Contains(out.String(), "mode data: median run-to-run spread of best-of-repeats 9.52% over 1") {
		t.Errorf("unexpected noise report:\n%s", out.String())
	}
}

// Hand-computed: 1 + 2 + 10 + 86.9 + 0.1 = 100 s of wall time, 0.1 s overhead = 0.1%.
func TestTimesSplitsACellAndReportsOverheadShare(t *testing.T) {
	d := &store.Data{
		Builds: []store.Build{{CellID: "c", SourceSeconds: 1, DepsSeconds: 2, BuildSeconds: 10}},
		Runs:   []store.Run{{CellID: "c", DurationSeconds: 86.9, OverheadSeconds: 0.1}},
	}
	var out bytes.Buffer
	Times(&out, d)
	if !strings.Contains(out.String(), "collector overhead median 0.100%") {
		t.Errorf("unexpected times report:\n%s", out.String())
	}
}

// Hand-computed: SET repeats 100, 95, 90 -> (100-90)/100 = 10%; GET 200, 190 -> 5%; median 7.5%.
func TestSpreadPrintsTheSpreadOfRepeatsPerMode(t *testing.T) {
	d := &store.Data{Results: []store.Result{
		{CellID: "c", Mode: "data", Test: "SET", Repeat: 1, Status: "ok", RPS: rps(100)},
		{CellID: "c", Mode: "data", Test: "SET", Repeat: 2, Status: "ok", RPS: rps(90)},
		{CellID: "c", Mode: "data", Test: "SET", Repeat: 3, Status: "ok", RPS: rps(95)},
		{CellID: "c", Mode: "data", Test: "GET", Repeat: 1, Status: "ok", RPS: rps(190)},
		{CellID: "c", Mode: "data", Test: "GET", Repeat: 2, Status: "ok", RPS: rps(200)},
		{CellID: "c", Mode: "data", Test: "XADD", Repeat: 1, Status: "unsupported"},
		{CellID: "c", Mode: "pipe", Test: "SET", Repeat: 1, Status: "ok", RPS: rps(900)},
	}}
	var out bytes.Buffer
	Spread(&out, d)
	if got, want := out.String(), "mode data: spread of repeats median 7.50%, max 10.00% (c SET), over 2 (cell, test) pairs with 2+ repeats\n"; got != want {
		t.Errorf("Spread =\n%q\nwant\n%q", got, want)
	}
	out.Reset()
	Spread(&out, &store.Data{Results: d.Results[6:]})
	if !strings.Contains(out.String(), "no (cell, test) has two measured repeats yet") {
		t.Errorf("with one repeat: %q", out.String())
	}
}

// Hand-computed: builds 1+2+10 + 0+0+5 = 18 s; runs 3600 + 0.5 + 1799.5 = 5400 s = 1.5 h.
func TestTotalsCountsMachineTimeAndFailures(t *testing.T) {
	d := &store.Data{
		Builds: []store.Build{
			{CellID: "a", Status: "failed", SourceSeconds: 1, DepsSeconds: 2, BuildSeconds: 10, StartedAt: t0},
			{CellID: "a", Status: "ok", BuildSeconds: 5, StartedAt: t0.Add(time.Hour)},
			{CellID: "b", Status: "failed", StartedAt: t0},
		},
		Runs: []store.Run{{CellID: "a", DurationSeconds: 3600, OverheadSeconds: 0.5}, {CellID: "a", Status: "server_failed", DurationSeconds: 1799.5}},
	}
	var out bytes.Buffer
	Totals(&out, d)
	want := "machine time: 0.01 h building (sources, dependencies, servers), 1.50 h benchmarking; 1 cells built, 1 failed to build; 2 runs, 1 with a failed server\n"
	if out.String() != want {
		t.Errorf("Totals =\n%q\nwant\n%q", out.String(), want)
	}
}

func TestProbesPerMachine(t *testing.T) {
	var out bytes.Buffer
	Probes(&out, &store.Data{})
	if !strings.Contains(out.String(), "no run has one yet") {
		t.Errorf("without probes: %q", out.String())
	}
	out.Reset()
	d := &store.Data{Runs: []store.Run{
		{MachineID: "m1", MemWriteBefore: rps(40e9), MemWriteAfter: rps(42e9)},
		{MachineID: "m1", MemWriteBefore: rps(44e9), MemWriteAfter: rps(20e9)}, // slow after
		{MachineID: "m1", MemWriteBefore: rps(41e9), MemWriteAfter: rps(43e9)},
		{MachineID: "m1"}, // an older run: no probe
		{MachineID: "m0", MemWriteBefore: rps(10e9), MemWriteAfter: rps(10e9)},
	}}
	Probes(&out, d)
	want := "host probe m0: memory write median 10.0 GB/s before, 10.0 after, over 1 runs; 0 runs with a probe below 75% of its median\n" +
		"host probe m1: memory write median 41.0 GB/s before, 42.0 after, over 3 runs; 1 runs with a probe below 75% of its median\n"
	if out.String() != want {
		t.Errorf("Probes =\n%s\nwant\n%s", out.String(), want)
	}
}
