package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/machine"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// countRun is a counting run of cell in mode with repeat, of status.
func countRun(cell, mode string, repeat int, status string) store.CountRun {
	return store.CountRun{RunID: cell + mode + string(rune('0'+repeat)), CellID: cell, Mode: mode, Repeat: int32(repeat), Status: status}
}

func TestCountTakesTheMatrixInCollectionOrder(t *testing.T) {
	ref, err := config.Load("../../matrix.toml")
	if err != nil {
		t.Fatal(err)
	}
	tasks := PendingCounts(ref.InCollectionOrder(config.ReferenceCells(ref.Cells())), ref.Count.Modes, ref.Count.Repeats, &store.Data{}, false)
	if len(tasks) != 1920*4 {
		t.Fatalf("%d counting runs, want 1920 cells x 2 modes x 2 repeats", len(tasks))
	}
	var versions []string
	cellsSeen := map[string]bool{}
	for i, task := range tasks {
		if i == 0 || task.Cell.ID() != tasks[i-1].Cell.ID() {
			if cellsSeen[task.Cell.ID()] {
				t.Fatalf("%s's counting runs are not together", task.Cell.ID())
			}
			cellsSeen[task.Cell.ID()] = true
		}
		if i == 0 || task.Cell.Version != tasks[i-1].Cell.Version {
			versions = append(versions, task.Cell.Version)
		}
	}
	var want []string
	for _, p := range ref.CollectionOrder() {
		want = append(want, p.Version)
	}
	if !reflect.DeepEqual(versions, want) {
		t.Errorf("count takes the versions in the order\n%q\nwant\n%q", versions, want)
	}
	if got := []string{versions[0], versions[11], versions[12], versions[23], versions[24]}; !reflect.DeepEqual(got,
		[]string{"2.6.17", "8.0.6", "2.6.0", "8.0.2", "2.8.12"}) {
		t.Errorf("current versions 2.6.17 ... 8.0.6, first releases 2.6.0 ... 8.0.2, then 2.8.12; got %q", got)
	}
	if got := tasks[:4]; got[0].Cell.ID() != "2.6.17|gcc|-O2" || got[0].Repeat != 1 || got[1].Mode.Name != "pipe" || got[3].Repeat != 2 {
		t.Errorf("first cell's runs: %q, want 2.6.17|gcc|-O2 data 1, pipe 1, data 2, pipe 2", []string{got[0].Cell.ID(), got[1].Mode.Name})
	}
}

func TestPendingCountsSkipDoneRunsAndFailedBuilds(t *testing.T) {
	c := releasesConfig(t)
	c.Count = config.Count{Repeats: 1, Modes: []config.Mode{{Name: "data"}, {Name: "pipe"}}}
	f := &fixture{d: &store.Data{}}
	f.build("2.6.0|gcc|-O2", "failed")
	f.d.CountRuns = []store.CountRun{countRun("7.4.1|gcc|-O2", "data", 1, "ok"), countRun("7.4.1|gcc|-O2", "pipe", 1, "server_failed")}
	cells := []config.Cell{c.Cells()[6], c.Cells()[0]} // 7.4.1|gcc|-O2, 2.6.0|gcc|-O2
	if got := tasks(PendingCounts(cells, c.Count.Modes, 1, f.d, false)); !reflect.DeepEqual(got, []string(nil)) {
		t.Errorf("pending = %q, want none: counted, server failed (done), build failed", got)
	}
	got := tasks(PendingCounts(cells, c.Count.Modes, 1, f.d, true))
	want := []string{"7.4.1|gcc|-O2 pipe 1", "2.6.0|gcc|-O2 data 1", "2.6.0|gcc|-O2 pipe 1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with retry-failed, pending = %q, want %q", got, want)
	}
}

