package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/build"
	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/count"
	"github.com/redis-compiler-benchmarks/collector/internal/source"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// PendingCounts are the counting runs of cells not yet in d: counts do not
// depend on the machine, so a (cell, mode, repeat) counted anywhere is done.
// With retryFailed, runs whose server failed are counted again. Cells whose
// latest build failed have nothing to count.
func PendingCounts(cells []config.Cell, modes []config.Mode, repeats int, d *store.Data, retryFailed bool) []Task {
	done := map[string]bool{}
	for _, r := range d.CountRuns {
		if countedRun(r, retryFailed) {
			done[store.RunKey(r.CellID, r.Mode, int(r.Repeat))] = true
		}
	}
	latest := LatestBuilds(d)
	var out []Task
	for _, c := range cells {
		if b, ok := latest[c.ID()]; ok && b.Status != "ok" && !retryFailed {
			continue
		}
		for r := 1; r <= repeats; r++ {
			for _, m := range modes {
				if !done[store.RunKey(c.ID(), m.Name, r)] {
					out = append(out, Task{Cell: c, Mode: m, Repeat: r})
				}
			}
		}
	}
	return out
}

// countedRun says whether run r needs no recount: a run marked to be
// counted again (store.Data.RedoBuilds and the like) is not, its recount
// replaces it, nor, with retryFailed, a run whose server failed.
func countedRun(r store.CountRun, retryFailed bool) bool {
	return r.Redone == nil && !(retryFailed && r.Status == "server_failed")
}

// redoPasses is how many times one collector count counts again the (cell,
// mode) whose repeats differ after a pass (with RedoDiffering): a pair that
// still differs after that many is left as it is, its spread in the data.
const redoPasses = 2

// Count collects every missing counting run of o.Cells (o.Config.Count), in
// collection order (config.CollectionOrder): it builds each cell whose binary
// is not at hand, then counts the cell's runs, Count.Parallel at a time,
// saving after each run. With o.RedoDiffering it first marks to be counted
// again the runs of each (cell, mode) whose repeats of one build differ (a
// disturbed run), and after each pass does so again for the runs just
// counted, counting them again at most redoPasses times.
func Count(ctx context.Context, o Options) error {
	cc := o.Config.Count
	if len(cc.Modes) == 0 {
		return errors.New("the config has no [count] modes: nothing to count")
	}
	for _, tool := range []string{cc.Valgrind, "setarch", "taskset"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("count needs %s (apt-get install valgrind util-linux): %w", tool, err)
		}
	}
	c, _, err := open(o)
	if err != nil {
		return err
	}
	if err := c.fillDeps(ctx); err != nil {
		return err
	}
	if n := c.recordOldCodeHashes(); n > 0 {
		fmt.Fprintf(o.Log, "%d builds recorded before their code hash was: hashed from their binaries at hand\n", n)
		if err := c.data.Save(o.DataDir); err != nil {
			return err
		}
	}
	if n := c.recordOldLgVaddr(); n > 0 {
		fmt.Fprintf(o.Log, "%d builds made here before their jemalloc's virtual address bits were recorded: read from their dependency trees\n", n)
		if err := c.data.Save(o.DataDir); err != nil {
			return err
		}
	}
	var vg string
	prepared := false
	return c.countPasses(func(tasks []Task) error {
		if !prepared {
			v, err := c.prepareCounting(ctx, o)
			if err != nil {
				return err
			}
			vg, prepared = v, true
		}
		return c.countTasks(ctx, o, tasks, vg)
	})
}

