package runner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/bench"
	"github.com/redis-compiler-benchmarks/collector/internal/build"
	"github.com/redis-compiler-benchmarks/collector/internal/machine"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// do performs one task: builds the cell if its binary is not at hand, runs the
// benchmark, and saves. It returns a one-line summary.
func (c *collector) do(ctx context.Context, t Task) (string, error) {
	buildID, bin, summary, err := c.ensureBuild(ctx, t.Cell)
	if err != nil {
		return summary, err
	}
	spec := c.benchSpec(t, bin)
	var tests []bench.TestRun
	var calibration error
	if t.Round != nil {
		var note string
		tests, note, calibration = c.precisionTests(ctx, t, buildID, bin)
		if calibration != nil && !errors.Is(calibration, errCalibration) {
			return summary, calibration
		}
		summary = withNote(summary, note)
	}
	os.RemoveAll(spec.Dir)
	var m measurement
	if calibration != nil {
		// Nothing to run with: the run is recorded as failed, and redone with -retry-failed.
		now := time.Now()
		m = measurement{out: bench.Outcome{ServerFailed: calibration.Error()}, start: now, end: now, bookkeeping: now}
	} else {
		summary = withNote(summary, c.settle(ctx))
		if m, err = measure(ctx, spec, tests, t.Mode.TestsPerServer, t.Mode.MinTime.Duration); err != nil {
			return summary, err
		}
	}
	run := c.runRow(t, buildID, spec, m)
	rows := resultRows(run, m.out.Results)
	c.data.Results = append(c.data.Results, rows...)
	if err := os.WriteFile(evidencePath(c.WorkDir, t), []byte(m.out.Raw), 0o644); err != nil {
		return summary, err
	}
	// The save is timed by the previous save's duration: the row must be
	// complete before it is written, and saves take about as long each time.
	run.OverheadSeconds = (time.Since(m.bookkeeping) + m.probeBefore + c.lastSave + c.buildOverhead).Seconds()
	c.buildOverhead = 0
	if t.Redo != "" {
		// Keep the run this one replaces, with why, in the redone tables.
		c.data.Retire(t.Cell.ID(), t.Mode.Name, t.Repeat, t.Redo, run.RunID)
		summary = withNote(summary, "redo ("+t.Redo+")")
	}
	c.data.Runs = append(c.data.Runs, run)
	if err := c.saveTimed(); err != nil {
		return summary, err
	}
	over := time.Since(m.bookkeeping) + m.probeBefore
	c.overhead += over
	return withNote(summary, runLine(run, m, over)), nil
}

// benchSpec is how task t's server binary bin is benchmarked: server and
// client pinned to CPUs 0 and 1 where there are two.
func (c *collector) benchSpec(t Task, bin string) bench.Spec {
	spec := bench.Spec{
		Server: bin, Client: c.client, Args: t.Mode.Args,
		Dir:       filepath.Join(build.CellDir(c.WorkDir, t.Cell.ID()), "run"),
		ServerCPU: -1, ClientCPU: -1,
		StartTimeout: c.Config.Bench.StartTimeout.Duration, RunTimeout: c.Config.Bench.RunTimeout.Duration,
	}
	if runtime.NumCPU() >= 2 {
		spec.ServerCPU, spec.ClientCPU = 0, 1
	}
	return spec
}

// settle readies the machine for a measurement: it writes back what a build
// left dirty now, not during the measurement, and waits for other processes
// to go quiet. It says what it did worth a note ("" when nothing was).
func (c *collector) settle(ctx context.Context) string {
	note := ""
	if dirty, took := machine.FlushWrites(); dirty >= 1<<20 {
		note = fmt.Sprintf("flushed %d MB of pending writes in %.1fs", dirty>>20, took.Seconds())
	}
	if waited := c.waitQuiet(ctx); waited != "" {
		note = withNote(note, waited)
	}
	return note
}

