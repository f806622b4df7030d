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

// A counted cell's counting time is its counting runs' sum, beside its build's steps;
// a cell only counted has a row too.
func TestTimesHasEachCellsCountingTime(t *testing.T) {
	d := &store.Data{
		Builds:    []store.Build{{CellID: "c", SourceSeconds: 1, DepsSeconds: 2, BuildSeconds: 10}},
		CountRuns: []store.CountRun{{CellID: "c", DurationSeconds: 300}, {CellID: "c", DurationSeconds: 320}, {CellID: "d", DurationSeconds: 100}},
	}
	expectPrinted(t, Times, d, "  cell  source s  deps s  build s  bench s  count s  overhead s  overhead %\n"+
		"     c       1.0     2.0     10.0      0.0    620.0       0.000       0.000\n"+
		"     d       0.0     0.0      0.0      0.0    100.0       0.000       0.000\n"+
		"2 cells; median seconds: source 0.5, deps 1.0, build 5.0, bench 0.0, count 360.0; collector overhead median 0.000%, max 0.000% of cell wall time\n")
}

// Hand-computed: SET repeats 100, 95, 90 -> (100-90)/100 = 10%; GET 200, 190 -> 5%; median 7.5%.
// The runs of machine "i" are another hardware class: they never join the "a" class's repeats.
func TestSpreadPrintsTheSpreadOfRepeatsPerClassAndMode(t *testing.T) {
	res := func(run, mode, test string, status string, v *float64) store.Result {
		return store.Result{RunID: run, CellID: "c", Mode: mode, Test: test, Status: status, RPS: v}
	}
	d := &store.Data{
		Machines: []store.Machine{{MachineID: "a", CPUModel: "AMD EPYC", Cores: 2}, {MachineID: "i", CPUModel: "Intel Xeon", Cores: 2}},
		Runs: []store.Run{{RunID: "r1", MachineID: "a"}, {RunID: "r2", MachineID: "a"}, {RunID: "r3", MachineID: "a"},
			{RunID: "p1", MachineID: "a"}, {RunID: "r4", MachineID: "i"}, {RunID: "r5", MachineID: "i"}},
		Results: []store.Result{
			res("r1", "data", "SET", "ok", rps(100)),
			res("r2", "data", "SET", "ok", rps(90)),
			res("r3", "data", "SET", "ok", rps(95)),
			res("r1", "data", "GET", "ok", rps(190)),
			res("r2", "data", "GET", "ok", rps(200)),
			res("r1", "data", "XADD", "unsupported", nil),
			res("p1", "pipe", "SET", "ok", rps(900)),
			// One repeat each on the other class: 150 and 300 would make SET 40% and GET 37% if mixed.
			res("r4", "data", "SET", "ok", rps(150)),
			res("r5", "pipe", "SET", "ok", rps(300)),
		},
	}
	var out bytes.Buffer
	Spread(&out, d)
	if got, want := out.String(), "AMD EPYC, 2 cores, mode data: spread of repeats median 7.50%, max 10.00% (c SET), over 2 (cell, test) pairs with 2+ repeats\n"; got != want {
		t.Errorf("Spread =\n%q\nwant\n%q", got, want)
	}
	out.Reset()
	d.Results = d.Results[6:]
	Spread(&out, d)
	if !strings.Contains(out.String(), "no (cell, test) has two measured repeats on one hardware class yet") {
		t.Errorf("with one repeat per class: %q", out.String())
	}
	out.Reset()
	Hardware(&out, d)
	want := "hardware AMD EPYC, 2 cores: machines a; 4 runs, 1 cells measured\nhardware Intel Xeon, 2 cores: machines i; 2 runs, 1 cells measured\n"
	if out.String() != want {
		t.Errorf("Hardware =\n%q\nwant\n%q", out.String(), want)
	}
}

// Hand-computed: builds 1+2+10 + 0+0+5 = 18 s; runs 3600 + 0.5 + 1799.5 = 5400 s = 1.5 h;
// counting runs 1800 + 1800 + 900 s = 1.25 h.
func TestTotalsCountsMachineTimeAndFailures(t *testing.T) {
	d := &store.Data{
		Builds: []store.Build{
			{CellID: "a", Status: "failed", SourceSeconds: 1, DepsSeconds: 2, BuildSeconds: 10, StartedAt: t0},
			{CellID: "a", Status: "ok", BuildSeconds: 5, StartedAt: t0.Add(time.Hour)},
			{CellID: "b", Status: "failed", StartedAt: t0},
		},
		Runs: []store.Run{{CellID: "a", DurationSeconds: 3600, OverheadSeconds: 0.5}, {CellID: "a", Status: "server_failed", DurationSeconds: 1799.5}},
		CountRuns: []store.CountRun{{CellID: "a", Mode: "data", DurationSeconds: 1800}, {CellID: "a", Mode: "pipe", DurationSeconds: 1800},
			{CellID: "c", Mode: "data", DurationSeconds: 900}},
	}
	expectPrinted(t, Totals, d, "machine time: 0.01 h building (sources, dependencies, servers), 1.50 h benchmarking, 1.25 h counting (counting runs, summed); "+
		"1 cells built, 1 failed to build; 2 runs, 1 with a failed server; 3 counting runs of 2 cells\n")
}