// countPasses counts what is pending with pass, once. First the runs of
// builds whose jemalloc took the build host's virtual address bits are marked
// to be counted again, and before each pass those of each cell whose runs
// come from builds of different code but the latest (Data.RedoMixedCode).
// With RedoDiffering the runs of each (cell, mode) whose repeats of one build
// differ are marked too, and while a pass leaves runs of either kind marked
// another pass counts them again (with whatever else is pending), at most
// redoPasses times after the first; without it, the next collector count
// does. A marked run stays in the dataset until its recount replaces it
// (store.Data.AddCountRun), so a collection stopped part way hides nothing.
func (c *collector) countPasses(pass func(tasks []Task) error) error {
	o, cc := c.Options, c.Config.Count
	selected := map[string]bool{}
	for _, cell := range o.Cells {
		selected[cell.ID()] = true
	}
	if n := c.data.RestoreSetAside(); n > 0 {
		fmt.Fprintf(o.Log, "%d counting runs an earlier collection set aside to count again, and stopped before it did, are back in the dataset, marked to be counted again\n", n)
		if err := c.data.Save(o.DataDir); err != nil {
			return err
		}
	}
	if err := c.countAgain(c.data.RedoWrongLgVaddr(build.FixedLgVaddr)); err != nil {
		return err
	}
	if o.RedoUnhashed {
		if err := c.countAgain(c.data.RedoUnhashed(selected)); err != nil {
			return err
		}
	}
	stale, err := c.redoStaleSources(selected)
	if err != nil {
		return err
	}
	added, err := c.redoMakefileLTO(o.Cells)
	if err != nil {
		return err
	}
	if err := c.countAgainAfter(append(stale, added...), "its runs kept in the superseded tables"); err != nil {
		return err
	}
	for n := 0; ; n++ {
		// A cell rebuilt while counted (its binary gone, or another
		// machine's) is counted again whole on the rebuild when that is
		// other code.
		lines := c.data.RedoMixedCode(selected)
		if o.RedoDiffering {
			lines = append(lines, c.data.RedoDiffering(selected)...)
		}
		if err := c.countAgain(lines); err != nil {
			return err
		}
		redone := len(lines)
		if n > 0 && redone == 0 {
			// Nothing differed: what is still pending (a failed build, a
			// failed server) waits for the next collector count.
			fmt.Fprintf(o.Log, "done\n")
			return nil
		}
		tasks := identifyFirst(PendingCounts(o.Config.InCollectionOrder(o.Cells), cc.Modes, cc.Repeats, c.data, o.RetryFailed), c.data)
		if n == 0 {
			fmt.Fprintf(o.Log, "%d cells, %d counting runs to do (counts are one dataset for every machine)\n", len(o.Cells), len(tasks))
		} else {
			fmt.Fprintf(o.Log, "pass %d: %d counting runs to do\n", n+1, len(tasks))
		}
		if len(tasks) == 0 {
			return nil
		}
		if err := pass(tasks); err != nil {
			return err
		}
		if !o.RedoDiffering || n == redoPasses {
			fmt.Fprintf(o.Log, "done\n")
			return nil
		}
	}
}

// redoStaleSources moves to the superseded tables the counting runs of the
// selected cells' builds whose source is not what their version resolves to
// now (source.Cache.Stale: e.g. a git tag the matrix overrides since, or a
// version refused now): collector count then rebuilds those cells from the
// release's source, or records the refusal, and counts them again. They
// leave the dataset at once (their counts are another source's), not when
// their recount replaces them. It returns one line per cell.
func (c *collector) redoStaleSources(selected map[string]bool) ([]string, error) {
	reasons := map[string]string{}
	for _, b := range c.data.Builds {
		if b.Status != "ok" || !selected[b.CellID] {
			continue
		}
		stale, err := c.Sources.Stale(context.Background(), b.Version, sourceOf(b))
		if err != nil {
			return nil, err
		}
		if stale {
			reasons[b.BuildID] = fmt.Sprintf("%s%s, not the source %s resolves to now", store.RedoneStaleSource, describeSource(b), b.Version)
		}
	}
	return c.data.SupersedeBuilds(reasons), nil
}