// measurement is one benchmark run and what the machine did around it.
type measurement struct {
	out        bench.Outcome
	start, end time.Time
	// load0 and load1 are the 1-minute load average before and after.
	load0, load1 float64
	// other is runs.other_cpu: "others:N" then the busiest other processes.
	other string
	// steal is the CPU time the VM's host took, percent of one CPU.
	steal float64
	// memBefore and memAfter are the memory write probes, bytes/s (see
	// store.Run.MemWriteBefore).
	memBefore, memAfter float64
	// probeBefore is how long the probe before the run took, and bookkeeping
	// when the collector's own work after the run began: both are overhead.
	probeBefore time.Duration
	bookkeeping time.Time
	// minTime is a precision mode's min_time (0 in a reference mode).
	minTime time.Duration
}

// measure runs the benchmark of spec between the host probes and reads how
// busy the machine and its host were meanwhile: every default test in one
// client invocation, or, given tests (a precision mode), each test on its own
// with its request count, perServer tests or more to a fresh server
// (bench.Groups; 0: all on one), and those that lasted less than minTime
// once more with a longer count (bench.RunPrecision).
func measure(ctx context.Context, spec bench.Spec, tests []bench.TestRun, perServer int, minTime time.Duration) (measurement, error) {
	m := measurement{minTime: minTime}
	probeStart := time.Now()
	m.memBefore = machine.MemWriteProbe()
	m.probeBefore = time.Since(probeStart)
	m.load0 = machine.Load1()
	snap0 := machine.SnapshotCPU()
	busy0, steal0 := machine.CPUTicks()
	m.start = time.Now()
	run := bench.Run
	if tests != nil {
		run = func(ctx context.Context, spec bench.Spec) (bench.Outcome, error) {
			return bench.RunPrecision(ctx, spec, tests, perServer, minTime)
		}
	}
	out, err := run(ctx, spec)
	if err != nil {
		return m, err
	}
	m.out, m.end = out, time.Now()
	took := m.end.Sub(m.start)
	_, steal1 := machine.CPUTicks()
	m.steal = machine.BusyPercent(steal1-steal0, took)
	m.bookkeeping = time.Now()
	m.memAfter = machine.MemWriteProbe()
	snap1 := machine.SnapshotCPU()
	other := machine.OtherCPU(snap0, snap1, []string{"redis-server", "redis-benchmark", "taskset"})
	// Everything busy but our server, our client and the kernel's workers
	// (ksoftirqd carries the benchmark's own loopback traffic).
	others := machine.BusyPercent(machine.BusyTicks()-busy0-machine.KernelTicks(snap0, snap1), took) -
		100*out.CPUSeconds/took.Seconds()
	m.other = strings.TrimSuffix(fmt.Sprintf("others:%.0f,%s", math.Max(others, 0), other), ",")
	m.load1 = machine.Load1()
	return m, nil
}

// runStatus is a run's status from its outcome: ok, partial (some test not
// ok) or server_failed.
func runStatus(out bench.Outcome) string {
	if out.ServerFailed != "" {
		return "server_failed"
	}
	for _, r := range out.Results {
		if r.Status != "ok" {
			return "partial"
		}
	}
	return "ok"
}

// runRow is the runs row of task t, measured as m on build buildID.
func (c *collector) runRow(t Task, buildID string, spec bench.Spec, m measurement) store.Run {
	runID := fmt.Sprintf("%s|%s|%d|%s", t.Cell.ID(), t.Mode.Name, t.Repeat, m.start.UTC().Format("20060102T150405.000"))
	return store.Run{
		RunID: runID, CellID: t.Cell.ID(), Version: t.Cell.Version, Compiler: t.Cell.Compiler.Name,
		FlagSet: t.Cell.FlagSet.Name, BuildID: buildID, Mode: t.Mode.Name, Repeat: int32(t.Repeat),
		Status: runStatus(m.out), ClientVersion: c.clientVer, ClientArgs: strings.Join(t.Mode.Args, " "),
		ServerCPU: int32(spec.ServerCPU), ClientCPU: int32(spec.ClientCPU),
		Load1Before: m.load0, Load1After: m.load1, OtherCPU: m.other, RawOutput: m.out.Raw,
		DurationSeconds: m.end.Sub(m.start).Seconds(), StartedAt: m.start.UTC(), FinishedAt: m.end.UTC(),
		MachineID: c.machine.ID, MemWriteBefore: &m.memBefore, MemWriteAfter: &m.memAfter,
		StealPct: &m.steal, RoundSeed: roundSeed(t.Round), RoundPosition: roundPosition(t.Round),
	}
}

