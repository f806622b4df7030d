package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

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

// A counting collection saves only builds, counts, count_runs and machines
// after each run: those tables read back as a whole save would have written
// them (the last run of a key kept, counts of replaced runs gone), and the
// others are left as they are on disk. A run of an earlier protocol among the
// current ones makes it a whole save, so that run reaches the superseded tables.
func TestSaveBuildsAndCountsWritesOnlyItsTables(t *testing.T) {
	dir := t.TempDir()
	d := sample()
	if err := d.Save(dir); err != nil {
		t.Fatal(err)
	}
	before := map[string][]byte{}
	for _, f := range []string{PlanFile, RunsFile, ResultsFile, RedoneRunsFile, RedoneResultsFile} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		before[f] = b
	}
	ir := 5600.0
	cell := "7.4.1|clang|-O2 -flto"
	run := func(id string, at time.Duration, status string) CountRun {
		return CountRun{RunID: id, CellID: cell, Mode: "data", Repeat: 1, Status: status, StartedAt: t0.Add(at), Protocol: CountProtocol}
	}
	count := func(id string) Count {
		return Count{RunID: id, CellID: cell, Mode: "data", Repeat: 1, Test: "SET", Status: "ok", InstructionsPerRequest: &ir}
	}
	// In memory only, as a collection never changes them: a throughput run.
	d.Runs = append(d.Runs, Run{RunID: "unsaved", CellID: cell, Mode: "data", Repeat: 9, Status: "ok", StartedAt: t0.Add(time.Hour)})
	d.Builds = append(d.Builds, Build{BuildID: "b2", CellID: cell, Status: "ok", StartedAt: t0.Add(2 * time.Hour)})
	d.CountRuns = append(d.CountRuns, run("failed", time.Hour, "server_failed"), run("retried", 2*time.Hour, "ok"))
	d.Counts = append(d.Counts, count("failed"), count("retried"))
	if err := d.SaveBuildsAndCounts(dir); err != nil {
		t.Fatal(err)
	}
	for f, b := range before {
		if now, _ := os.ReadFile(filepath.Join(dir, f)); !bytes.Equal(now, b) {
			t.Errorf("%s rewritten", f)
		}
	}
	m, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Runs) != 2 {
		t.Errorf("runs %d, want the 2 saved whole", len(m.Runs))
	}
	if len(m.Builds) != 3 || m.Builds[2].BuildID != "b2" {
		t.Errorf("builds %+v", m.Builds)
	}
	if len(m.CountRuns) != 1 || m.CountRuns[0].RunID != "retried" || len(m.Counts) != 1 || m.Counts[0].RunID != "retried" {
		t.Errorf("count runs %+v, counts %+v: want the retried run alone", m.CountRuns, m.Counts)
	}
	if len(m.Machines) != 1 {
		t.Errorf("machines %+v", m.Machines)
	}

	old := run("old", 3*time.Hour, "ok")
	old.Protocol = CountProtocol - 1
	old.Repeat = 2
	m.CountRuns = append(m.CountRuns, old)
	if err := m.SaveBuildsAndCounts(dir); err != nil {
		t.Fatal(err)
	}
	if m, err = Load(dir); err != nil {
		t.Fatal(err)
	}
	if len(m.SupersededCountRuns) != 1 || m.SupersededCountRuns[0].RunID != "old" || len(m.CountRuns) != 1 {
		t.Errorf("an earlier protocol's run: superseded %+v, current %+v", m.SupersededCountRuns, m.CountRuns)
	}
}