// redoMakefileLTO moves to the superseded tables the counting runs of the
// cells' builds given OPTIMIZATION=-O3 without an empty REDIS_CFLAGS by a
// release whose Makefile then adds -flto to the compile
// (build.MakefileAddsLTO, 7.2): they counted -O3 -flto, another
// configuration, so they leave the dataset at once, and ensureBuild builds
// the cell again instead of taking such a build's binary. It returns one
// line per cell.
func (c *collector) redoMakefileLTO(cells []config.Cell) ([]string, error) {
	stock := map[string]bool{}
	for _, cell := range cells {
		stock[cell.ID()] = cell.FlagSet.Stock
	}
	reasons := map[string]string{}
	adds := map[string]bool{} // version -> its Makefile adds -flto to -O3
	for _, b := range c.data.Builds {
		st, selected := stock[b.CellID]
		if !selected || st || b.Status != "ok" || b.CFlags != "-O3" || strings.Contains(b.MakeArgs, "REDIS_CFLAGS=") || c.Sources == nil {
			continue
		}
		a, seen := adds[b.Version]
		if !seen {
			tree, err := c.Sources.Get(context.Background(), b.Version)
			if _, refused := source.IsRefusal(err); err != nil && !refused {
				return nil, err
			}
			a = err == nil && build.MakefileAddsLTO(tree.Dir, b.CFlags)
			adds[b.Version] = a
		}
		if a {
			reasons[b.BuildID] = fmt.Sprintf("%s%s, given OPTIMIZATION=-O3 without an empty REDIS_CFLAGS: the release's Makefile added -flto, so it was -O3 -flto", store.RedoneMakefileLTO, b.BuildID)
			c.addedLTO[b.BuildID] = true
		}
	}
	return c.data.SupersedeBuilds(reasons), nil
}

// describeSource names a build's source in a line.
func describeSource(b store.Build) string {
	if b.SourceCommit != "" && b.SourceCommit != b.SourceRef {
		return fmt.Sprintf("%s %s (commit %.12s)", b.SourceKind, b.SourceRef, b.SourceCommit)
	}
	if b.SourceCommit != "" {
		return fmt.Sprintf("%s commit %.12s", b.SourceKind, b.SourceCommit)
	}
	return fmt.Sprintf("%s %s (sha256 %.12s)", b.SourceKind, b.SourceRef, b.SourceSHA256)
}

// countAgain logs the lines of what was marked to be counted again and, when
// there are any, saves the data.
func (c *collector) countAgain(lines []string) error {
	return c.countAgainAfter(lines, "its runs count until their recounts replace them, then are kept in the superseded tables")
}

// countAgainAfter is countAgain with what became of the runs, note.
func (c *collector) countAgainAfter(lines []string, note string) error {
	for _, line := range lines {
		fmt.Fprintf(c.Log, "counting again %s (%s)\n", line, note)
	}
	if len(lines) == 0 {
		return nil
	}
	return c.data.Save(c.DataDir)
}

// recordOldCodeHashes fills in builds.code_sha256 of the ok builds recorded
// without it whose binary is still at hand: the cell's binary in this work
// directory, which its build-id file names as that build's. It returns how
// many builds it filled in.
func (c *collector) recordOldCodeHashes() int {
	n := 0
	for i := range c.data.Builds {
		b := &c.data.Builds[i]
		if b.Status != "ok" || b.CodeSHA256 != nil {
			continue
		}
		dir := build.CellDir(c.WorkDir, b.CellID)
		if id, err := os.ReadFile(filepath.Join(dir, "build-id")); err != nil || string(id) != b.BuildID {
			continue
		}
		code, err := build.CodeSHA256(filepath.Join(dir, "redis-server"))
		if err != nil {
			continue
		}
		b.CodeSHA256 = &code
		n++
	}
	return n
}

// recordOldLgVaddr fills in builds.jemalloc_lg_vaddr of the ok builds
// recorded without it on this machine, from the dependency tree (work
// directory deps/<version>-<compiler>) they were built on, when it is still
// the one built before the value was fixed (a marker without
// build.FixedLgVaddr's recipe): such a tree is built once per work
// directory and reused by every later build of its version and compiler.
// It returns how many builds it filled in.
func (c *collector) recordOldLgVaddr() int {
	n := 0
	for i := range c.data.Builds {
		b := &c.data.Builds[i]
		if b.Status != "ok" || b.JemallocLgVaddr != nil || b.DepsGetFlags || b.MachineID != c.machine.ID {
			continue
		}
		dir := filepath.Join(c.WorkDir, "deps", b.Version+"-"+b.Compiler)
		if !build.OldDepsTree(dir) {
			continue
		}
		lg, _ := build.CompiledLgVaddr(dir)
		v := int32(lg)
		b.JemallocLgVaddr = &v
		n++
	}
	return n
}