// roundSeed and roundPosition are a run's round columns (null outside a round).
func roundSeed(r *Round) *int64 {
	if r == nil {
		return nil
	}
	return &r.Seed
}

func roundPosition(r *Round) *int32 {
	if r == nil {
		return nil
	}
	p := int32(r.Position)
	return &p
}

// resultRows are the results rows of run, one per test.
func resultRows(run store.Run, tests []bench.Result) []store.Result {
	rows := make([]store.Result, 0, len(tests))
	for _, r := range tests {
		res := store.Result{
			RunID: run.RunID, BuildID: run.BuildID, CellID: run.CellID, Version: run.Version,
			Compiler: run.Compiler, FlagSet: run.FlagSet, Mode: run.Mode,
			Repeat: run.Repeat, Test: r.Test, TestIndex: int32(r.Index), Status: r.Status,
		}
		if r.Row != nil {
			rps := r.Row.RPS
			res.RPS, res.AvgMS, res.MinMS, res.P50MS, res.P95MS, res.P99MS, res.MaxMS =
				&rps, r.Row.Avg, r.Row.Min, r.Row.P50, r.Row.P95, r.Row.P99, r.Row.Max
		}
		if r.Error != "" {
			e := r.Error
			res.Error = &e
		}
		if r.Requests > 0 {
			n := r.Requests
			res.Requests = &n
		}
		if c := r.CPU; c != nil {
			res.ServerUserS, res.ServerSysS, res.ServerBusy = &c.Server.User, &c.Server.Sys, &c.Server.Busy
			res.ClientUserS, res.ClientSysS, res.ClientBusy = &c.Client.User, &c.Client.Sys, &c.Client.Busy
		}
		rows = append(rows, res)
	}
	return rows
}

// evidencePath is where task t's raw client output is kept in the work
// directory, next to the cell's build log.
func evidencePath(workDir string, t Task) string {
	return filepath.Join(build.CellDir(workDir, t.Cell.ID()), fmt.Sprintf("%s-%d.txt", t.Mode.Name, t.Repeat))
}

// saveTimed saves the tables and records how long it took (charged to the
// next run's overhead).
func (c *collector) saveTimed() error {
	t := time.Now()
	if err := c.data.Save(c.DataDir); err != nil {
		return err
	}
	c.lastSave = time.Since(t)
	return nil
}

// runLine is the log line of run, measured as m, with the collector's own
// time around it (over).
func runLine(run store.Run, m measurement, over time.Duration) string {
	ok := 0
	for _, r := range m.out.Results {
		if r.Status == "ok" {
			ok++
		}
	}
	line := fmt.Sprintf("%s, %d/%d tests ok, bench %.1fs, load %.2f", run.Status, ok, len(m.out.Results), run.DurationSeconds, run.Load1After)
	if m.other != "" {
		line += ", other CPU: " + m.other
	}
	if m.out.ServerFailed != "" {
		line += ", server: " + m.out.ServerFailed
	}
	line += againText(m.out.Remeasured, m.out.AgainFailed, m.minTime)
	line += fmt.Sprintf(", host steal %.1f%%, memory write %.1f/%.1f GB/s", m.steal, m.memBefore/1e9, m.memAfter/1e9)
	line += fmt.Sprintf(", overhead %.3fs (%.2f%%)", over.Seconds(), 100*over.Seconds()/time.Since(m.start).Seconds())
	return line
}

// withNote appends note to a run's log summary, "; "-separated.
func withNote(summary, note string) string {
	if note == "" {
		return summary
	}
	if summary == "" {
		return note
	}
	return summary + "; " + note
}