func TestCountStatusPerVersionInCollectionOrder(t *testing.T) {
	c := releasesConfig(t)
	c.Count = config.Count{Repeats: 2, Modes: []config.Mode{{Name: "data"}, {Name: "pipe"}}}
	f := &fixture{d: &store.Data{}}
	// 7.4.1|gcc|-O2 counted (a failed server counts as done), 7.4.1|gcc|-O2 -flto partial,
	// 2.6.0|gcc|-O2 failed to build; a third repeat and another mode do not count.
	for _, m := range []string{"data", "pipe"} {
		for r := 1; r <= 2; r++ {
			f.d.CountRuns = append(f.d.CountRuns, countRun("7.4.1|gcc|-O2", m, r, map[bool]string{true: "server_failed", false: "ok"}[r == 2]))
		}
	}
	f.d.CountRuns = append(f.d.CountRuns, countRun("7.4.1|gcc|-O2 -flto", "data", 1, "ok"), countRun("7.4.1|gcc|-O2 -flto", "data", 3, "ok"),
		countRun("7.4.1|gcc|-O2 -flto", "other", 1, "ok"), countRun("7.4.1|gcc|-O2 -flto", "other", 2, "ok"), countRun("7.4.1|gcc|-O2 -flto", "pipe", 3, "ok"))
	f.build("2.6.0|gcc|-O2", "failed")
	got := CountStatus(c, c.Cells(), f.d)
	want := []VersionCounts{
		{Placed: config.Placed{Version: "2.6.17", Phase: "current"}, Cells: 2},
		{Placed: config.Placed{Version: "7.4.1", Phase: "current"}, Cells: 2, Counted: 1, Partial: 1},
		{Placed: config.Placed{Version: "2.6.0", Phase: "first"}, Cells: 2, Failed: 1},
		{Placed: config.Placed{Version: "7.4.0", Phase: "first"}, Cells: 2},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("count status\n got %+v\nwant %+v", got, want)
	}
	if got[0].Pending() != 2 || got[1].Pending() != 0 || got[2].Pending() != 1 {
		t.Errorf("pending %d, %d, %d; want 2, 0, 1", got[0].Pending(), got[1].Pending(), got[2].Pending())
	}
	// A selection of cells leaves the other versions out.
	if got := CountStatus(c, c.Cells()[6:], f.d); len(got) != 1 || got[0].Version != "7.4.1" {
		t.Errorf("count status of 7.4.1's cells = %+v", got)
	}
}