// prepareCounting builds the client and the preload and probes the guest
// CPU, once per collector count, and returns Valgrind's version.
func (c *collector) prepareCounting(ctx context.Context, o Options) (string, error) {
	cc := o.Config.Count
	if err := c.prepareClient(ctx); err != nil {
		return "", err
	}
	vg := count.ValgrindVersion(ctx, cc.Valgrind)
	var err error
	if c.freezeClock, err = count.BuildFreezeClock(ctx, cc.PreloadCC, filepath.Join(o.WorkDir, "preload")); err != nil {
		return "", err
	}
	if c.preloadLine, err = count.PreloadLine(ctx, cc.PreloadCC, c.freezeClock); err != nil {
		return "", err
	}
	fmt.Fprintf(o.Log, "counting with %s, %d at a time, the server's clock frozen by %s (%s)\n", vg, cc.Parallel, c.freezeClock, c.preloadLine)
	probe := count.Spec{Valgrind: lookPath(cc.Valgrind), ToolArgs: cc.ToolArgs, Env: countEnv(c.freezeClock, cc.Env), Dir: filepath.Join(o.WorkDir, "guestcpu")}
	if c.guestCPU, err = count.ProbeGuestCPU(ctx, cc.PreloadCC, probe); err != nil {
		return "", err
	}
	fmt.Fprintf(o.Log, "guest CPU under valgrind %s: %s\n", count.ShortHash(c.guestCPU), count.GuestCPUSummary(c.guestCPU))
	if err := c.checkSetup(ctx, vg); err != nil {
		return "", err
	}
	return vg, nil
}

// checkSetup refuses to count (unless NewDataset) when this machine's
// Valgrind, guest CPU or compilers are not the reference dataset's
// (SetupConflict): its counts could not be compared with the dataset's.
func (c *collector) checkSetup(ctx context.Context, vg string) error {
	ref := c.Reference
	if ref == nil {
		c.dataMu.Lock()
		defer c.dataMu.Unlock()
		ref = c.data
	}
	here := &store.Data{}
	for _, cc := range c.Config.Compilers {
		id := "setup|" + cc.Name
		here.CountRuns = append(here.CountRuns, store.CountRun{RunID: id, BuildID: id, ValgrindVersion: vg, GuestCPU: nonEmpty(c.guestCPU)})
		here.Builds = append(here.Builds, store.Build{BuildID: id, Compiler: cc.Name, Status: "ok", CCVersion: build.CCVersion(ctx, cc.CC)})
	}
	err := SetupConflict(ref, here)
	if err != nil && c.NewDataset {
		fmt.Fprintf(c.Log, "counting anyway (-new-dataset): %v\n", err)
		return nil
	}
	if err != nil {
		return fmt.Errorf("%w; count into a new dataset with -new-dataset", err)
	}
	return nil
}

// countTasks counts tasks, a pass: each cell built while the one before it
// is counted.
func (c *collector) countTasks(ctx context.Context, o Options, tasks []Task, vg string) error {
	if o.Progress != nil {
		o.Progress.Start(len(tasks))
		defer o.Progress.Finish()
	}
	cells := byCell(tasks)
	// The next cell is built while this one is counted (a count does not
	// depend on load, and a build leaves a core idle for much of its time,
	// as in the serial link of -flto), and its runs take each slot as it
	// frees, without waiting for the rest of this cell's.
	bctx, stopBuild := context.WithCancel(ctx)
	next := c.prepareCount(bctx, cells[0].cell)
	defer func() {
		stopBuild() // a build under way stops (unrecorded: a stop is not a failure)
		if next != nil {
			<-next
		}
	}()
	pool := c.newRunPool(ctx, vg)
	var stop error // a cell that could not be prepared ends the collection
	for i, group := range cells {
		p := <-next
		next = nil
		if ctx.Err() != nil || pool.err() != nil {
			break
		}
		if i+1 < len(cells) {
			next = c.prepareCount(bctx, cells[i+1].cell)
		}
		cell := group.cell
		if errors.Is(p.err, errBuildFailed) {
			pool.skip(len(group.tasks), fmt.Sprintf("%s: build failed, nothing to count: %s", cell.ID(), p.summary))
			continue
		}
		if p.err != nil {
			stop = fmt.Errorf("%s: %w", cell.ID(), p.err)
			break
		}
		if p.summary != "" {
			c.step(cell.ID() + ": " + p.summary)
		}
		for _, t := range group.tasks {
			if !t.Identify {
				pool.waitIdentify(cell.ID())
				if !c.stillPending(t) {
					pool.skip(1, fmt.Sprintf("%s count %s #%d: not counted again, its build identified by its counts", cell.ID(), t.Mode.Name, t.Repeat))
					continue
				}
			}
			if !pool.start(t, p.buildID, p.bin) {
				break
			}
		}
	}
	if err := pool.wait(); err != nil {
		return err
	}
	return stop
}