func TestProbesPerMachine(t *testing.T) {
	expectLines(t, printed(Probes, &store.Data{}), "no run has one yet")
	d := &store.Data{Runs: []store.Run{
		{MachineID: "m1", MemWriteBefore: rps(40e9), MemWriteAfter: rps(42e9)},
		{MachineID: "m1", MemWriteBefore: rps(44e9), MemWriteAfter: rps(20e9)}, // slow after
		{MachineID: "m1", MemWriteBefore: rps(41e9), MemWriteAfter: rps(43e9)},
		{MachineID: "m1"}, // an older run: no probe
		{MachineID: "m0", MemWriteBefore: rps(10e9), MemWriteAfter: rps(10e9)},
	}}
	if got, want := printed(Probes, d), "host probe m0: memory write median 10.0 GB/s before, 10.0 after, over 1 runs; 0 runs with a probe below 75% of its median\n"+
		"host probe m1: memory write median 41.0 GB/s before, 42.0 after, over 3 runs; 1 runs with a probe below 75% of its median\n"; got != want {
		t.Errorf("Probes =\n%s\nwant\n%s", got, want)
	}
}

func TestStealPerMachine(t *testing.T) {
	expectLines(t, printed(Steal, &store.Data{Runs: []store.Run{{MachineID: "m1"}}}), "no run has it yet")
	d := &store.Data{Runs: []store.Run{
		{MachineID: "m1", StealPct: rps(0.5)},
		{MachineID: "m1", StealPct: rps(12)},
		{MachineID: "m1", StealPct: rps(1.5)},
		{MachineID: "m1"}, // an older run: not recorded
		{MachineID: "m0", StealPct: rps(0)},
	}}
	if got, want := printed(Steal, d), "host steal m0: median 0.0% of a CPU, max 0.0%, over 1 runs; 0 runs with 5% or more\n"+
		"host steal m1: median 1.5% of a CPU, max 12.0%, over 3 runs; 1 runs with 5% or more\n"; got != want {
		t.Errorf("Steal =\n%s\nwant\n%s", got, want)
	}
}

func TestRedoneCountsRulesAndComparesWithTheReplacement(t *testing.T) {
	var out bytes.Buffer
	Redone(&out, &store.Data{})
	if !strings.Contains(out.String(), "none recorded") {
		t.Errorf("without redone runs: %q", out.String())
	}
	out.Reset()
	res := func(run, test string, v float64) store.Result {
		return store.Result{RunID: run, Test: test, RPS: rps(v)}
	}
	d := &store.Data{
		Results: []store.Result{res("new1", "SET", 100), res("new1", "GET", 200), res("new2", "SET", 100)},
		RedoneRuns: []store.RedoneRun{
			{Run: store.Run{RunID: "old1", Mode: "data"}, RedoReason: "host steal 26.9% > 10%", ReplacedBy: "new1"},
			{Run: store.Run{RunID: "old2", Mode: "data"}, RedoReason: "other processes 12% of a CPU > 5%; started before 2026-11-22T04:55:00Z (recovered from an earlier version of the dataset)", ReplacedBy: "new2"},
			{Run: store.Run{RunID: "old3", Mode: "pipe"}, RedoReason: "server failed", ReplacedBy: "new3"},
		},
		RedoneResults: []store.Result{res("old1", "SET", 70), res("old1", "GET", 160), res("old2", "SET", 90)},
	}
	Redone(&out, d)
	// old1: median of 0.7 and 0.8 = 0.75; old2: 0.9; old3 has no figures to compare.
	want := "runs measured again: 3 (host steal 1, other processes 1, server failed 1, started before 1)\n" +
		"  data mode: a discarded run measured a median 0.825 of its replacement's speed (over 2 runs; min 0.750, max 0.900)\n"
	if out.String() != want {
		t.Errorf("Redone =\n%s\nwant\n%s", out.String(), want)
	}
}

