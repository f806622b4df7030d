package store

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Count is one test of a counting run (collector count): what the server
// executed, under Valgrind's callgrind, for that test's requests. Raw event
// totals are as callgrind counted them; the per-request columns divide them
// by Requests. Null where the test has no count (status other than ok).
type Count struct {
	RunID     string `parquet:"run_id"`
	BuildID   string `parquet:"build_id"`
	CellID    string `parquet:"cell_id"`
	Version   string `parquet:"version"`
	Compiler  string `parquet:"compiler"`
	FlagSet   string `parquet:"flag_set"`
	Mode      string `parquet:"mode"`
	Repeat    int32  `parquet:"repeat"`
	Test      string `parquet:"test"`
	TestIndex int32  `parquet:"test_index"`
	Status    string `parquet:"status"`
	// Requests is the number of commands the server processed in the
	// counting window (INFO total_commands_processed).
	Requests *int64 `parquet:"requests,optional"`
	// Per request.
	InstructionsPerRequest *float64 `parquet:"instructions_per_request,optional"`
	L1MissesPerRequest     *float64 `parquet:"l1_misses_per_request,optional"`
	LLMissesPerRequest     *float64 `parquet:"ll_misses_per_request,optional"`
	BranchMissesPerRequest *float64 `parquet:"branch_misses_per_request,optional"`
	EstCyclesPerRequest    *float64 `parquet:"est_cycles_per_request,optional"`
	// Callgrind's events in the window.
	Ir    *int64  `parquet:"ir,optional"`
	Dr    *int64  `parquet:"dr,optional"`
	Dw    *int64  `parquet:"dw,optional"`
	I1mr  *int64  `parquet:"i1mr,optional"`
	D1mr  *int64  `parquet:"d1mr,optional"`
	D1mw  *int64  `parquet:"d1mw,optional"`
	ILmr  *int64  `parquet:"ilmr,optional"`
	DLmr  *int64  `parquet:"dlmr,optional"`
	DLmw  *int64  `parquet:"dlmw,optional"`
	Bc    *int64  `parquet:"bc,optional"`
	Bcm   *int64  `parquet:"bcm,optional"`
	Bi    *int64  `parquet:"bi,optional"`
	Bim   *int64  `parquet:"bim,optional"`
	Error *string `parquet:"error,optional"`
}

// CountRun is one counting run (cell × mode × repeat): one server under
// Valgrind, every test once, as recorded evidence.
type CountRun struct {
	RunID           string `parquet:"run_id"`
	CellID          string `parquet:"cell_id"`
	Version         string `parquet:"version"`
	Compiler        string `parquet:"compiler"`
	FlagSet         string `parquet:"flag_set"`
	BuildID         string `parquet:"build_id"`
	Mode            string `parquet:"mode"`
	Repeat          int32  `parquet:"repeat"`
	Status          string `parquet:"status"`
	ValgrindVersion string `parquet:"valgrind_version"`
	// Command is the command line that ran the server; Env its added
	// environment; Settings the CONFIG SET applied after start.
	Command       string `parquet:"command"`
	Env           string `parquet:"env"`
	Settings      string `parquet:"settings"`
	ClientVersion string `parquet:"client_version"`
	ClientArgs    string `parquet:"client_args"`
	// RawOutput is the evidence: CONFIG SET replies, every client invocation
	// with its output, each dump's totals line.
	RawOutput       string    `parquet:"raw_output"`
	DurationSeconds float64   `parquet:"duration_seconds"`
	StartedAt       time.Time `parquet:"started_at,timestamp(millisecond:local)"`
	FinishedAt      time.Time `parquet:"finished_at,timestamp(millisecond:local)"`
	MachineID       string    `parquet:"machine_id"`
	// GuestCPU is the signature of the CPU the server sees under Valgrind and
	// of glibc's choices by it (count.GuestCPUSignature), probed once per
	// collector count. Null for runs counted before it was recorded.
	GuestCPU *string `parquet:"guest_cpu,optional"`
	// Protocol is the counting protocol the run followed (CountProtocol when
	// counted now); null (0) for runs counted before it was recorded, which
	// followed protocol 1.
	Protocol int32 `parquet:"protocol,optional"`
	// Redone says why a run of the current protocol was counted again (its
	// repeats differed, RedoDiffering); such runs are kept in the superseded
	// tables. Null for every other run.
	Redone *string `parquet:"redone,optional"`
}