// cellTasks are one cell's counting runs.
type cellTasks struct {
	cell  config.Cell
	tasks []Task
}

// byCell groups tasks, in their order, by cell.
func byCell(tasks []Task) []cellTasks {
	var out []cellTasks
	for _, t := range tasks {
		if k := len(out) - 1; k >= 0 && out[k].cell.ID() == t.Cell.ID() {
			out[k].tasks = append(out[k].tasks, t)
			continue
		}
		out = append(out, cellTasks{cell: t.Cell, tasks: []Task{t}})
	}
	return out
}

// prepared is a cell's binary ready to count, or why there is none.
type prepared struct {
	buildID, bin, summary string
	err                   error
}

// prepareCount builds cell if its binary is not at hand and strips the
// binary's debug information (callgrind need not read it), in the background:
// the result arrives on the channel.
func (c *collector) prepareCount(ctx context.Context, cell config.Cell) chan prepared {
	out := make(chan prepared, 1)
	go func() {
		id, bin, summary, err := c.ensureBuild(ctx, cell)
		if err == nil {
			bin, err = count.WithoutDebugInfo(ctx, bin)
		}
		out <- prepared{buildID: id, bin: bin, summary: summary, err: err}
	}()
	return out
}

// countEnv is what a counted server (and the guest CPU probe) gets added to
// its environment: the clock-freezing preload, then the config's variables.
func countEnv(freezeClock string, env []string) []string {
	return append([]string{"LD_PRELOAD=" + freezeClock}, env...)
}

func lookPath(bin string) string {
	if p, err := exec.LookPath(bin); err == nil {
		return p
	}
	return bin
}

// runPool runs counting runs, Count.Parallel at a time, each server on its
// own CPU (the slot), and saves the tables a run adds to after each (open
// saved the whole dataset first). The first error stops it taking runs.
type runPool struct {
	c    *collector
	ctx  context.Context
	vg   string
	sem  chan int
	wg   sync.WaitGroup
	mu   sync.Mutex
	n    int // runs done or skipped, for the log
	fail error
	// identifying holds, per cell, a channel closed when the cell's
	// identifying run (Task.Identify) is stored.
	identifying map[string]chan struct{}
}

func (c *collector) newRunPool(ctx context.Context, vg string) *runPool {
	p := &runPool{c: c, ctx: ctx, vg: vg, sem: make(chan int, c.Config.Count.Parallel), identifying: map[string]chan struct{}{}}
	for i := 0; i < c.Config.Count.Parallel; i++ {
		p.sem <- i
	}
	return p
}

// err is the first run's error, if any.
func (p *runPool) err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fail
}

// skip logs line for k runs that will not run.
func (p *runPool) skip(k int, line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n += k
	p.c.step(fmt.Sprintf("[%d] %s", p.n, line))
}

