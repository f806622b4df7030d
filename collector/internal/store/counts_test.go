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

// RedoDiffering moves the runs of a (cell, mode) whose repeats of one build
// differ to the superseded tables, with why; repeats that agree, counts of
// two builds (a rebuild) and cells not selected stay.
func TestRedoDifferingSupersedesBothRepeatsOfADisturbedCellMode(t *testing.T) {
	dir := t.TempDir()
	d := &Data{}
	add := func(cell, mode, build string, repeat int32, set, get float64) {
		id := fmt.Sprintf("%s|%s|%s|%d", cell, mode, build, repeat)
		d.CountRuns = append(d.CountRuns, CountRun{RunID: id, CellID: cell, BuildID: build, Mode: mode, Repeat: repeat, Status: "ok", StartedAt: t0.Add(time.Duration(len(d.CountRuns))), Protocol: CountProtocol})
		for test, v := range map[string]float64{"SET": set, "GET": get} {
			v := v
			d.Counts = append(d.Counts, Count{RunID: id, CellID: cell, BuildID: build, Mode: mode, Repeat: repeat, Test: test, Status: "ok", InstructionsPerRequest: &v})
		}
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
	m := saveAndLoad(t, dir, d)
	var current, superseded []string
	for _, r := range m.CountRuns {
		current = append(current, r.RunID)
	}
	for _, r := range m.SupersededCountRuns {
		if r.Redone == nil || *r.Redone != "repeats differed: GET 0.2000% apart" {
			t.Errorf("superseded run %s: redone %v", r.RunID, r.Redone)
		}
		superseded = append(superseded, r.RunID)
	}
	sort.Strings(current)
	sort.Strings(superseded)
	if want := []string{"a|data|b1|1", "a|data|b1|2"}; !reflect.DeepEqual(superseded, want) {
		t.Errorf("superseded %q, want %q", superseded, want)
	}
	if len(current) != 7 || len(m.Counts) != 14 || len(m.SupersededCounts) != 4 {
		t.Errorf("current runs %q, %d counts, %d superseded counts; want 7, 14, 4", current, len(m.Counts), len(m.SupersededCounts))
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

// RedoWrongLgVaddr supersedes the runs of builds whose jemalloc took the
// build host's virtual address bits, and keeps the jemalloc_lg_vaddr column
// (null for builds recorded before it).
func TestRedoWrongLgVaddrSupersedesRunsOfHostSizedBuilds(t *testing.T) {
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
	if len(m.CountRuns) != 6 || len(m.Counts) != 6 || len(m.SupersededCountRuns) != 2 || len(m.SupersededCounts) != 2 {
		t.Errorf("%d runs, %d counts, %d superseded runs, %d superseded counts; want 6, 6, 2, 2", len(m.CountRuns), len(m.Counts), len(m.SupersededCountRuns), len(m.SupersededCounts))
	}
	for _, r := range m.SupersededCountRuns {
		if r.BuildID != "b57" || r.Redone == nil || *r.Redone != reason {
			t.Errorf("superseded %s: redone %v", r.RunID, r.Redone)
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

// Merged into a copy of the data that still has them as current, runs the
// other copy moved aside (RedoWrongLgVaddr, RedoDiffering) leave the current
// tables: a run is current or superseded, not both.
func TestMergeKeepsRunsMovedAsideOutOfTheCurrentTables(t *testing.T) {
	lg := func(n int32) *int32 { return &n }
	mk := func() *Data {
		d := &Data{Builds: []Build{{BuildID: "b57", CellID: "a", MachineID: "intel", Status: "ok", JemallocLgVaddr: lg(57)}}}
		for _, mode := range []string{"data", "pipe"} {
			v := 100.0
			d.CountRuns = append(d.CountRuns, CountRun{RunID: "r-" + mode, CellID: "a", BuildID: "b57", Mode: mode, Repeat: 1, Status: "ok", StartedAt: t0, Protocol: CountProtocol})
			d.Counts = append(d.Counts, Count{RunID: "r-" + mode, CellID: "a", BuildID: "b57", Mode: mode, Repeat: 1, Test: "SET", Status: "ok", InstructionsPerRequest: &v})
		}
		return d
	}
	published, working := mk(), mk()
	working.RedoWrongLgVaddr(48)
	published.Merge(working)
	if len(published.CountRuns) != 0 || len(published.Counts) != 0 || len(published.SupersededCountRuns) != 2 || len(published.SupersededCounts) != 2 {
		t.Errorf("after the merge: %d current runs, %d counts, %d superseded runs, %d superseded counts; want 0, 0, 2, 2",
			len(published.CountRuns), len(published.Counts), len(published.SupersededCountRuns), len(published.SupersededCounts))
	}
}

// RedoMixedCode moves aside the runs of a cell's builds whose code differs
// from its latest counted build's, and leaves alone cells whose builds are
// one code, builds without a hash, and cells not selected.
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
	if len(d.SupersededCountRuns) != 1 || d.SupersededCountRuns[0].BuildID != "a1" || *d.SupersededCountRuns[0].Redone != reason || len(d.CountRuns) != 8 {
		t.Errorf("superseded %+v, %d current runs", d.SupersededCountRuns, len(d.CountRuns))
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