// CountProtocol is the counting protocol of the runs collector count makes
// now. Counts of different protocols are not comparable, so only this
// protocol's runs make up the dataset (count_runs, counts; the runs count
// plans, the site and the report use); the others are kept, as evidence, in
// the superseded tables. What each protocol changed: CHANGELOG.md; what its
// repeats gave: docs/evidence/counting-determinism.md.
const CountProtocol = 7

// ProtocolOf is the counting protocol run r followed.
func ProtocolOf(r CountRun) int {
	if r.Protocol == 0 {
		return 1
	}
	return int(r.Protocol)
}

// File names of the counted instrument's tables.
const (
	CountsFile    = "counts.parquet"
	CountRunsFile = "count_runs.parquet"
	// The runs of earlier counting protocols and their counts.
	SupersededCountsFile    = "counts_superseded.parquet"
	SupersededCountRunsFile = "count_runs_superseded.parquet"
)

// splitProtocols moves the counting runs of other protocols than
// CountProtocol, with their counts, to the superseded tables.
func (d *Data) splitProtocols() {
	d.supersede(func(r *CountRun) bool { return ProtocolOf(*r) != CountProtocol })
}

// markForRedo marks the counting runs for which mark is true (it sets their
// Redone reason) to be counted again. A marked run stays in count_runs, its
// counts in the dataset, until a run of its (cell, mode, repeat) replaces it
// (AddCountRun), so a collection stopped part way hides nothing; PendingCounts
// plans it as not done. A run already marked keeps its first reason. It
// returns the runs it marked.
func (d *Data) markForRedo(mark func(*CountRun) bool) []CountRun {
	var marked []CountRun
	for i := range d.CountRuns {
		r := d.CountRuns[i]
		if r.Redone != nil || !mark(&r) {
			continue
		}
		d.CountRuns[i] = r
		marked = append(marked, r)
	}
	return marked
}

// AddCountRun adds a counting run and its counts. A run marked to be counted
// again (markForRedo) of the same (cell, mode, repeat) moves, with its counts,
// to the superseded tables, keeping its reason; AddCountRun returns whether
// one did (the superseded tables then change too).
func (d *Data) AddCountRun(run CountRun, counts []Count) bool {
	key := RunKey(run.CellID, run.Mode, int(run.Repeat))
	replaced := false
	d.supersede(func(r *CountRun) bool {
		ok := r.Redone != nil && RunKey(r.CellID, r.Mode, int(r.Repeat)) == key
		replaced = replaced || ok
		return ok
	})
	d.CountRuns = append(d.CountRuns, run)
	d.Counts = append(d.Counts, counts...)
	return replaced
}

// RedoneCountedOnBuild begins the reasons of runs counted again for their
// build's code (RedoUnhashed, RedoMixedCode): their counts are their build's
// own, so RestoreSetAside may bring them back.
const RedoneCountedOnBuild = "counted on build "

// RestoreSetAside brings back into count_runs, marked to be counted again,
// the runs of the current protocol that a collector before AddCountRun moved
// to the superseded tables at the start of a collection for their build's
// code (reason RedoneCountedOnBuild) and whose (cell, mode, repeat) has no run
// in count_runs since: that collection stopped before counting them again,
// and until it does their counts are the cell's. It returns how many runs
// came back.
func (d *Data) RestoreSetAside() int {
	current := map[string]bool{}
	for _, r := range d.CountRuns {
		current[RunKey(r.CellID, r.Mode, int(r.Repeat))] = true
	}
	back := map[string]bool{}
	var keep []CountRun
	for _, r := range d.SupersededCountRuns {
		key := RunKey(r.CellID, r.Mode, int(r.Repeat))
		if ProtocolOf(r) != CountProtocol || r.Redone == nil || !strings.HasPrefix(*r.Redone, RedoneCountedOnBuild) || current[key] {
			keep = append(keep, r)
			continue
		}
		current[key], back[r.RunID] = true, true
		d.CountRuns = append(d.CountRuns, r)
	}
	if len(back) == 0 {
		return 0
	}
	d.SupersededCountRuns = keep
	d.SupersededCounts, d.Counts = moveCounts(d.SupersededCounts, d.Counts, back)
	return len(back)
}