// A machine faster than the others of its CPU name shows in its median ratio and share above
// their best; a machine of another CPU model is never compared.
func TestMachinesComparesEachMachineWithItsCPUsClasses(t *testing.T) {
	zen4 := "AMD EPYC (family 25 model 17), 2 cores"
	d := &store.Data{Machines: []store.Machine{
		{MachineID: "a1", CPUModel: "AMD EPYC", Cores: 2},
		{MachineID: "a2", CPUModel: "AMD EPYC", Cores: 2},
		{MachineID: "z", CPUModel: "AMD EPYC", Cores: 2, HardwareClass: &zen4},
		{MachineID: "i", CPUModel: "Intel Xeon", Cores: 2},
	}}
	add := func(run, machine string, test string, v float64) {
		if len(d.Runs) == 0 || d.Runs[len(d.Runs)-1].RunID != run {
			d.Runs = append(d.Runs, store.Run{RunID: run, MachineID: machine})
		}
		d.Results = append(d.Results, store.Result{RunID: run, CellID: "c", Mode: "data", Test: test, Status: "ok", RPS: rps(v)})
	}
	for _, tc := range []struct {
		test           string
		a1, a2, z, ivl float64
	}{{"SET", 100, 110, 130, 500}, {"GET", 100, 90, 120, 500}, {"INCR", 100, 100, 90, 500}} {
		add("r1"+tc.test, "a1", tc.test, tc.a1)
		add("r2"+tc.test, "a2", tc.test, tc.a2)
		add("r3"+tc.test, "z", tc.test, tc.z)
		add("r4"+tc.test, "i", tc.test, tc.ivl)
	}
	out := printed(Machines, d)
	// z against a1 and a2: 130/105, 120/95, 90/100 -> 0.900, 1.238, 1.263; 2 of 3 above their best.
	// a1 against a2 alone: 100/110, 100/90, 100/100; against z: 100/130, 100/120, 100/90.
	expectLines(t, out,
		"machine z (AMD EPYC (family 25 model 17), 2 cores) against the other machines of AMD EPYC, 2 cores, mode data: median ratio 1.238 (p10-p90 0.968-1.258), 67% above their best, over 3 (cell, test) pairs",
		"machine a1 (AMD EPYC, 2 cores) against the other machines of AMD EPYC, 2 cores, mode data: median ratio 1.000 (p10-p90 0.927-1.089), 33% above their best",
		"machine a1 (AMD EPYC, 2 cores) against the other machines of AMD EPYC (family 25 model 17), 2 cores, mode data: median ratio 0.833")
	if strings.Contains(out, "Intel") {
		t.Errorf("a machine of another CPU model was compared:\n%s", out)
	}
	expectLines(t, printed(Machines, &store.Data{}), "no two machines")
}

func TestQuantileInterpolatesLikeQuantileCont(t *testing.T) {
	xs := []float64{4, 1, 3, 2}
	for q, want := range map[float64]float64{0: 1, 0.5: 2.5, 0.1: 1.3, 1: 4} {
		if got := Quantile(xs, q); got < want-1e-9 || got > want+1e-9 {
			t.Errorf("Quantile(%v) = %v, want %v", q, got, want)
		}
	}
}

func TestServerTimeSumsEachModesCPUBeforeDividing(t *testing.T) {
	var out bytes.Buffer
	ServerTime(&out, &store.Data{Results: []store.Result{{RunID: "r1", Mode: "data", Status: "ok"}}})
	if !strings.Contains(out.String(), "no result has it yet") {
		t.Errorf("without CPU figures: %q", out.String())
	}
	out.Reset()
	d := &store.Data{
		Machines: []store.Machine{{MachineID: "m1", CPUModel: "Test CPU", Cores: 2}},
		Runs:     []store.Run{{RunID: "r1", MachineID: "m1"}, {RunID: "r2", MachineID: "m1"}},
		Results: []store.Result{
			{RunID: "r1", Mode: "pipe", Status: "ok", ServerUserS: rps(9), ServerSysS: rps(1), ServerBusy: rps(0.98), ClientBusy: rps(0.3)},
			{RunID: "r2", Mode: "data", Status: "ok", ServerUserS: rps(1), ServerSysS: rps(3), ServerBusy: rps(0.8), ClientBusy: rps(0.6)},
			{RunID: "r2", Mode: "data", Status: "ok", ServerUserS: rps(1), ServerSysS: rps(1), ServerBusy: rps(0.9), ClientBusy: rps(0.7)},
			{RunID: "r2", Mode: "data", Status: "ok"}, // an older result: not recorded
		},
	}
	ServerTime(&out, d)
	want := "server time Test CPU, 2 cores, data: 33.3% of the server's CPU time in its own code (compiler-visible), server busy median 85.0%, client 65.0%, over 2 tests\n" +
		"server time Test CPU, 2 cores, pipe: 90.0% of the server's CPU time in its own code (compiler-visible), server busy median 98.0%, client 30.0%, over 1 tests\n"
	if out.String() != want {
		t.Errorf("ServerTime =\n%s\nwant\n%s", out.String(), want)
	}
}