// RedoDiffering marks the runs of a (cell, mode) whose repeats of one build
// differ to be counted again, with why; repeats that agree, counts of two
// builds (a rebuild) and cells not selected stay unmarked. A marked run
// stays current, its mark saved, until a run of its (cell, mode, repeat)
// replaces it and it moves to the superseded tables.
func TestRedoDifferingMarksBothRepeatsOfADisturbedCellMode(t *testing.T) {
	dir := t.TempDir()
	d := &Data{}
	runOf := func(cell, mode, build string, repeat int32, set, get float64) (CountRun, []Count) {
		id := fmt.Sprintf("%s|%s|%s|%d", cell, mode, build, repeat)
		r := CountRun{RunID: id, CellID: cell, BuildID: build, Mode: mode, Repeat: repeat, Status: "ok", StartedAt: t0.Add(time.Duration(len(d.CountRuns))), Protocol: CountProtocol}
		var counts []Count
		for test, v := range map[string]float64{"SET": set, "GET": get} {
			v := v
			counts = append(counts, Count{RunID: id, CellID: cell, BuildID: build, Mode: mode, Repeat: repeat, Test: test, Status: "ok", InstructionsPerRequest: &v})
		}
		return r, counts
	}
	add := func(cell, mode, build string, repeat int32, set, get float64) bool {
		return d.AddCountRun(runOf(cell, mode, build, repeat, set, get))
	}
	add("a", "data", "b1", 1, 100, 50)
	add("a", "data", "b1", 2, 100, 50.1) // GET 0.2% apart: both redone
	add("a", "pipe", "b1", 1, 80, 40)
	add("a", "pipe", "b1", 2, 80, 40)
	add("r", "data", "b1", 1, 100, 50)
	add("r", "data", "b1", 2, 100, 50)
	add("r", "data", "b2", 3, 101, 50) // a rebuild's count: not a repeat
	add("x", "data", "b1", 1, 100, 50)
	add("x", "data", "b1", 2, 101, 50) // differs, but not selected
	got := d.RedoDiffering(map[string]bool{"a": true, "r": true})
	if want := []string{"a data: repeats differed: GET 0.2000% apart"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("redone %q, want %q", got, want)
	}
	if again := d.RedoDiffering(map[string]bool{"a": true, "r": true}); again != nil {
		t.Errorf("marked again: %q", again)
	}
	m := saveAndLoad(t, dir, d)
	var marked []string
	for _, r := range m.CountRuns {
		if r.Redone != nil {
			if *r.Redone != "repeats differed: GET 0.2000% apart" {
				t.Errorf("run %s: redone %q", r.RunID, *r.Redone)
			}
			marked = append(marked, r.RunID)
		}
	}
	sort.Strings(marked)
	if want := []string{"a|data|b1|1", "a|data|b1|2"}; !reflect.DeepEqual(marked, want) || len(m.CountRuns) != 9 || len(m.Counts) != 18 || len(m.SupersededCountRuns) != 0 {
		t.Errorf("marked %q of %d current runs (%d counts), %d superseded; want %q of 9 (18), 0", marked, len(m.CountRuns), len(m.Counts), len(m.SupersededCountRuns), want)
	}
	// Its recount replaces a marked run; an unmarked run of another key stays.
	if !m.AddCountRun(runOf("a", "data", "b3", 1, 100, 50)) {
		t.Errorf("the recount of a|data #1 replaced nothing")
	}
	if m.AddCountRun(runOf("a", "pipe", "b3", 3, 80, 40)) {
		t.Errorf("a run of a new key replaced one")
	}
	m = saveAndLoad(t, dir, m)
	if len(m.SupersededCountRuns) != 1 || m.SupersededCountRuns[0].RunID != "a|data|b1|1" || *m.SupersededCountRuns[0].Redone != "repeats differed: GET 0.2000% apart" || len(m.SupersededCounts) != 2 {
		t.Errorf("superseded %+v (%d counts), want a|data|b1|1 with its reason and 2 counts", m.SupersededCountRuns, len(m.SupersededCounts))
	}
	if len(m.CountRuns) != 10 || len(m.Counts) != 20 {
		t.Errorf("%d current runs, %d counts; want 10, 20", len(m.CountRuns), len(m.Counts))
	}
}