// moveCounts moves the counts of the runs in runIDs from one table to the
// other and returns both.
func moveCounts(from, to []Count, runIDs map[string]bool) (rest, into []Count) {
	for _, c := range from {
		if runIDs[c.RunID] {
			to = append(to, c)
			continue
		}
		rest = append(rest, c)
	}
	return rest, to
}

// supersede moves the counting runs for which move is true (it may mark
// them), with their counts, to the superseded tables.
func (d *Data) supersede(move func(*CountRun) bool) {
	moved := map[string]bool{}
	var keep []CountRun
	for _, r := range d.CountRuns {
		if !move(&r) {
			keep = append(keep, r)
			continue
		}
		moved[r.RunID] = true
		d.SupersededCountRuns = append(d.SupersededCountRuns, r)
	}
	d.CountRuns = keep
	d.Counts, d.SupersededCounts = moveCounts(d.Counts, d.SupersededCounts, moved)
}

// RepeatKey names the repeats of one build: the counts of a (cell, mode,
// test) from one binary.
type RepeatKey struct{ Cell, Mode, Test, Build string }

// RepeatSpan is the least and the greatest of a build's repeats, and how many
// there are.
type RepeatSpan struct {
	Lo, Hi float64
	N      int
}

// Spread is how far apart the repeats are, (Hi − Lo) / Lo, as a fraction; 0
// for fewer than two repeats or a Lo of 0.
func (s RepeatSpan) Spread() float64 {
	if s.N < 2 || s.Lo <= 0 {
		return 0
	}
	return (s.Hi - s.Lo) / s.Lo
}

// RepeatSpans groups the ok counts by build: the span of metric (counts
// where it is nil left out) over each (cell, mode, test, build)'s repeats.
// A rebuild's counts (another binary where the build is not reproducible)
// are another key; they are compared across machines, not here.
func (d *Data) RepeatSpans(metric func(Count) *float64) map[RepeatKey]RepeatSpan {
	out := map[RepeatKey]RepeatSpan{}
	for _, c := range d.Counts {
		v := metric(c)
		if c.Status != "ok" || v == nil {
			continue
		}
		k := RepeatKey{c.CellID, c.Mode, c.Test, c.BuildID}
		sp, seen := out[k]
		if !seen {
			sp.Lo, sp.Hi = *v, *v
		}
		sp.Lo, sp.Hi, sp.N = min(sp.Lo, *v), max(sp.Hi, *v), sp.N+1
		out[k] = sp
	}
	return out
}

// RedoDiffering marks to be counted again (markForRedo), with the reason, the
// counting runs of every (cell, mode) whose repeats of one build counted different
// instructions per request in some test: on a machine left alone they repeat
// to the instruction, so a difference means a disturbed run, and which of
// the repeats it was cannot be told. Collector count then counts them
// again, each replacing its run. Only the cells in the set are looked at (all
// with a nil set). It returns one line per (cell, mode) redone.
func (d *Data) RedoDiffering(cells map[string]bool) []string {
	type group struct{ cell, mode, build string }
	type widest struct {
		test   string
		spread float64
	}
	worst := map[group]widest{}
	for k, sp := range d.RepeatSpans(func(c Count) *float64 { return c.InstructionsPerRequest }) {
		s := sp.Spread()
		if s == 0 || (cells != nil && !cells[k.Cell]) {
			continue
		}
		g := group{k.Cell, k.Mode, k.Build}
		if w, ok := worst[g]; !ok || s > w.spread || (s == w.spread && k.Test < w.test) {
			worst[g] = widest{k.Test, s}
		}
	}
	reasons := map[group]string{}
	for g, w := range worst {
		reasons[g] = fmt.Sprintf("%s: %s %.4f%% apart", RedoneRepeatsDiffered, w.test, 100*w.spread)
	}
	if len(reasons) == 0 {
		return nil
	}
	marked := map[group]string{}
	d.markForRedo(func(r *CountRun) bool {
		g := group{r.CellID, r.Mode, r.BuildID}
		reason, ok := reasons[g]
		if ok {
			r.Redone, marked[g] = &reason, reason
		}
		return ok
	})
	var out []string
	for g, reason := range marked {
		out = append(out, fmt.Sprintf("%s %s: %s", g.cell, g.mode, reason))
	}
	sort.Strings(out)
	return out
}

