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
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// PendingCounts are the counting runs of cells not yet in d: counts do not
// depend on the machine, so a (cell, mode, repeat) counted anywhere is done.
// With retryFailed, runs whose server failed are counted again. Cells whose
// latest build failed have nothing to count.
func PendingCounts(cells []config.Cell, modes []config.Mode, repeats int, d *store.Data, retryFailed bool) []Task {
	done := map[string]bool{}
	for _, r := range d.CountRuns {
		if retryFailed && r.Status == "server_failed" {
			continue
		}
		done[store.RunKey(r.CellID, r.Mode, int(r.Repeat))] = true
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

// Count collects every missing counting run of o.Cells (o.Config.Count), in
// collection order (config.CollectionOrder): it builds each cell whose binary
// is not at hand, then counts the cell's runs, Count.Parallel at a time,
// saving after each run.
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
	tasks := PendingCounts(o.Config.InCollectionOrder(o.Cells), cc.Modes, cc.Repeats, c.data, o.RetryFailed)
	fmt.Fprintf(o.Log, "%d cells, %d counting runs to do (counts are one dataset for every machine)\n", len(o.Cells), len(tasks))
	if len(tasks) == 0 {
		return nil
	}
	if err := c.prepareClient(ctx); err != nil {
		return err
	}
	vg := count.ValgrindVersion(ctx, cc.Valgrind)
	if c.freezeClock, err = count.BuildFreezeClock(ctx, o.Config.Compilers[0].CC, filepath.Join(o.WorkDir, "preload")); err != nil {
		return err
	}
	fmt.Fprintf(o.Log, "counting with %s, %d at a time, the server's clock frozen by %s\n", vg, cc.Parallel, c.freezeClock)
	probe := count.Spec{Valgrind: lookPath(cc.Valgrind), ToolArgs: cc.ToolArgs, Env: countEnv(c.freezeClock, cc.Env), Dir: filepath.Join(o.WorkDir, "guestcpu")}
	if c.guestCPU, err = count.ProbeGuestCPU(ctx, o.Config.Compilers[0].CC, probe); err != nil {
		return err
	}
	fmt.Fprintf(o.Log, "guest CPU under valgrind %s: %s\n", count.ShortHash(c.guestCPU), count.GuestCPUSummary(c.guestCPU))
	if o.Progress != nil {
		o.Progress.Start(len(tasks))
		defer o.Progress.Finish()
	}
	n := 0
	for len(tasks) > 0 {
		cell := tasks[0].Cell
		var mine []Task
		for len(tasks) > 0 && tasks[0].Cell.ID() == cell.ID() {
			mine, tasks = append(mine, tasks[0]), tasks[1:]
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		buildID, bin, summary, err := c.ensureBuild(ctx, cell)
		if errors.Is(err, errBuildFailed) {
			n += len(mine)
			c.step(fmt.Sprintf("[%d] %s: build failed, nothing to count: %s", n, cell.ID(), summary))
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", cell.ID(), err)
		}
		if summary != "" {
			c.step(cell.ID() + ": " + summary)
		}
		if bin, err = count.WithoutDebugInfo(ctx, bin); err != nil {
			return fmt.Errorf("%s: %w", cell.ID(), err)
		}
		if err := c.countCell(ctx, mine, buildID, bin, vg, &n); err != nil {
			return err
		}
	}
	fmt.Fprintf(o.Log, "done\n")
	return nil
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

// countCell runs one cell's counting runs, Count.Parallel at a time, each
// server on its own CPU, and saves the tables a run adds to after each (open
// saved the whole dataset first).
func (c *collector) countCell(ctx context.Context, tasks []Task, buildID, bin, vg string, n *int) error {
	var mu sync.Mutex
	var firstErr error
	sem := make(chan int, c.Config.Count.Parallel)
	for i := 0; i < c.Config.Count.Parallel; i++ {
		sem <- i
	}
	var wg sync.WaitGroup
	for _, t := range tasks {
		slot := <-sem
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			sem <- slot
			break
		}
		wg.Add(1)
		go func(t Task, slot int) {
			defer wg.Done()
			defer func() { sem <- slot }()
			run, rows, err := c.countRun(ctx, t, buildID, bin, vg, slot)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = fmt.Errorf("%s count %s #%d: %w", t.Cell.ID(), t.Mode.Name, t.Repeat, err)
				}
				return
			}
			c.data.CountRuns = append(c.data.CountRuns, run)
			c.data.Counts = append(c.data.Counts, rows...)
			if err := c.data.SaveBuildsAndCounts(c.DataDir); err != nil && firstErr == nil {
				firstErr = err
			}
			*n++
			c.step(fmt.Sprintf("[%d] %s count %s #%d: %s", *n, t.Cell.ID(), t.Mode.Name, t.Repeat, countLine(run, rows)))
		}(t, slot)
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// countRun counts one (cell, mode, repeat) and returns its rows.
func (c *collector) countRun(ctx context.Context, t Task, buildID, bin, vg string, slot int) (store.CountRun, []store.Count, error) {
	cc := c.Config.Count
	dir := build.CellDir(c.WorkDir, t.Cell.ID())
	spec := count.Spec{
		Valgrind: lookPath(cc.Valgrind), ToolArgs: cc.ToolArgs, Server: bin, Client: c.client,
		ClientArgs: t.Mode.Args, Settings: cc.Settings, Warmup: cc.Warmup,
		Env:       countEnv(c.freezeClock, append(append([]string(nil), cc.Env...), t.Mode.Env...)),
		Dir:       filepath.Join(dir, fmt.Sprintf("count-%s-%d", t.Mode.Name, t.Repeat)),
		ServerCPU: -1, ClientCPU: -1, StartTimeout: cc.StartTimeout.Duration, TestTimeout: cc.TestTimeout.Duration,
	}
	if c.KeepDumps {
		spec.KeepDumps = filepath.Join(spec.Dir, "dumps")
	}
	if runtime.NumCPU() >= 2 {
		spec.ServerCPU = slot % runtime.NumCPU()
	}
	start := time.Now()
	out, err := count.Run(ctx, spec, count.Tests(count.DataSize(t.Mode.Args)))
	if err != nil {
		return store.CountRun{}, nil, err
	}
	end := time.Now()
	runID := fmt.Sprintf("%s|count-%s|%d|%s", t.Cell.ID(), t.Mode.Name, t.Repeat, start.UTC().Format("20060102T150405.000"))
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