// start waits for a free slot and counts t there in the background; it
// returns false, starting nothing, once a run failed or the context ended.
func (p *runPool) start(t Task, buildID, bin string) bool {
	slot := <-p.sem
	if p.err() != nil || p.ctx.Err() != nil {
		p.sem <- slot
		return false
	}
	var identified chan struct{}
	if t.Identify {
		identified = make(chan struct{})
		p.mu.Lock()
		p.identifying[t.Cell.ID()] = identified
		p.mu.Unlock()
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer func() { p.sem <- slot }()
		if identified != nil {
			defer close(identified)
		}
		run, rows, err := p.c.countRun(p.ctx, t, buildID, bin, p.vg, slot)
		p.mu.Lock()
		defer p.mu.Unlock()
		if err != nil {
			if p.fail == nil {
				p.fail = fmt.Errorf("%s count %s #%d: %w", t.Cell.ID(), t.Mode.Name, t.Repeat, err)
			}
			return
		}
		p.c.dataMu.Lock()
		var found []store.Identification
		if p.c.data.AddCountRun(run, rows) {
			if t.Identify {
				found = p.c.data.IdentifyByCounts(run)
			}
			err = p.c.data.Save(p.c.DataDir) // the superseded tables too
		} else {
			err = p.c.data.SaveBuildsAndCounts(p.c.DataDir)
		}
		p.c.dataMu.Unlock()
		for _, f := range found {
			if f.Differs == "" {
				p.c.step(fmt.Sprintf("%s: build %s identified by its counts (%s #%d counted the same): its other runs stay", t.Cell.ID(), f.Build, t.Mode.Name, t.Repeat))
			} else {
				p.c.step(fmt.Sprintf("%s: build %s is other code than %s (%s): its runs are counted again", t.Cell.ID(), f.Build, buildID, f.Differs))
			}
		}
		if err != nil && p.fail == nil {
			p.fail = err
		}
		p.n++
		p.c.step(fmt.Sprintf("[%d] %s count %s #%d: %s", p.n, t.Cell.ID(), t.Mode.Name, t.Repeat, countLine(run, rows)))
		if p.c.RedoDiffering && !p.c.KeepDumps {
			p.c.dataMu.Lock()
			if kept := p.c.dropAgreedDumps(t.Cell.ID(), t.Mode.Name); kept != "" {
				p.c.step(kept)
			}
			p.c.dataMu.Unlock()
		}
	}()
	return true
}

// waitIdentify waits until cell's identifying run, if one was started, is
// stored.
func (p *runPool) waitIdentify(cell string) {
	p.mu.Lock()
	ch := p.identifying[cell]
	p.mu.Unlock()
	if ch != nil {
		<-ch
	}
}

// stillPending says whether t's run is still to be counted: an
// identification since the pass was planned may have unmarked the run it
// was to replace.
func (c *collector) stillPending(t Task) bool {
	c.dataMu.Lock()
	defer c.dataMu.Unlock()
	key := store.RunKey(t.Cell.ID(), t.Mode.Name, t.Repeat)
	for _, r := range c.data.CountRuns {
		if store.RunKey(r.CellID, r.Mode, int(r.Repeat)) == key && countedRun(r, c.RetryFailed) {
			return false
		}
	}
	return true
}

// identifyFirst orders a pass so that a cell whose runs are marked to be
// counted again because their build was recorded without a code hash
// (store.Data.RedoUnhashed) counts one of them first, a data run where it
// can (the shorter mode), marked Identify: when its counts equal the old
// build's (store.Data.IdentifyByCounts) the old runs stay and the cell's
// other marked runs are not counted again. Those runs follow the next
// cell's, so that the identifying run is under way, or stored, by then.
func identifyFirst(tasks []Task, d *store.Data) []Task {
	unhashed := map[string]bool{}
	for _, r := range d.CountRuns {
		if store.UnhashedBuild(r) != "" {
			unhashed[store.RunKey(r.CellID, r.Mode, int(r.Repeat))] = true
		}
	}
	if len(unhashed) == 0 {
		return tasks
	}
	var out, carry []Task
	for _, g := range byCell(tasks) {
		first := -1
		for i, t := range g.tasks {
			if unhashed[store.RunKey(t.Cell.ID(), t.Mode.Name, t.Repeat)] && (first < 0 || (t.Mode.Name == "data" && g.tasks[first].Mode.Name != "data")) {
				first = i
			}
		}
		var rest, later []Task
		for i, t := range g.tasks {
			switch {
			case i == first:
				t.Identify = true
				out = append(out, t)
			case first >= 0 && unhashed[store.RunKey(t.Cell.ID(), t.Mode.Name, t.Repeat)]:
				later = append(later, t)
			default:
				rest = append(rest, t)
			}
		}
		out = append(append(out, rest...), carry...)
		carry = later
	}
	return append(out, carry...)
}