// WrongLgVaddr says whether build b's jemalloc was configured for other
// than fixed virtual address bits (build.FixedLgVaddr): its code, and its
// counts, depend on the host it was built on.
func WrongLgVaddr(b Build, fixed int) bool {
	return b.JemallocLgVaddr != nil && *b.JemallocLgVaddr > 0 && int(*b.JemallocLgVaddr) != fixed
}

// RedoWrongLgVaddr marks to be counted again, with the reason, the counting
// runs whose build's jemalloc was configured for other than fixed virtual
// address bits (WrongLgVaddr): collector count then rebuilds those cells and
// counts them again. It returns one line per cell.
func (d *Data) RedoWrongLgVaddr(fixed int) []string {
	reasons := map[string]string{}
	for _, b := range d.Builds {
		if WrongLgVaddr(b, fixed) {
			reasons[b.BuildID] = fmt.Sprintf("%s %d-bit virtual addresses (machine %s), not %d", RedoneWrongLgVaddr, *b.JemallocLgVaddr, b.MachineID, fixed)
		}
	}
	return d.RedoBuilds(reasons)
}

// SupersedeBuilds moves to the superseded tables at once the counting runs of
// the builds in reasons, each with its build's reason, and returns one line
// per cell: "cell: reason". It is for counts that are not the cell's at all
// (a build from another release's source), which must not stay in the
// dataset until a recount replaces them; RedoBuilds keeps them until then.
func (d *Data) SupersedeBuilds(reasons map[string]string) []string {
	cells := map[string]string{}
	d.supersede(ofBuilds(reasons, cells))
	return cellLines(cells)
}

// ofBuilds picks the runs of the builds in reasons, setting each one's
// reason (Redone) and noting it by cell in cells.
func ofBuilds(reasons, cells map[string]string) func(*CountRun) bool {
	return func(r *CountRun) bool {
		reason, ok := reasons[r.BuildID]
		if ok {
			r.Redone = &reason
			cells[r.CellID] = reason
		}
		return ok
	}
}

// cellLines is "cell: reason" per cell, sorted.
func cellLines(cells map[string]string) []string {
	var out []string
	for cell, reason := range cells {
		out = append(out, cell+": "+reason)
	}
	sort.Strings(out)
	return out
}

// RedoBuilds marks to be counted again (markForRedo) the counting runs of
// the builds in reasons, each with its build's reason, and returns one line
// per cell whose runs it marked: "cell: reason".
func (d *Data) RedoBuilds(reasons map[string]string) []string {
	cells := map[string]string{}
	d.markForRedo(ofBuilds(reasons, cells))
	return cellLines(cells)
}

// RedoUnhashed marks to be counted again, with the reason, the counting
// runs of builds recorded without a code hash (builds.code_sha256 null), so
// that collector count counts those cells again on a build that has one and
// each counted cell names the code it counted. Only the cells in the set
// are looked at (all with a nil set). It returns one line per cell.
func (d *Data) RedoUnhashed(cells map[string]bool) []string {
	counted := map[string]bool{}
	for _, r := range d.CountRuns {
		if cells == nil || cells[r.CellID] {
			counted[r.BuildID] = true
		}
	}
	reasons := map[string]string{}
	for _, b := range d.Builds {
		if counted[b.BuildID] && (b.CodeSHA256 == nil || *b.CodeSHA256 == "") {
			reasons[b.BuildID] = unhashedReason(b.BuildID)
		}
	}
	return d.RedoBuilds(reasons)
}