// With RedoDiffering, a pass whose repeats of a (cell, mode) differ is
// followed by a pass that counts that pair again (its runs replaced), at
// most redoPasses times; without it, one pass.
func TestCountPassesCountAgainWhatDiffers(t *testing.T) {
	c := releasesConfig(t)
	c.Count = config.Count{Repeats: 2, Modes: []config.Mode{{Name: "data"}}}
	cells := []config.Cell{c.Cells()[6]} // 7.4.1|gcc|-O2
	for _, tc := range []struct {
		name     string
		redo     bool
		differ   int  // passes whose repeat 2 counts one instruction more
		skip2    bool // the pass leaves repeat 2 uncounted (a failed run)
		passes   []string
		redone   int
		lastLine string
	}{
		{"disturbed once", true, 1, false, []string{"data 1, data 2", "data 1, data 2"}, 2, "done"},
		{"always differs", true, 99, false, []string{"data 1, data 2", "data 1, data 2", "data 1, data 2"}, 4, "done"},
		{"never differs", true, 0, false, []string{"data 1, data 2"}, 0, "done"},
		{"no redo", false, 1, false, []string{"data 1, data 2"}, 0, "done"},
		{"a run left pending is not tried again", true, 0, true, []string{"data 1, data 2"}, 0, "done"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log strings.Builder
			col := &collector{Options: Options{Config: c, Cells: cells, DataDir: t.TempDir(), Log: &log, RedoDiffering: tc.redo}, data: &store.Data{}}
			var passes []string
			err := col.countPasses(func(ts []Task) error {
				var got []string
				for _, task := range ts {
					got = append(got, fmt.Sprintf("%s %d", task.Mode.Name, task.Repeat))
					if tc.skip2 && task.Repeat == 2 {
						continue
					}
					v := 1000.0
					if task.Repeat == 2 && len(passes) < tc.differ {
						v++
					}
					id := fmt.Sprintf("p%d-r%d", len(passes), task.Repeat)
					col.data.AddCountRun(store.CountRun{RunID: id, BuildID: "b", CellID: task.Cell.ID(), Mode: task.Mode.Name, Repeat: int32(task.Repeat), Status: "ok", Protocol: store.CountProtocol},
						[]store.Count{{RunID: id, BuildID: "b", CellID: task.Cell.ID(), Mode: task.Mode.Name, Repeat: int32(task.Repeat), Test: "SET", Status: "ok", InstructionsPerRequest: &v}})
				}
				passes = append(passes, strings.Join(got, ", "))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(passes, tc.passes) {
				t.Errorf("passes %q, want %q\n%s", passes, tc.passes, log.String())
			}
			if got := len(col.data.SupersededCountRuns); got != tc.redone {
				t.Errorf("%d runs moved aside, want %d", got, tc.redone)
			}
			lines := strings.Split(strings.TrimSpace(log.String()), "\n")
			if lines[len(lines)-1] != tc.lastLine {
				t.Errorf("log ends %q, want %q:\n%s", lines[len(lines)-1], tc.lastLine, log.String())
			}
		})
	}
}

// With RedoDiffering, a run's callgrind dumps wait in the cell's dumps
// folder until its build's repeats are all counted: removed when they agree,
// kept (and said where) when they differ.
func TestDumpsAreKeptOnlyForRepeatsThatDiffer(t *testing.T) {
	c := releasesConfig(t)
	c.Count = config.Count{Repeats: 2, Modes: []config.Mode{{Name: "data"}, {Name: "pipe"}}}
	col := &collector{Options: Options{Config: c, WorkDir: t.TempDir(), RedoDiffering: true}, data: &store.Data{}}
	cell := "7.4.1|gcc|-O2"
	add := func(mode string, repeat int, v float64) string {
		stamp := fmt.Sprintf("20261126T1800%02d.000", len(col.data.CountRuns))
		id := fmt.Sprintf("%s|count-%s|%d|%s", cell, mode, repeat, stamp)
		col.data.CountRuns = append(col.data.CountRuns, store.CountRun{RunID: id, BuildID: "b", CellID: cell, Mode: mode, Repeat: int32(repeat), Status: "ok"})
		col.data.Counts = append(col.data.Counts, store.Count{RunID: id, BuildID: "b", CellID: cell, Mode: mode, Repeat: int32(repeat), Test: "SET", Status: "ok", InstructionsPerRequest: &v})
		dir := pairDumpsDir(col.WorkDir, cell, mode, repeat, stamp)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	exists := func(dir string) bool { _, err := os.Stat(dir); return err == nil }
	data1 := add("data", 1, 1000)
	if line := col.dropAgreedDumps(cell, "data"); line != "" || !exists(data1) {
		t.Fatalf("one repeat of two: dumps kept %v, line %q", exists(data1), line)
	}
	data2 := add("data", 2, 1000)
	if line := col.dropAgreedDumps(cell, "data"); line != "" || exists(data1) || exists(data2) {
		t.Errorf("agreeing repeats: dumps still there %v %v, line %q", exists(data1), exists(data2), line)
	}
	pipe1, pipe2 := add("pipe", 1, 800), add("pipe", 2, 801)
	line := col.dropAgreedDumps(cell, "pipe")
	if !exists(pipe1) || !exists(pipe2) || !strings.Contains(line, "7.4.1|gcc|-O2 pipe: repeats differ in SET; their callgrind dumps are kept in "+filepath.Dir(pipe1)) {
		t.Errorf("differing repeats: dumps kept %v %v, line %q", exists(pipe1), exists(pipe2), line)
	}
}

// A build made here before jemalloc's virtual address bits were fixed gets
// them from the dependency tree it used (when that tree is still the old
// one), and a cell whose counted build took the host's 57 bits is counted
// again, its runs moved aside; builds of other machines, and builds whose
// tree was rebuilt, stay unknown.
func TestCountAgainCellsBuiltForTheHostsVirtualAddressBits(t *testing.T) {
	c := releasesConfig(t)
	c.Count = config.Count{Repeats: 1, Modes: []config.Mode{{Name: "data"}}}
	cells := []config.Cell{c.Cells()[6]} // 7.4.1|gcc|-O2
	work := t.TempDir()
	tree := func(name, marker, defs string) {
		dir := filepath.Join(work, "deps", name, "deps", "jemalloc", "include", "jemalloc", "internal")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "jemalloc_internal_defs.h"), []byte(defs), 0o644)
		os.WriteFile(filepath.Join(work, "deps", name, ".rcb-deps-ok"), []byte(marker), 0o644)
	}
	tree("7.4.1-gcc", "", "#define LG_VADDR 57\n")                      // old, the host's bits
	tree("7.4.1-clang", "je_cv_lg_vaddr=48\n", "#define LG_VADDR 48\n") // rebuilt since: says nothing of old builds
	tree("4.0.14-gcc", "", "/* jemalloc 4: no LG_VADDR */\n")           // old, nothing to fix
	var log strings.Builder
	col := &collector{Options: Options{Config: c, Cells: cells, DataDir: t.TempDir(), WorkDir: work, Log: &log},
		machine: machine.Info{ID: "here"}, data: &store.Data{Builds: []store.Build{
			{BuildID: "g", CellID: "7.4.1|gcc|-O2", Version: "7.4.1", Compiler: "gcc", Status: "ok", MachineID: "here"},
			{BuildID: "k", CellID: "7.4.1|clang|-O2", Version: "7.4.1", Compiler: "clang", Status: "ok", MachineID: "here"},
			{BuildID: "o", CellID: "4.0.14|gcc|-O2", Version: "4.0.14", Compiler: "gcc", Status: "ok", MachineID: "here"},
			{BuildID: "x", CellID: "7.4.1|gcc|-Os", Version: "7.4.1", Compiler: "gcc", Status: "ok", MachineID: "elsewhere"},
		}}}
	col.data.CountRuns = []store.CountRun{{RunID: "g1", BuildID: "g", CellID: "7.4.1|gcc|-O2", Mode: "data", Repeat: 1, Status: "ok", Protocol: store.CountProtocol}}
	if n := col.recordOldLgVaddr(); n != 2 {
		t.Errorf("recorded %d builds' virtual address bits, want 2", n)
	}
	got := map[string]string{}
	for _, b := range col.data.Builds {
		got[b.BuildID] = "null"
		if b.JemallocLgVaddr != nil {
			got[b.BuildID] = fmt.Sprint(*b.JemallocLgVaddr)
		}
	}
	if want := map[string]string{"g": "57", "k": "null", "o": "0", "x": "null"}; !reflect.DeepEqual(got, want) {
		t.Errorf("jemalloc_lg_vaddr %v, want %v", got, want)
	}
	var passes []string
	if err := col.countPasses(func(ts []Task) error {
		for _, task := range ts {
			passes = append(passes, fmt.Sprintf("%s %s %d", task.Cell.ID(), task.Mode.Name, task.Repeat))
			col.data.AddCountRun(store.CountRun{RunID: "again", BuildID: "g2", CellID: task.Cell.ID(), Mode: task.Mode.Name, Repeat: int32(task.Repeat), Status: "ok", Protocol: store.CountProtocol}, nil)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"7.4.1|gcc|-O2 data 1"}; !reflect.DeepEqual(passes, want) {
		t.Errorf("counted %q, want %q", passes, want)
	}
	if len(col.data.SupersededCountRuns) != 1 || col.data.SupersededCountRuns[0].RunID != "g1" || !strings.Contains(log.String(), "counting again 7.4.1|gcc|-O2: built with jemalloc configured for the build host's 57-bit virtual addresses (machine here), not 48") {
		t.Errorf("%d runs moved aside by their recount; log:\n%s", len(col.data.SupersededCountRuns), log.String())
	}
}

// A cell resumed on a rebuild that is other code (its first repeat counted
// on a build whose binary is gone) is counted again whole on the rebuild:
// with RedoDiffering in the next pass, without it in the next collector
// count.
func TestCountPassesCountAgainACellRebuiltToOtherCode(t *testing.T) {
	c := releasesConfig(t)
	c.Count = config.Count{Repeats: 2, Modes: []config.Mode{{Name: "data"}}}
	cells := []config.Cell{c.Cells()[6]} // 7.4.1|gcc|-O2
	id := cells[0].ID()
	code := func(s string) *string { return &s }
	for _, redo := range []bool{true, false} {
		var log strings.Builder
		col := &collector{Options: Options{Config: c, Cells: cells, DataDir: t.TempDir(), Log: &log, RedoDiffering: redo}, data: &store.Data{
			Builds: []store.Build{
				{BuildID: "old", CellID: id, Status: "ok", StartedAt: t0, CodeSHA256: code("aaaa")},
				{BuildID: "new", CellID: id, Status: "ok", StartedAt: t0.Add(time.Hour), CodeSHA256: code("bbbb")},
			},
			CountRuns: []store.CountRun{{RunID: "r1", BuildID: "old", CellID: id, Mode: "data", Repeat: 1, Status: "ok", Protocol: store.CountProtocol}},
		}}
		var passes []string
		count := func(ts []Task) error {
			var got []string
			for _, task := range ts {
				got = append(got, fmt.Sprintf("data %d", task.Repeat))
				col.data.AddCountRun(store.CountRun{RunID: fmt.Sprintf("p%d-%d", len(passes), task.Repeat), BuildID: "new", CellID: id, Mode: "data", Repeat: int32(task.Repeat), Status: "ok", Protocol: store.CountProtocol}, nil)
			}
			passes = append(passes, strings.Join(got, ", "))
			return nil
		}
		if err := col.countPasses(count); err != nil {
			t.Fatal(err)
		}
		want := []string{"data 2", "data 1"}
		if !redo {
			want = want[:1]
			if err := col.countPasses(count); err != nil { // the next collector count
				t.Fatal(err)
			}
			want = append(want, "data 1")
		}
		if !reflect.DeepEqual(passes, want) {
			t.Errorf("redo %v: passes %q, want %q\n%s", redo, passes, want, log.String())
		}
		if len(col.data.SupersededCountRuns) != 1 || col.data.SupersededCountRuns[0].RunID != "r1" {
			t.Errorf("redo %v: superseded %+v", redo, col.data.SupersededCountRuns)
		}
		for _, r := range col.data.CountRuns {
			if r.BuildID != "new" {
				t.Errorf("redo %v: run %s of build %s left current", redo, r.RunID, r.BuildID)
			}
		}
	}
}

// A collection told to count cells again (-redo-unhashed) and stopped after
// one run hides nothing: in the saved dataset every (cell, mode, repeat)
// still has a run, the recounted one on its new build and the others on
// their old ones, marked; the next collector count counts just those.
func TestACollectionStoppedPartWayHidesNothing(t *testing.T) {
	c := releasesConfig(t)
	c.Count = config.Count{Repeats: 1, Modes: []config.Mode{{Name: "data"}, {Name: "pipe"}}}
	cells := c.Cells()[6:8]
	dir := t.TempDir()
	d := &store.Data{}
	add := func(run, build string, task Task) {
		v := 1000.0
		d.AddCountRun(store.CountRun{RunID: run, BuildID: build, CellID: task.Cell.ID(), Mode: task.Mode.Name, Repeat: int32(task.Repeat), Status: "ok", StartedAt: t0, Protocol: store.CountProtocol},
			[]store.Count{{RunID: run, BuildID: build, CellID: task.Cell.ID(), Mode: task.Mode.Name, Repeat: int32(task.Repeat), Test: "SET", Status: "ok", InstructionsPerRequest: &v}})
	}
	for _, task := range PendingCounts(cells, c.Count.Modes, 1, d, false) {
		build := "old " + task.Cell.ID()
		d.Builds = append(d.Builds, store.Build{BuildID: build, CellID: task.Cell.ID(), Status: "ok", StartedAt: t0})
		add("old "+task.Cell.ID()+" "+task.Mode.Name, build, task)
	}
	var log strings.Builder
	col := &collector{Options: Options{Config: c, Cells: cells, DataDir: dir, Log: &log, RedoUnhashed: true}, data: d}
	stopped := errors.New("stopped")
	err := col.countPasses(func(ts []Task) error {
		if len(ts) != 4 {
			t.Errorf("%d runs to count again, want 4", len(ts))
		}
		add("new", "new build", ts[0])
		if err := d.Save(dir); err != nil {
			t.Fatal(err)
		}
		return stopped
	})
	if !errors.Is(err, stopped) {
		t.Fatalf("countPasses: %v", err)
	}
	saved, err := store.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var current []string
	for _, r := range saved.CountRuns {
		current = append(current, fmt.Sprintf("%s %s %s marked %v", r.CellID, r.Mode, r.BuildID, r.Redone != nil))
	}
	sort.Strings(current)
	want := []string{
		cells[0].ID() + " data new build marked false",
		cells[0].ID() + " pipe old " + cells[0].ID() + " marked true",
		cells[1].ID() + " data old " + cells[1].ID() + " marked true",
		cells[1].ID() + " pipe old " + cells[1].ID() + " marked true",
	}
	sort.Strings(want)
	if !reflect.DeepEqual(current, want) || len(saved.Counts) != 4 || len(saved.SupersededCountRuns) != 1 {
		t.Errorf("saved: current %q (%d counts), %d superseded; want %q (4), 1", current, len(saved.Counts), len(saved.SupersededCountRuns), want)
	}
	next := &collector{Options: Options{Config: c, Cells: cells, DataDir: dir, Log: &log}, data: saved}
	var again []string
	if err := next.countPasses(func(ts []Task) error {
		for _, task := range ts {
			again = append(again, task.Cell.ID()+" "+task.Mode.Name)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	sort.Strings(again)
	want = []string{cells[0].ID() + " pipe", cells[1].ID() + " data", cells[1].ID() + " pipe"}
	if sort.Strings(want); !reflect.DeepEqual(again, want) {
		t.Errorf("the next collector count counts %q, want %q", again, want)
	}
}

// A cell whose runs are marked for a build without a code hash counts one
// data run first, to identify that build by its counts; its other marked
// runs follow the next cell's runs, and are skipped once the build is
// identified.
func TestIdentifyFirstCountsOneRunOfAnUnhashedCellFirst(t *testing.T) {
	c := releasesConfig(t)
	c.Count = config.Count{Repeats: 2, Modes: []config.Mode{{Name: "data"}, {Name: "pipe"}}}
	cells := c.Cells()[0:3]
	d := &store.Data{}
	for _, cell := range []config.Cell{cells[0], cells[2]} {
		old := "old " + cell.ID()
		d.Builds = append(d.Builds, store.Build{BuildID: old, CellID: cell.ID(), Status: "ok", StartedAt: t0})
		for _, mode := range []string{"data", "pipe"} {
			for rep := 1; rep <= 2; rep++ {
				r := countRun(cell.ID(), mode, rep, "ok")
				r.BuildID, r.Protocol = old, store.CountProtocol
				d.CountRuns = append(d.CountRuns, r)
			}
		}
	}
	if got := d.RedoUnhashed(nil); len(got) != 2 {
		t.Fatalf("RedoUnhashed = %q", got)
	}
	got := identifyFirst(PendingCounts(cells, c.Count.Modes, 2, d, false), d)
	var order []string
	for _, task := range got {
		line := fmt.Sprintf("%s %s %d", task.Cell.ID(), task.Mode.Name, task.Repeat)
		if task.Identify {
			line += " identify"
		}
		order = append(order, line)
	}
	a, b, x := cells[0].ID(), cells[1].ID(), cells[2].ID()
	want := []string{
		a + " data 1 identify",
		b + " data 1", b + " pipe 1", b + " data 2", b + " pipe 2",
		a + " pipe 1", a + " data 2", a + " pipe 2",
		x + " data 1 identify",
		x + " pipe 1", x + " data 2", x + " pipe 2",
	}
	if !reflect.DeepEqual(order, want) {
		t.Errorf("order\n%q\nwant\n%q", order, want)
	}
	col := &collector{data: d}
	if !col.stillPending(got[5]) {
		t.Errorf("%s pipe 1 not pending while its run is marked", a)
	}
	for i := range d.CountRuns {
		if d.CountRuns[i].CellID == a {
			d.CountRuns[i].Redone = nil // as IdentifyByCounts unmarks an identified build's runs
		}
	}
	if col.stillPending(got[5]) {
		t.Errorf("%s pipe 1 still pending once its build is identified", a)
	}
	if none := identifyFirst(PendingCounts(cells[1:2], c.Count.Modes, 2, d, false), d); len(none) != 4 || none[0].Identify {
		t.Errorf("a cell without unhashed runs: %d tasks, first identify %v", len(none), none[0].Identify)
	}
}