// Runs that a collector before AddCountRun moved aside at a collection's
// start for their build's code, and that were not counted again, come back
// marked with their counts; runs replaced since, runs of other reasons and of
// other protocols stay superseded.
func TestRestoreSetAsideBringsBackRunsNotCountedAgain(t *testing.T) {
	reason := func(s string) *string { return &s }
	unhashed := reason(RedoneCountedOnBuild + "b1, recorded without a code hash")
	d := &Data{
		CountRuns: []CountRun{{RunID: "new", CellID: "a", BuildID: "b2", Mode: "data", Repeat: 1, Protocol: CountProtocol}},
		SupersededCountRuns: []CountRun{
			{RunID: "replaced", CellID: "a", BuildID: "b1", Mode: "data", Repeat: 1, Protocol: CountProtocol, Redone: unhashed},
			{RunID: "waiting", CellID: "a", BuildID: "b1", Mode: "pipe", Repeat: 1, Protocol: CountProtocol, Redone: unhashed},
			{RunID: "wrong", CellID: "w", BuildID: "w1", Mode: "data", Repeat: 1, Protocol: CountProtocol, Redone: reason(RedoneWrongLgVaddr + " 57-bit")},
			{RunID: "earlier", CellID: "e", BuildID: "e1", Mode: "data", Repeat: 1, Protocol: CountProtocol - 1, Redone: unhashed},
		},
	}
	for _, r := range d.SupersededCountRuns {
		d.SupersededCounts = append(d.SupersededCounts, Count{RunID: r.RunID, Test: "SET"})
	}
	if n := d.RestoreSetAside(); n != 1 {
		t.Errorf("restored %d runs, want 1", n)
	}
	var current, superseded, counts []string
	for _, r := range d.CountRuns {
		current = append(current, r.RunID)
	}
	for _, r := range d.SupersededCountRuns {
		superseded = append(superseded, r.RunID)
	}
	for _, c := range d.Counts {
		counts = append(counts, c.RunID)
	}
	if !reflect.DeepEqual(current, []string{"new", "waiting"}) || !reflect.DeepEqual(superseded, []string{"replaced", "wrong", "earlier"}) || !reflect.DeepEqual(counts, []string{"waiting"}) || len(d.SupersededCounts) != 3 {
		t.Errorf("current %q, superseded %q, current counts %q, %d superseded counts", current, superseded, counts, len(d.SupersededCounts))
	}
	if d.CountRuns[1].Redone == nil || d.CountRuns[1].Redone != unhashed {
		t.Errorf("the restored run lost its mark: %v", d.CountRuns[1].Redone)
	}
	if n := d.RestoreSetAside(); n != 0 {
		t.Errorf("restored %d runs again", n)
	}
}