// wait waits for the runs under way and returns the first error, or the
// context's.
func (p *runPool) wait() error {
	p.wg.Wait()
	if err := p.err(); err != nil {
		return err
	}
	return p.ctx.Err()
}

// countRun counts one (cell, mode, repeat) and returns its rows.
func (c *collector) countRun(ctx context.Context, t Task, buildID, bin, vg string, slot int) (store.CountRun, []store.Count, error) {
	cc := c.Config.Count
	dir := build.CellDir(c.WorkDir, t.Cell.ID())
	spec := count.Spec{
		Valgrind: lookPath(cc.Valgrind), ToolArgs: cc.ToolArgs, Server: bin, Client: c.client,
		ClientArgs: t.Mode.Args, Settings: cc.Settings, Warmup: cc.Warmup,
		Env: countEnv(c.freezeClock, append(append([]string(nil), cc.Env...), t.Mode.Env...)), Preload: c.preloadLine,
		Dir:       filepath.Join(dir, fmt.Sprintf("count-%s-%d", t.Mode.Name, t.Repeat)),
		ServerCPU: -1, ClientCPU: -1, StartTimeout: cc.StartTimeout.Duration, TestTimeout: cc.TestTimeout.Duration,
	}
	start := time.Now()
	stamp := start.UTC().Format("20060102T150405.000")
	switch {
	case c.KeepDumps:
		spec.KeepDumps = filepath.Join(spec.Dir, "dumps")
	case c.RedoDiffering:
		// Kept until the run's repeats are known to agree (dropAgreedDumps):
		// the dumps of a disturbed pair stay, to be compared.
		spec.KeepDumps = pairDumpsDir(c.WorkDir, t.Cell.ID(), t.Mode.Name, t.Repeat, stamp)
	}
	if runtime.NumCPU() >= 2 {
		spec.ServerCPU = slot % runtime.NumCPU()
	}
	out, err := count.Run(ctx, spec, count.Tests(count.DataSize(t.Mode.Args)))
	if err != nil {
		return store.CountRun{}, nil, err
	}
	end := time.Now()
	runID := fmt.Sprintf("%s|count-%s|%d|%s", t.Cell.ID(), t.Mode.Name, t.Repeat, stamp)
	status := "ok"
	for _, r := range out.Results {
		if r.Status != "ok" && r.Status != "unsupported" {
			status = "partial"
		}
	}
	if out.ServerFailed != "" {
		status = "server_failed"
	}
	run := store.CountRun{
		RunID: runID, CellID: t.Cell.ID(), Version: t.Cell.Version, Compiler: t.Cell.Compiler.Name,
		FlagSet: t.Cell.FlagSet.Name, BuildID: buildID, Mode: t.Mode.Name, Repeat: int32(t.Repeat),
		Status: status, ValgrindVersion: vg, Command: strings.Join(spec.Command(), " "),
		Env: strings.Join(spec.Env, " "), Settings: strings.Join(cc.Settings, "; "),
		ClientVersion: c.clientVer, ClientArgs: strings.Join(t.Mode.Args, " "), RawOutput: out.Raw,
		DurationSeconds: end.Sub(start).Seconds(), StartedAt: start.UTC(), FinishedAt: end.UTC(),
		MachineID: c.machine.ID, GuestCPU: nonEmpty(c.guestCPU), Protocol: store.CountProtocol,
	}
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("count-%s-%d.txt", t.Mode.Name, t.Repeat)), []byte(out.Raw), 0o644); err != nil {
		return run, nil, err
	}
	return run, countRows(run, out.Results), nil
}