// RedoMixedCode marks to be counted again, with the reason, the
// counting runs of each cell whose runs come from builds of different code
// (builds.code_sha256; builds without a hash are left out): all but the runs
// of its latest build, so that collector count counts them again on it and
// the cell's repeats are of one binary. Only the cells in the set are looked
// at (all with a nil set). It returns one line per cell.
func (d *Data) RedoMixedCode(cells map[string]bool) []string {
	byID := map[string]Build{}
	for _, b := range d.Builds {
		byID[b.BuildID] = b
	}
	latest := map[string]Build{}          // cell -> its latest build with a code hash that has runs
	codes := map[string]map[string]bool{} // cell -> the code hashes of its runs' builds
	for _, r := range d.CountRuns {
		b, ok := byID[r.BuildID]
		if !ok || b.CodeSHA256 == nil || *b.CodeSHA256 == "" || (cells != nil && !cells[r.CellID]) {
			continue
		}
		if codes[r.CellID] == nil {
			codes[r.CellID] = map[string]bool{}
		}
		codes[r.CellID][*b.CodeSHA256] = true
		if l, seen := latest[r.CellID]; !seen || b.StartedAt.After(l.StartedAt) {
			latest[r.CellID] = b
		}
	}
	reasons := map[string]string{} // build id -> why its runs are counted again
	for cell, cs := range codes {
		if len(cs) < 2 {
			continue
		}
		keep := latest[cell]
		for _, b := range d.Builds {
			if b.CellID == cell && b.CodeSHA256 != nil && *b.CodeSHA256 != "" && *b.CodeSHA256 != *keep.CodeSHA256 {
				reasons[b.BuildID] = fmt.Sprintf("%s%s (code %.12s), and the cell's later build %s is other code (%.12s)", RedoneCountedOnBuild, b.BuildID, *b.CodeSHA256, keep.BuildID, *keep.CodeSHA256)
			}
		}
	}
	return d.RedoBuilds(reasons)
}

// RedoneUnhashed ends the reason of a run marked to be counted again because
// its build was recorded without a code hash (RedoUnhashed).
const RedoneUnhashed = ", recorded without a code hash"

// unhashedReason is the reason RedoUnhashed gives the runs of build id.
func unhashedReason(id string) string { return RedoneCountedOnBuild + id + RedoneUnhashed }

// UnhashedBuild is the build whose lack of a code hash marked run r to be
// counted again (RedoUnhashed), or "".
func UnhashedBuild(r CountRun) string {
	if r.Redone == nil || !strings.HasPrefix(*r.Redone, RedoneCountedOnBuild) || !strings.HasSuffix(*r.Redone, RedoneUnhashed) {
		return ""
	}
	return strings.TrimSuffix(strings.TrimPrefix(*r.Redone, RedoneCountedOnBuild), RedoneUnhashed)
}

// MissSlack is how far apart two counts of one code may be in each simulated
// cache-miss event of a test. Over the published repeats of one code hash
// (69,397 test pairs, 821 across machines) the largest differences were
// I1mr 4, D1mr 5, D1mw 1 and DLmr 1; two builds of one cell with different
// code hashes (209 pairs × mode in 104 cells) were at least 8,571 I1mr
// apart in some test (scripts/identify-limits.py; docs/evidence/
// protocol-details.md, "Identifying old builds by their counts").
const MissSlack = 8

// countEvent is one callgrind event of a test and how far two counts of one
// code may be apart in it.
type countEvent struct {
	name  string
	of    func(Count) *int64
	slack int64
}

// sameCodeEvents are the events two counts of one code agree on: requests
// and the executed events exactly, the simulated misses within MissSlack.
// Branch mispredictions are left out: the predictor's state differs run to
// run (Bcm up to 1,001 apart over repeats of one code hash).
var sameCodeEvents = []countEvent{
	{"requests", func(c Count) *int64 { return c.Requests }, 0},
	{"Ir", func(c Count) *int64 { return c.Ir }, 0},
	{"Dr", func(c Count) *int64 { return c.Dr }, 0},
	{"Dw", func(c Count) *int64 { return c.Dw }, 0},
	{"Bc", func(c Count) *int64 { return c.Bc }, 0},
	{"Bi", func(c Count) *int64 { return c.Bi }, 0},
	{"I1mr", func(c Count) *int64 { return c.I1mr }, MissSlack},
	{"D1mr", func(c Count) *int64 { return c.D1mr }, MissSlack},
	{"D1mw", func(c Count) *int64 { return c.D1mw }, MissSlack},
	{"ILmr", func(c Count) *int64 { return c.ILmr }, MissSlack},
	{"DLmr", func(c Count) *int64 { return c.DLmr }, MissSlack},
	{"DLmw", func(c Count) *int64 { return c.DLmw }, MissSlack},
}