// RepeatSpans spans each build's ok repeats of a (cell, mode, test): a
// rebuild is another span, and failed tests and missing figures stay out.
func TestRepeatSpansGroupRepeatsByBuild(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	d := &Data{Counts: []Count{
		{CellID: "a", Mode: "data", Test: "SET", BuildID: "b1", Status: "ok", InstructionsPerRequest: f(100)},
		{CellID: "a", Mode: "data", Test: "SET", BuildID: "b1", Status: "ok", InstructionsPerRequest: f(102)},
		{CellID: "a", Mode: "data", Test: "SET", BuildID: "b1", Status: "ok", InstructionsPerRequest: f(101)},
		{CellID: "a", Mode: "data", Test: "SET", BuildID: "b1", Status: "failed", InstructionsPerRequest: f(500)},
		{CellID: "a", Mode: "data", Test: "SET", BuildID: "b2", Status: "ok", InstructionsPerRequest: f(90)},
		{CellID: "a", Mode: "data", Test: "GET", BuildID: "b1", Status: "ok"},
	}}
	got := d.RepeatSpans(func(c Count) *float64 { return c.InstructionsPerRequest })
	want := map[RepeatKey]RepeatSpan{
		{"a", "data", "SET", "b1"}: {Lo: 100, Hi: 102, N: 3},
		{"a", "data", "SET", "b2"}: {Lo: 90, Hi: 90, N: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("spans %+v, want %+v", got, want)
	}
	if s := got[RepeatKey{"a", "data", "SET", "b1"}].Spread(); s != 0.02 {
		t.Errorf("spread %v, want 0.02", s)
	}
	if s := got[RepeatKey{"a", "data", "SET", "b2"}].Spread(); s != 0 {
		t.Errorf("one repeat's spread %v, want 0", s)
	}
}

// RedoWrongLgVaddr marks to be counted again the runs of builds whose
// jemalloc took the build host's virtual address bits, and keeps the jemalloc_lg_vaddr column
// (null for builds recorded before it).
func TestRedoWrongLgVaddrMarksRunsOfHostSizedBuilds(t *testing.T) {
	dir := t.TempDir()
	lg := func(n int32) *int32 { return &n }
	d := &Data{Builds: []Build{
		{BuildID: "b57", CellID: "a", MachineID: "intel", Status: "ok", JemallocLgVaddr: lg(57)},
		{BuildID: "b48", CellID: "b", MachineID: "amd", Status: "ok", JemallocLgVaddr: lg(48)},
		{BuildID: "b0", CellID: "c", MachineID: "amd", Status: "ok", JemallocLgVaddr: lg(0)}, // 2.6-4.0: no LG_VADDR
		{BuildID: "bnil", CellID: "d", MachineID: "amd", Status: "ok"},                       // recorded before the column
	}}
	for i, b := range d.Builds {
		for _, mode := range []string{"data", "pipe"} {
			id := b.BuildID + "|" + mode
			d.CountRuns = append(d.CountRuns, CountRun{RunID: id, CellID: b.CellID, BuildID: b.BuildID, Mode: mode, Repeat: 1, Status: "ok", StartedAt: t0.Add(time.Duration(i)), Protocol: CountProtocol})
			v := 100.0
			d.Counts = append(d.Counts, Count{RunID: id, CellID: b.CellID, BuildID: b.BuildID, Mode: mode, Repeat: 1, Test: "SET", Status: "ok", InstructionsPerRequest: &v})
		}
	}
	for _, b := range d.Builds {
		if got, want := WrongLgVaddr(b, 48), b.BuildID == "b57"; got != want {
			t.Errorf("WrongLgVaddr(%s) = %v, want %v", b.BuildID, got, want)
		}
	}
	reason := "built with jemalloc configured for the build host's 57-bit virtual addresses (machine intel), not 48"
	if got, want := d.RedoWrongLgVaddr(48), []string{"a: " + reason}; !reflect.DeepEqual(got, want) {
		t.Fatalf("redone %q, want %q", got, want)
	}
	m := saveAndLoad(t, dir, d)
	if len(m.CountRuns) != 8 || len(m.Counts) != 8 || len(m.SupersededCountRuns) != 0 {
		t.Errorf("%d runs, %d counts, %d superseded runs; want 8, 8, 0 (marked, not moved)", len(m.CountRuns), len(m.Counts), len(m.SupersededCountRuns))
	}
	for _, r := range m.CountRuns {
		if marked := r.Redone != nil && *r.Redone == reason; marked != (r.BuildID == "b57") {
			t.Errorf("run %s: redone %v", r.RunID, r.Redone)
		}
	}
	got := map[string]string{}
	for _, b := range m.Builds {
		got[b.BuildID] = "null"
		if b.JemallocLgVaddr != nil {
			got[b.BuildID] = fmt.Sprint(*b.JemallocLgVaddr)
		}
	}
	if want := map[string]string{"b57": "57", "b48": "48", "b0": "0", "bnil": "null"}; !reflect.DeepEqual(got, want) {
		t.Errorf("jemalloc_lg_vaddr read back %v, want %v", got, want)
	}
	if again := m.RedoWrongLgVaddr(48); again != nil {
		t.Errorf("a second pass redid %q", again)
	}
}

// Merged into a copy of the data that still has them unmarked, runs the
// other copy marked to be counted again (RedoWrongLgVaddr, RedoDiffering)
// stay marked, and a run it replaced since leaves the current tables: a run
// is current or superseded, not both.
func TestMergeKeepsMarksAndRunsReplacedSince(t *testing.T) {
	lg := func(n int32) *int32 { return &n }
	runOf := func(id, build, mode string) (CountRun, []Count) {
		v := 100.0
		return CountRun{RunID: id, CellID: "a", BuildID: build, Mode: mode, Repeat: 1, Status: "ok", StartedAt: t0, Protocol: CountProtocol},
			[]Count{{RunID: id, CellID: "a", BuildID: build, Mode: mode, Repeat: 1, Test: "SET", Status: "ok", InstructionsPerRequest: &v}}
	}
	mk := func() *Data {
		d := &Data{Builds: []Build{{BuildID: "b57", CellID: "a", MachineID: "intel", Status: "ok", JemallocLgVaddr: lg(57)}}}
		for _, mode := range []string{"data", "pipe"} {
			d.AddCountRun(runOf("r-"+mode, "b57", mode))
		}
		return d
	}
	published, working := mk(), mk()
	working.RedoWrongLgVaddr(48)
	working.AddCountRun(runOf("again-data", "b48", "data"))
	published.Merge(working)
	var current []string
	for _, r := range published.CountRuns {
		current = append(current, fmt.Sprintf("%s marked %v", r.RunID, r.Redone != nil))
	}
	sort.Strings(current)
	if want := []string{"again-data marked false", "r-pipe marked true"}; !reflect.DeepEqual(current, want) || len(published.Counts) != 2 || len(published.SupersededCountRuns) != 1 || len(published.SupersededCounts) != 1 {
		t.Errorf("after the merge: current %q (%d counts), %d superseded runs (%d counts); want %q (2), 1 (1)",
			current, len(published.Counts), len(published.SupersededCountRuns), len(published.SupersededCounts), want)
	}
}

// RedoMixedCode marks to be counted again the runs of a cell's builds
// whose code differs from its latest counted build's, and leaves alone
// cells whose builds are one code, builds without a hash, and cells not
// selected.
func TestRedoMixedCodeCountsACellAgainOnItsLatestBuild(t *testing.T) {
	code := func(s string) *string { return &s }
	d := &Data{Builds: []Build{
		{BuildID: "a1", CellID: "a", Status: "ok", StartedAt: t0, CodeSHA256: code("5e88312f0000")},
		{BuildID: "a2", CellID: "a", Status: "ok", StartedAt: t0.Add(time.Hour), CodeSHA256: code("ad11cf070000")},
		{BuildID: "s1", CellID: "s", Status: "ok", StartedAt: t0, CodeSHA256: code("1111")},
		{BuildID: "s2", CellID: "s", Status: "ok", StartedAt: t0.Add(time.Hour), CodeSHA256: code("1111")}, // a rebuild, same code
		{BuildID: "n1", CellID: "n", Status: "ok", StartedAt: t0},                                          // no hash recorded
		{BuildID: "n2", CellID: "n", Status: "ok", StartedAt: t0.Add(time.Hour), CodeSHA256: code("2222")},
		{BuildID: "x1", CellID: "x", Status: "ok", StartedAt: t0, CodeSHA256: code("3333")},
		{BuildID: "x2", CellID: "x", Status: "ok", StartedAt: t0.Add(time.Hour), CodeSHA256: code("4444")}, // not selected
	}}
	for _, r := range []struct{ build, cell string }{{"a1", "a"}, {"a2", "a"}, {"a2", "a"}, {"s1", "s"}, {"s2", "s"}, {"n1", "n"}, {"n2", "n"}, {"x1", "x"}, {"x2", "x"}} {
		id := fmt.Sprintf("%s-%d", r.build, len(d.CountRuns))
		d.CountRuns = append(d.CountRuns, CountRun{RunID: id, CellID: r.cell, BuildID: r.build, Mode: "data", Repeat: int32(len(d.CountRuns)), Status: "ok", Protocol: CountProtocol})
	}
	reason := "counted on build a1 (code 5e88312f0000), and the cell's later build a2 is other code (ad11cf070000)"
	got := d.RedoMixedCode(map[string]bool{"a": true, "s": true, "n": true})
	if want := []string{"a: " + reason}; !reflect.DeepEqual(got, want) {
		t.Fatalf("redone %q, want %q", got, want)
	}
	for _, r := range d.CountRuns {
		if marked := r.Redone != nil && *r.Redone == reason; marked != (r.BuildID == "a1") {
			t.Errorf("run %s: redone %v", r.RunID, r.Redone)
		}
	}
	if len(d.SupersededCountRuns) != 0 || len(d.CountRuns) != 9 {
		t.Errorf("%d superseded, %d current runs; want 0, 9 (marked, not moved)", len(d.SupersededCountRuns), len(d.CountRuns))
	}
	if again := d.RedoMixedCode(nil); !reflect.DeepEqual(again, []string{"x: counted on build x1 (code 3333), and the cell's later build x2 is other code (4444)"}) {
		t.Errorf("all cells: redone %q", again)
	}
}

// saveAndLoad saves d in dir and reads it back.
func saveAndLoad(t *testing.T, dir string, d *Data) *Data {
	t.Helper()
	if err := d.Save(dir); err != nil {
		t.Fatal(err)
	}
	m, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A build recorded without a code hash takes a later build's hash when a
// run of that build counts what its own runs counted (misses within
// MissSlack): its marked runs stay, unmarked. One whose instructions differ
// keeps its marks and no hash; a rebuild band never pairs an identified build.
func TestIdentifyByCountsGivesAnUnhashedBuildItsRebuildsHash(t *testing.T) {
	dir := t.TempDir()
	code := func(s string) *string { return &s }
	d := &Data{Builds: []Build{
		{BuildID: "a-old", CellID: "a", Status: "ok", StartedAt: t0},
		{BuildID: "a-new", CellID: "a", Status: "ok", StartedAt: t0.Add(time.Hour), CodeSHA256: code("aaaa")},
		{BuildID: "b-old", CellID: "b", Status: "ok", StartedAt: t0},
		{BuildID: "b-new", CellID: "b", Status: "ok", StartedAt: t0.Add(time.Hour), CodeSHA256: code("bbbb")},
	}}
	runOf := func(cell, build, mode string, repeat int32, ir, i1mr int64) (CountRun, []Count) {
		id := fmt.Sprintf("%s|%s|%s|%d", cell, build, mode, repeat)
		r := CountRun{RunID: id, CellID: cell, BuildID: build, Mode: mode, Repeat: repeat, Status: "ok", Protocol: CountProtocol}
		var counts []Count
		for _, test := range []string{"SET", "GET"} {
			n, ir, i1, same := int64(1000), ir, i1mr, int64(7)
			counts = append(counts, Count{RunID: id, CellID: cell, BuildID: build, Mode: mode, Repeat: repeat, Test: test, Status: "ok",
				Requests: &n, Ir: &ir, Dr: &same, Dw: &same, Bc: &same, Bi: &same, I1mr: &i1, D1mr: &same, D1mw: &same, ILmr: &same, DLmr: &same, DLmw: &same})
		}
		return r, counts
	}
	for _, cell := range []string{"a", "b"} {
		for _, mode := range []string{"data", "pipe"} {
			for rep := int32(1); rep <= 2; rep++ {
				d.AddCountRun(runOf(cell, cell+"-old", mode, rep, 5000, 100))
			}
		}
	}
	if got := d.RedoUnhashed(nil); len(got) != 2 {
		t.Fatalf("RedoUnhashed = %q", got)
	}
	// a: the new build's data #1 counts the same instructions, misses 8 apart.
	run, counts := runOf("a", "a-new", "data", 1, 5000, 108)
	d.AddCountRun(run, counts)
	if got := d.IdentifyByCounts(run); !reflect.DeepEqual(got, []Identification{{"a-old", ""}}) {
		t.Errorf("a: %+v, want a-old identified", got)
	}
	// b: one instruction more in each test.
	run, counts = runOf("b", "b-new", "data", 1, 5001, 100)
	d.AddCountRun(run, counts)
	if got := d.IdentifyByCounts(run); !reflect.DeepEqual(got, []Identification{{"b-old", "SET: Ir 1 apart (against b|b-old|data|1)"}}) {
		t.Errorf("b: %+v, want b-old not identified", got)
	}
	m := saveAndLoad(t, dir, d)
	for _, b := range m.Builds {
		switch b.BuildID {
		case "a-old":
			if deref(b.CodeSHA256) != "aaaa" || deref(b.CodeIdentifiedBy) != "a|a-new|data|1" {
				t.Errorf("a-old: code %q identified by %q", deref(b.CodeSHA256), deref(b.CodeIdentifiedBy))
			}
		case "b-old":
			if b.CodeSHA256 != nil || b.CodeIdentifiedBy != nil {
				t.Errorf("b-old: code %v identified by %v", b.CodeSHA256, b.CodeIdentifiedBy)
			}
		}
	}
	marked := map[string]int{}
	for _, r := range m.CountRuns {
		if r.Redone != nil {
			marked[r.CellID]++
		}
	}
	if marked["a"] != 0 || marked["b"] != 3 || len(m.CountRuns) != 8 || len(m.SupersededCountRuns) != 2 {
		t.Errorf("marked %v, %d current and %d superseded runs; want a 0, b 3, 8 and 2", marked, len(m.CountRuns), len(m.SupersededCountRuns))
	}
	// A second identification finds nothing left to compare.
	if got := m.IdentifyByCounts(run); len(got) != 1 || got[0].Differs == "" {
		t.Errorf("b again: %+v", got)
	}
	if pairs := rebuildPairs(m.Builds, map[string]buildFigures{"a-old": {{"data", "SET"}: {}}, "a-new": {{"data", "SET"}: {}}}); len(pairs) != 0 {
		t.Errorf("rebuild pairs %+v, want none (a-old is identified)", pairs)
	}
}

func TestSameCodeCountsNamesTheFirstDifference(t *testing.T) {
	n, a, b, slack := int64(10), int64(1), int64(2), int64(2+MissSlack)
	one := []Count{{Test: "SET", Status: "ok", Requests: &n, Ir: &a, Dr: &a, Dw: &a, Bc: &a, Bi: &a, I1mr: &a, D1mr: &a, D1mw: &a, ILmr: &a, DLmr: &a, DLmw: &a}}
	for _, c := range []struct {
		name string
		edit func(*Count)
		want string
	}{
		{"same", func(*Count) {}, ""},
		{"branch mispredictions are not compared", func(c *Count) { c.Bcm = &b }, ""},
		{"Dw", func(c *Count) { c.Dw = &b }, "SET: Dw 1 apart"},
		{"D1mw beyond the slack", func(c *Count) { c.D1mw = &slack }, "SET: D1mw 9 apart"},
		{"requests", func(c *Count) { c.Requests = &a }, "SET: requests 9 apart"},
		{"status", func(c *Count) { c.Status = "failed" }, "SET: status ok and failed"},
		{"missing event", func(c *Count) { c.Bi = nil }, "SET: Bi not counted"},
		{"other test", func(c *Count) { c.Test = "GET" }, "SET: counted in one run only"},
	} {
		other := append([]Count(nil), one...)
		c.edit(&other[0])
		if got := SameCodeCounts(one, other); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	lacked := []Count{{Test: "ZPOPMIN", Status: "unsupported"}}
	if got := SameCodeCounts(append(lacked, one...), append(lacked, one...)); got != "" {
		t.Errorf("a test unsupported in both: %q, want no difference", got)
	}
	if got := SameCodeCounts(one, nil); got != "1 tests against 0" {
		t.Errorf("against nothing: %q", got)
	}
}