// countRows are the table rows of a counting run's tests.
func countRows(run store.CountRun, results []count.Result) []store.Count {
	var rows []store.Count
	for _, r := range results {
		row := store.Count{
			RunID: run.RunID, BuildID: run.BuildID, CellID: run.CellID, Version: run.Version,
			Compiler: run.Compiler, FlagSet: run.FlagSet, Mode: run.Mode, Repeat: run.Repeat,
			Test: r.Test, TestIndex: int32(r.Index), Status: r.Status,
		}
		if r.Error != "" {
			e := r.Error
			row.Error = &e
		}
		if r.Status == "ok" {
			f := count.PerRequest(r.Counts, r.Requests)
			row.Requests = i64(r.Requests)
			row.InstructionsPerRequest, row.L1MissesPerRequest, row.LLMissesPerRequest = &f.Instructions, &f.L1Misses, &f.LLMisses
			row.BranchMissesPerRequest, row.EstCyclesPerRequest = &f.BranchMisses, &f.EstimatedCycles
			e := r.Counts
			row.Ir, row.Dr, row.Dw = i64(e["Ir"]), i64(e["Dr"]), i64(e["Dw"])
			row.I1mr, row.D1mr, row.D1mw = i64(e["I1mr"]), i64(e["D1mr"]), i64(e["D1mw"])
			row.ILmr, row.DLmr, row.DLmw = i64(e["ILmr"]), i64(e["DLmr"]), i64(e["DLmw"])
			row.Bc, row.Bcm, row.Bi, row.Bim = i64(e["Bc"]), i64(e["Bcm"]), i64(e["Bi"]), i64(e["Bim"])
		}
		rows = append(rows, row)
	}
	return rows
}

func i64(v int64) *int64 { return &v }

// countLine is a counting run's one-line summary.
func countLine(run store.CountRun, rows []store.Count) string {
	ok, unsupported := 0, 0
	var set string
	for _, r := range rows {
		switch r.Status {
		case "ok":
			ok++
			if r.Test == "SET" {
				set = fmt.Sprintf(", SET %.0f instructions/request", *r.InstructionsPerRequest)
			}
		case "unsupported":
			unsupported++
		}
	}
	return fmt.Sprintf("%s, %d/%d tests counted (%d unsupported)%s, %.0fs", run.Status, ok, len(rows), unsupported, set, run.DurationSeconds)
}

// pairDumpsDir is where, with RedoDiffering, a counting run's callgrind dumps
// wait until its repeats are known to agree: cells/<cell>/dumps/<mode>-<repeat>-<start>,
// the start as in the run's ID.
func pairDumpsDir(workDir, cell, mode string, repeat int, stamp string) string {
	return filepath.Join(build.CellDir(workDir, cell), "dumps", fmt.Sprintf("%s-%d-%s", mode, repeat, stamp))
}

// dropAgreedDumps removes the kept dumps of cell's runs in mode whose build
// has all its repeats counted, agreeing in every test; where they differ (a
// disturbed run, counted again by RedoDiffering) the dumps stay, and it
// returns a line that says where.
func (c *collector) dropAgreedDumps(cell, mode string) string {
	runs := map[string][]store.CountRun{} // by build
	for _, r := range c.data.CountRuns {
		if r.CellID == cell && r.Mode == mode && r.Status == "ok" {
			runs[r.BuildID] = append(runs[r.BuildID], r)
		}
	}
	// Spans of this (cell, mode) alone: this runs after every counting run.
	mine := &store.Data{}
	for _, k := range c.data.Counts {
		if k.CellID == cell && k.Mode == mode {
			mine.Counts = append(mine.Counts, k)
		}
	}
	differ := map[string]string{} // build -> a test whose repeats differ
	for k, sp := range mine.RepeatSpans(func(k store.Count) *float64 { return k.InstructionsPerRequest }) {
		if sp.Spread() > 0 {
			differ[k.Build] = k.Test
		}
	}
	var line string
	for b, rs := range runs {
		if len(rs) < c.Config.Count.Repeats {
			continue
		}
		if test, ok := differ[b]; ok {
			line = fmt.Sprintf("%s %s: repeats differ in %s; their callgrind dumps are kept in %s", cell, mode, test, filepath.Dir(c.runDumps(rs[0])))
			continue
		}
		for _, r := range rs {
			os.RemoveAll(c.runDumps(r))
		}
	}
	return line
}

// runDumps is run r's pairDumpsDir.
func (c *collector) runDumps(r store.CountRun) string {
	return pairDumpsDir(c.WorkDir, r.CellID, r.Mode, int(r.Repeat), r.RunID[strings.LastIndexByte(r.RunID, '|')+1:])
}
