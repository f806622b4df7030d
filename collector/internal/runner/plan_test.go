package runner

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

var t0 = time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)

func testConfig(t *testing.T) *config.Config {
	t.Helper()
	c, err := config.Parse(`
versions = ["2.6.17", "7.4.1"]
[[compilers]]
name = "gcc"
cc = "gcc-12"
[[flag_sets]]
name = "-O2"
[[flag_sets]]
name = "-O2 -flto"
[benchmark]
repeats = 2
[[benchmark.modes]]
name = "data"
args = ["-n", "100", "--csv"]
[[benchmark.modes]]
name = "pipe"
args = ["-n", "100", "--csv", "-P", "10"]
`, "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fixture builds a dataset of builds and finished runs, each started a minute after the last.
type fixture struct {
	d *store.Data
	n int
}

func (f *fixture) build(cell, status string) {
	f.n++
	b := store.Build{BuildID: fmt.Sprintf("b%d", f.n), CellID: cell, Status: status, StartedAt: t0.Add(time.Duration(f.n) * time.Minute)}
	if status != "ok" {
		e := "make: exit status 2: error: x"
		b.Error = &e
	}
	f.d.Builds = append(f.d.Builds, b)
}

func (f *fixture) run(cell, mode string, repeat int) {
	f.n++
	f.d.Runs = append(f.d.Runs, store.Run{RunID: fmt.Sprintf("r%d", f.n), CellID: cell, Mode: mode, Repeat: int32(repeat),
		Status: "ok", StartedAt: t0.Add(time.Duration(f.n) * time.Minute)})
}

func tasks(ts []Task) []string {
	var out []string
	for _, t := range ts {
		out = append(out, fmt.Sprintf("%s %s %d", t.Cell.ID(), t.Mode.Name, t.Repeat))
	}
	return out
}

func TestPendingCoverageFirst(t *testing.T) {
	c := testConfig(t)
	got := tasks(Pending(c.Cells(), c.Bench.Modes, c.Bench.Repeats, &store.Data{}, "", Redo{}))
	want := []string{
		"2.6.17|gcc|-O2 data 1", "2.6.17|gcc|-O2 pipe 1", "2.6.17|gcc|-O2 -flto data 1", "2.6.17|gcc|-O2 -flto pipe 1",
		"7.4.1|gcc|-O2 data 1", "7.4.1|gcc|-O2 pipe 1", "7.4.1|gcc|-O2 -flto data 1", "7.4.1|gcc|-O2 -flto pipe 1",
		"2.6.17|gcc|-O2 data 2", "2.6.17|gcc|-O2 pipe 2", "2.6.17|gcc|-O2 -flto data 2", "2.6.17|gcc|-O2 -flto pipe 2",
		"7.4.1|gcc|-O2 data 2", "7.4.1|gcc|-O2 pipe 2", "7.4.1|gcc|-O2 -flto data 2", "7.4.1|gcc|-O2 -flto pipe 2",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Pending on an empty dataset =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPendingResume(t *testing.T) {
	c := testConfig(t)
	cells := c.Cells()
	lto := "2.6.17|gcc|-O2 -flto"
	f := &fixture{d: &store.Data{}}
	f.build("2.6.17|gcc|-O2", "ok")
	f.run("2.6.17|gcc|-O2", "data", 1)
	f.run("2.6.17|gcc|-O2", "pipe", 1)
	f.run("2.6.17|gcc|-O2", "data", 2)
	// pipe 2 of 2.6.17|gcc|-O2 was interrupted: no row, so it is redone.
	f.build(lto, "failed")
	f.build("7.4.1|gcc|-O2", "ok")
	for _, m := range []string{"data", "pipe"} {
		for r := 1; r <= 2; r++ {
			f.run("7.4.1|gcc|-O2", m, r)
		}
	}
	got := tasks(Pending(cells, c.Bench.Modes, 2, f.d, "", Redo{}))
	want := []string{
		"7.4.1|gcc|-O2 -flto data 1", "7.4.1|gcc|-O2 -flto pipe 1",
		"2.6.17|gcc|-O2 pipe 2",
		"7.4.1|gcc|-O2 -flto data 2", "7.4.1|gcc|-O2 -flto pipe 2",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Pending =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// retryFailed brings the failed cell back, in coverage order.
	got = tasks(Pending(cells, c.Bench.Modes, 2, f.d, "", Redo{Failed: true}))
	want = []string{
		lto + " data 1", lto + " pipe 1", "7.4.1|gcc|-O2 -flto data 1", "7.4.1|gcc|-O2 -flto pipe 1",
		"2.6.17|gcc|-O2 pipe 2", lto + " data 2", lto + " pipe 2",
		"7.4.1|gcc|-O2 -flto data 2", "7.4.1|gcc|-O2 -flto pipe 2",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Pending with retryFailed =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A run whose server failed counts as done, unless retryFailed.
	f.d.Runs[len(f.d.Runs)-1].Status = "server_failed" // 7.4.1|gcc|-O2 pipe 2
	if got := tasks(Pending(cells[2:3], c.Bench.Modes, 2, f.d, "", Redo{})); len(got) != 0 {
		t.Errorf("server_failed run redone without retryFailed: %v", got)
	}
	if got := tasks(Pending(cells[2:3], c.Bench.Modes, 2, f.d, "", Redo{Failed: true})); !reflect.DeepEqual(got, []string{"7.4.1|gcc|-O2 pipe 2"}) {
		t.Errorf("retryFailed after a server failure: %v, want the failed run only", got)
	}
	f.d.Runs[len(f.d.Runs)-1].Status = "ok"

	// A later successful build of the failed cell makes it pending again.
	f.build(lto, "ok")
	if got := tasks(Pending(cells[:2], c.Bench.Modes, 1, f.d, "", Redo{})); !reflect.DeepEqual(got, []string{lto + " data 1", lto + " pipe 1"}) {
		t.Errorf("after a successful rebuild: %v", got)
	}

	// Raising the repeats adds only the missing ones.
	got = tasks(Pending(cells[2:3], c.Bench.Modes, 3, f.d, "", Redo{}))
	if !reflect.DeepEqual(got, []string{"7.4.1|gcc|-O2 data 3", "7.4.1|gcc|-O2 pipe 3"}) {
		t.Errorf("repeats 2 -> 3 on a done cell: %v", got)
	}
	// Lowering them leaves nothing to do for a done cell.
	if got := Pending(cells[2:3], c.Bench.Modes, 1, f.d, "", Redo{}); len(got) != 0 {
		t.Errorf("repeats 1 on a done cell: %v", tasks(got))
	}
}

func TestStatus(t *testing.T) {
	c := testConfig(t)
	f := &fixture{d: &store.Data{}}
	f.build("2.6.17|gcc|-O2", "ok")
	f.run("2.6.17|gcc|-O2", "data", 1)
	f.build("2.6.17|gcc|-O2 -flto", "failed")
	f.build("7.4.1|gcc|-O2", "ok")
	for _, m := range []string{"data", "pipe"} {
		for r := 1; r <= 3; r++ { // one more than planned: still done, not over-counted
			f.run("7.4.1|gcc|-O2", m, r)
		}
	}
	f.build("2.6.17|gcc|-O2", "ok") // a rebuild after a lost work dir
	got := Status(c.Cells(), c.Bench.Modes, 2, f.d, "")
	type row struct {
		id, state  string
		data, pipe int
		err        string
	}
	want := []row{
		{"2.6.17|gcc|-O2", "partial", 1, 0, ""},
		{"2.6.17|gcc|-O2 -flto", "failed", 0, 0, "make: exit status 2: error: x"},
		{"7.4.1|gcc|-O2", "done", 2, 2, ""},
		{"7.4.1|gcc|-O2 -flto", "pending", 0, 0, ""},
	}
	if len(got) != len(want) {
		t.Fatalf("%d statuses, want %d", len(got), len(want))
	}
	for i, s := range got {
		r := row{s.Cell.ID(), s.State, s.Done["data"], s.Done["pipe"], s.Error}
		if r != want[i] {
			t.Errorf("status %d = %+v, want %+v", i, r, want[i])
		}
	}
	// Built but no run yet: partial, not pending.
	f.build("7.4.1|gcc|-O2 -flto", "ok")
	if s := Status(c.Cells()[3:], c.Bench.Modes, 2, f.d, "")[0]; s.State != "partial" {
		t.Errorf("built cell without runs: %s", s.State)
	}
}

func TestLatestBuilds(t *testing.T) {
	f := &fixture{d: &store.Data{}}
	f.build("a", "failed")
	f.build("a", "ok")
	f.build("b", "ok")
	f.build("b", "failed")
	// Out of order in the table: the latest start wins, not the last row.
	f.d.Builds[0], f.d.Builds[1] = f.d.Builds[1], f.d.Builds[0]
	got := LatestBuilds(f.d)
	if got["a"].Status != "ok" || got["b"].Status != "failed" || len(got) != 2 {
		t.Errorf("LatestBuilds = %+v", got)
	}
}

func TestPlanRows(t *testing.T) {
	c := testConfig(t)
	rows := PlanRows(c)
	if len(rows) != 4 {
		t.Fatalf("%d plan rows, want 4", len(rows))
	}
	yes, no := true, false
	want := store.Plan{CellID: "7.4.1|gcc|-O2 -flto", Version: "7.4.1", VersionIndex: 1, Compiler: "gcc", CompilerIndex: 0,
		FlagSet: "-O2 -flto", FlagIndex: 1, CC: "gcc-12", CFlags: "-O2 -flto", Modes: "data,pipe", Repeats: 2, Current: &yes, Extended: &no}
	if !reflect.DeepEqual(rows[3], want) {
		t.Errorf("plan row = %+v\nwant %+v", rows[3], want)
	}
	ref, err := config.Load("../../matrix.toml")
	if err != nil {
		t.Fatal(err)
	}
	var reference []store.Plan
	for _, r := range PlanRows(ref) {
		if !*r.Extended {
			reference = append(reference, r)
		}
	}
	rows = reference
	first, last := rows[0], rows[len(rows)-1]
	if len(rows) != 1920 || first.CellID != "2.6.0|gcc|-O2" || first.Repeats != 1 || *first.Current ||
		last.CellID != "8.0.6|clang|-Ofast -flto" || last.VersionIndex != 159 || last.Repeats != 3 || !*last.Current || last.Modes != "data,pipe" {
		t.Errorf("reference plan: %d rows, first %+v, last %+v", len(rows), first, last)
	}
}

// releasesConfig is testConfig's matrix with two more releases, 2.6.0 and
// 7.4.0, benchmarked once (the current versions twice).
func releasesConfig(t *testing.T) *config.Config {
	t.Helper()
	c := testConfig(t)
	c.Releases = []string{"2.6.0", "2.6.17", "7.4.0", "7.4.1"}
	c.Bench.OtherRepeats = 1
	return c
}

func TestPendingRunsTakeTheCurrentVersionsRepeatsFirst(t *testing.T) {
	c := releasesConfig(t)
	f := &fixture{d: &store.Data{}}
	f.run("2.6.17|gcc|-O2", "data", 1)
	f.run("7.4.0|gcc|-O2", "data", 1)
	var o2 []config.Cell
	for _, cell := range c.Cells() {
		if cell.FlagSet.Name == "-O2" {
			o2 = append(o2, cell)
		}
	}
	got := tasks(PendingRuns(c, o2, f.d, "", Redo{}))
	want := []string{
		// Current versions, coverage first, then their second repeats.
		"2.6.17|gcc|-O2 pipe 1", "7.4.1|gcc|-O2 data 1", "7.4.1|gcc|-O2 pipe 1",
		"2.6.17|gcc|-O2 data 2", "2.6.17|gcc|-O2 pipe 2", "7.4.1|gcc|-O2 data 2", "7.4.1|gcc|-O2 pipe 2",
		// The other releases once, in collection order: first releases of the lines.
		"2.6.0|gcc|-O2 data 1", "2.6.0|gcc|-O2 pipe 1", "7.4.0|gcc|-O2 pipe 1",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pending -O2 runs:\n got %q\nwant %q", got, want)
	}
}

func TestMatrixStatusCountsEachCellToItsRepeats(t *testing.T) {
	c := releasesConfig(t)
	f := &fixture{d: &store.Data{}}
	for _, cell := range []string{"2.6.0|gcc|-O2", "2.6.17|gcc|-O2"} {
		for _, m := range []string{"data", "pipe"} {
			f.run(cell, m, 1)
		}
	}
	st := MatrixStatus(c, c.Cells(), f.d, "")
	if len(st) != 8 || st[0].Cell.ID() != "2.6.0|gcc|-O2" || st[2].Cell.ID() != "2.6.17|gcc|-O2" {
		t.Fatalf("status rows out of matrix order: %+v", st)
	}
	if st[0].State != "done" || st[0].Repeats != 1 || st[2].State != "partial" || st[2].Repeats != 2 {
		t.Errorf("2.6.0: %s of %d repeats, 2.6.17: %s of %d; want done of 1, partial of 2", st[0].State, st[0].Repeats, st[2].State, st[2].Repeats)
	}
}

func TestPendingRedoesNoisyRunsAboveTheThreshold(t *testing.T) {
	c := testConfig(t)
	cell := c.Cells()[0]
	d := &store.Data{Runs: []store.Run{
		{CellID: cell.ID(), Mode: "data", Repeat: 1, Status: "ok", OtherCPU: "others:80,node:40"},
		{CellID: cell.ID(), Mode: "pipe", Repeat: 1, Status: "ok", OtherCPU: "others:10"},
	}}
	if got := tasks(Pending([]config.Cell{cell}, c.Bench.Modes, 1, d, "", Redo{})); len(got) != 0 {
		t.Fatalf("without NoisyPercent nothing is redone, got %v", got)
	}
	got := tasks(Pending([]config.Cell{cell}, c.Bench.Modes, 1, d, "", Redo{NoisyPercent: 50}))
	if !reflect.DeepEqual(got, []string{cell.ID() + " data 1"}) {
		t.Fatalf("only the run with others:80 > 50 is redone, got %v", got)
	}
}

func TestPendingRedoesRunsTheHostSlowed(t *testing.T) {
	c := testConfig(t)
	cell := c.Cells()[0]
	steal := func(v float64) *float64 { return &v }
	d := &store.Data{Runs: []store.Run{
		{CellID: cell.ID(), Mode: "data", Repeat: 1, Status: "ok", OtherCPU: "others:0", StealPct: steal(12)},
		{CellID: cell.ID(), Mode: "pipe", Repeat: 1, Status: "ok", OtherCPU: "others:0", StealPct: steal(3)},
		{CellID: cell.ID(), Mode: "data", Repeat: 2, Status: "ok", OtherCPU: "others:0"}, // before collector 0.1.6
	}}
	if got := tasks(Pending([]config.Cell{cell}, c.Bench.Modes, 2, d, "", Redo{NoisyPercent: 5})); !reflect.DeepEqual(got, []string{cell.ID() + " pipe 2"}) {
		t.Fatalf("without StealPercent steal is not a reason to redo, got %v", got)
	}
	pending := Pending([]config.Cell{cell}, c.Bench.Modes, 2, d, "", Redo{StealPercent: 10})
	if got, want := tasks(pending), []string{cell.ID() + " data 1", cell.ID() + " pipe 2"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("only the run with steal 12%% > 10%% is redone (and the missing repeat done), got %v, want %v", got, want)
	}
	if pending[0].Redo != "host steal 12.0% > 10%" || pending[1].Redo != "" {
		t.Errorf("why: %q and %q, want the steal rule for the redo and nothing for the new run", pending[0].Redo, pending[1].Redo)
	}
}

func TestRedoReasonNamesEveryRuleARunFallsUnder(t *testing.T) {
	steal := 26.94
	r := store.Run{Status: "server_failed", OtherCPU: "others:12,node:9", StealPct: &steal, StartedAt: t0}
	all := Redo{Failed: true, NoisyPercent: 5, StealPercent: 10, Before: t0.Add(time.Minute)}
	want := "server failed; other processes 12% of a CPU > 5%; host steal 26.9% > 10%; started before " + t0.Add(time.Minute).UTC().Format(time.RFC3339)
	if got := all.Reason(r); got != want {
		t.Errorf("Reason = %q\nwant %q", got, want)
	}
	if got := (Redo{NoisyPercent: 20, StealPercent: 30}).Reason(r); got != "" {
		t.Errorf("below every threshold Reason = %q, want none", got)
	}
}

func TestPendingRedoesANoisyRunInItsPlace(t *testing.T) {
	// A run measured under load is not coverage: it is redone where it stands in the order,
	// before later cells get their first repeat.
	c := testConfig(t)
	cells := c.Cells()
	d := &store.Data{Runs: []store.Run{
		{CellID: cells[0].ID(), Mode: "data", Repeat: 1, Status: "ok", OtherCPU: "others:80"},
		{CellID: cells[0].ID(), Mode: "pipe", Repeat: 1, Status: "ok", OtherCPU: "others:10"},
	}}
	got := tasks(Pending(cells[:2], c.Bench.Modes, 1, d, "", Redo{NoisyPercent: 50}))
	want := []string{cells[0].ID() + " data 1", cells[1].ID() + " data 1", cells[1].ID() + " pipe 1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Pending =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPendingRedoesRunsStartedBeforeATime(t *testing.T) {
	c := testConfig(t)
	cell := c.Cells()[0]
	d := &store.Data{Runs: []store.Run{
		{CellID: cell.ID(), Mode: "data", Repeat: 1, Status: "ok", StartedAt: t0},
		{CellID: cell.ID(), Mode: "pipe", Repeat: 1, Status: "ok", StartedAt: t0.Add(time.Hour)},
	}}
	got := tasks(Pending([]config.Cell{cell}, c.Bench.Modes, 1, d, "", Redo{Before: t0.Add(time.Minute)}))
	if !reflect.DeepEqual(got, []string{cell.ID() + " data 1"}) {
		t.Fatalf("only the run started before the time is redone, got %v", got)
	}
}

func TestOthersPercentReadsTheFirstEntry(t *testing.T) {
	for in, want := range map[string]float64{"others:80,node:40": 80, "others:0": 0, "": 0, "node:40": 0} {
		if got := OthersPercent(in); got != want {
			t.Errorf("OthersPercent(%q) = %v, want %v", in, got, want)
		}
	}
}

// Two hardware classes: each counts its own repeats; new runs take the lowest repeat number
// no machine has used, so numbers stay unique per (cell, mode).
func TestPendingCountsRepeatsPerHardwareClass(t *testing.T) {
	c := testConfig(t)
	cells := c.Cells()[:2]
	const amd, intel = "AMD EPYC, 2 cores", "Intel Xeon, 2 cores"
	d := &store.Data{Machines: []store.Machine{
		{MachineID: "a1", CPUModel: "AMD EPYC", Cores: 2}, {MachineID: "a2", CPUModel: "AMD EPYC", Cores: 2},
		{MachineID: "i", CPUModel: "Intel Xeon", Cores: 2},
	}}
	add := func(cell config.Cell, mode string, repeat int, machine, others string) {
		d.Runs = append(d.Runs, store.Run{CellID: cell.ID(), Mode: mode, Repeat: int32(repeat), Status: "ok", MachineID: machine, OtherCPU: others})
	}
	add(cells[0], "data", 1, "a1", "others:0")
	add(cells[0], "pipe", 1, "a1", "others:0")
	add(cells[0], "data", 2, "a2", "others:0")
	add(cells[0], "pipe", 2, "a2", "others:0")
	add(cells[0], "data", 3, "i", "others:90")
	add(cells[1], "data", 1, "a1", "others:0")
	add(cells[1], "pipe", 1, "a1", "others:0")
	c0, c1 := cells[0].ID(), cells[1].ID()

	check := func(name string, got, want []string) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s =\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	// The two AMD machines are one class: cell 0 is done there; cell 1 needs its second repeat.
	check("Pending on AMD", tasks(Pending(cells, c.Bench.Modes, 2, d, amd, Redo{NoisyPercent: 50})),
		[]string{c1 + " data 2", c1 + " pipe 2"})
	// On Intel, coverage first; run #3 of cell 0 data is Intel's first repeat; the noisy one is
	// redone in its place; fresh numbers skip those AMD used.
	check("Pending on Intel", tasks(Pending(cells, c.Bench.Modes, 2, d, intel, Redo{NoisyPercent: 50})),
		[]string{c0 + " data 3", c0 + " pipe 3", c1 + " data 2", c1 + " pipe 2", c0 + " data 4", c0 + " pipe 4", c1 + " data 3", c1 + " pipe 3"})
	// Counting every machine together (the old behaviour): Intel's run completes cell 0 data.
	check("Pending on every machine", tasks(Pending(cells, c.Bench.Modes, 2, d, "", Redo{})),
		[]string{c1 + " data 2", c1 + " pipe 2"})
	// A class with no machine in the data yet: everything, numbered after the used ones.
	if got := Pending(cells, c.Bench.Modes, 2, d, "Other CPU, 2 cores", Redo{}); len(got) != 8 || got[0].Repeat != 4 {
		t.Errorf("Pending on a new class: %d tasks, first %+v", len(got), got[0])
	}

	st := Status(cells, c.Bench.Modes, 2, d, intel)
	if st[0].State != "partial" || st[0].Done["data"] != 1 || st[0].Done["pipe"] != 0 || st[1].State != "pending" {
		t.Errorf("Status on Intel = %+v", st)
	}
	if st := Status(cells, c.Bench.Modes, 2, d, amd); st[0].State != "done" || st[1].State != "partial" {
		t.Errorf("Status on AMD = %+v", st)
	}
	// More runs than repeats on one class count as the repeats.
	if st := Status(cells, c.Bench.Modes, 1, d, ""); st[0].State != "done" || st[0].Done["data"] != 1 {
		t.Errorf("Status on every machine with 1 repeat = %+v", st[0])
	}
}

// A build that failed on one class does not stop another class from building the cell.
func TestPendingFollowsTheClassesOwnBuilds(t *testing.T) {
	c := testConfig(t)
	cell := c.Cells()[0]
	d := &store.Data{
		Machines: []store.Machine{{MachineID: "a", CPUModel: "AMD EPYC", Cores: 2}, {MachineID: "i", CPUModel: "Intel Xeon", Cores: 2}},
		Builds:   []store.Build{{BuildID: "b1", CellID: cell.ID(), Status: "failed", MachineID: "a", StartedAt: t0}},
	}
	if got := Pending([]config.Cell{cell}, c.Bench.Modes, 1, d, "AMD EPYC, 2 cores", Redo{}); len(got) != 0 {
		t.Errorf("AMD, whose build failed: %v", tasks(got))
	}
	if got := tasks(Pending([]config.Cell{cell}, c.Bench.Modes, 1, d, "Intel Xeon, 2 cores", Redo{})); len(got) != 2 {
		t.Errorf("Intel, no build yet: %v", got)
	}
	if st := Status([]config.Cell{cell}, c.Bench.Modes, 1, d, "Intel Xeon, 2 cores")[0]; st.State != "pending" {
		t.Errorf("Status on Intel = %s", st.State)
	}
}

// Machines described by collector 0.1.8 on carry their class: two "AMD EPYC" machines of
// different CPU families are two classes, and a machine's recorded class outweighs its CPU name.
func TestPendingCountsRepeatsPerRecordedClass(t *testing.T) {
	c := testConfig(t)
	cells := c.Cells()[:1]
	zen4 := "AMD EPYC (family 25 model 17), 2 cores"
	d := &store.Data{Machines: []store.Machine{
		{MachineID: "old", CPUModel: "AMD EPYC", Cores: 2},
		{MachineID: "new", CPUModel: "AMD EPYC", Cores: 2, HardwareClass: &zen4},
	}}
	for i, m := range []string{"old", "old", "new"} {
		d.Runs = append(d.Runs, store.Run{CellID: cells[0].ID(), Mode: "data", Repeat: int32(i + 1), Status: "ok", MachineID: m})
	}
	id := cells[0].ID()
	if got := tasks(Pending(cells, c.Bench.Modes, 2, d, "AMD EPYC, 2 cores", Redo{})); !reflect.DeepEqual(got, []string{id + " pipe 1", id + " pipe 2"}) {
		t.Errorf("Pending on the old class = %v", got)
	}
	if got := tasks(Pending(cells, c.Bench.Modes, 2, d, zen4, Redo{})); !reflect.DeepEqual(got, []string{id + " pipe 1", id + " data 4", id + " pipe 2"}) {
		t.Errorf("Pending on the new class = %v", got)
	}
}