// SameCodeCounts compares two counting runs' tests (one mode each) and
// returns "" when they are what one code counts: the same tests, each of one
// status in both (a test the release lacks is unsupported in both), and in
// each ok test every event of sameCodeEvents present in both and within its
// slack.
// Otherwise it names the first difference ("ZADD: Ir 120 apart").
func SameCodeCounts(a, b []Count) string {
	if len(a) == 0 || len(a) != len(b) {
		return fmt.Sprintf("%d tests against %d", len(a), len(b))
	}
	byTest := map[string]Count{}
	for _, c := range b {
		byTest[c.Test] = c
	}
	for _, x := range a {
		y, ok := byTest[x.Test]
		switch {
		case !ok:
			return x.Test + ": counted in one run only"
		case x.Status != y.Status:
			return fmt.Sprintf("%s: status %s and %s", x.Test, x.Status, y.Status)
		case x.Status != "ok":
			continue // a test the release lacks (unsupported) in both, or failed in both: nothing counted to compare
		}
		for _, e := range sameCodeEvents {
			u, v := e.of(x), e.of(y)
			if u == nil || v == nil {
				return fmt.Sprintf("%s: %s not counted", x.Test, e.name)
			}
			if d := max(*u-*v, *v-*u); d > e.slack {
				return fmt.Sprintf("%s: %s %d apart", x.Test, e.name, d)
			}
		}
	}
	return ""
}

// Identification is what IdentifyByCounts found of one build without a
// code hash: Differs is "" when it was identified, else the first
// difference from the run compared.
type Identification struct{ Build, Differs string }

// IdentifyByCounts looks, after run was added (AddCountRun), for the builds
// of run's cell that have no code hash and whose runs are marked to be
// counted again for it (RedoUnhashed), and compares run's counts with each
// such build's runs of run's mode (SameCodeCounts). When all of a build's
// agree, it counted the code run's build has: it takes that build's code
// hash, CodeIdentifiedBy names run, and its runs still marked stay in the
// dataset, unmarked. It returns one Identification per build compared.
func (d *Data) IdentifyByCounts(run CountRun) []Identification {
	var hash string
	for _, b := range d.Builds {
		if b.BuildID == run.BuildID {
			hash = deref(b.CodeSHA256)
		}
	}
	if hash == "" || run.Status != "ok" {
		return nil
	}
	olds := map[string]bool{}
	for _, r := range d.CountRuns {
		if id := UnhashedBuild(r); id != "" && r.CellID == run.CellID {
			olds[id] = true
		}
	}
	mine := map[string]string{} // run id -> its build, for the old builds' runs of run's mode
	for _, rs := range [][]CountRun{d.CountRuns, d.SupersededCountRuns} {
		for _, r := range rs {
			if olds[r.BuildID] && r.Mode == run.Mode && r.Status == "ok" && ProtocolOf(r) == CountProtocol {
				mine[r.RunID] = r.BuildID
			}
		}
	}
	counts := map[string][]Count{}
	for _, cs := range [][]Count{d.Counts, d.SupersededCounts} {
		for _, c := range cs {
			if mine[c.RunID] != "" || c.RunID == run.RunID {
				counts[c.RunID] = append(counts[c.RunID], c)
			}
		}
	}
	ids := make([]string, 0, len(mine))
	for id := range mine {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	differs := map[string]string{}
	compared := map[string]bool{}
	for _, id := range ids {
		b := mine[id]
		compared[b] = true
		if differs[b] != "" {
			continue
		}
		if diff := SameCodeCounts(counts[run.RunID], counts[id]); diff != "" {
			differs[b] = fmt.Sprintf("%s (against %s)", diff, id)
		}
	}
	var out []Identification
	for i := range d.Builds {
		b := &d.Builds[i]
		if !compared[b.BuildID] || deref(b.CodeSHA256) != "" {
			continue
		}
		out = append(out, Identification{b.BuildID, differs[b.BuildID]})
		if differs[b.BuildID] != "" {
			continue
		}
		b.CodeSHA256, b.CodeIdentifiedBy = &hash, &run.RunID
		for j := range d.CountRuns {
			if UnhashedBuild(d.CountRuns[j]) == b.BuildID {
				d.CountRuns[j].Redone = nil
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Build < out[j].Build })
	return out
}
