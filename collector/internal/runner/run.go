package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/bench"
	"github.com/redis-compiler-benchmarks/collector/internal/build"
	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/machine"
	"github.com/redis-compiler-benchmarks/collector/internal/source"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// Options configure one collection.
type Options struct {
	Config      *config.Config
	Cells       []config.Cell // the cells to collect (already sharded/filtered)
	DataDir     string
	WorkDir     string
	Sources     *source.Cache
	RetryFailed bool
	// RedoNoisy, when > 0, redoes runs during which other processes used more
	// than this percent of a CPU.
	RedoNoisy float64
	// RedoSteal, when > 0, redoes runs during which the VM's host took more
	// than this percent of a CPU (runs.steal_pct).
	RedoSteal float64
	// RedoBefore, when set, redoes runs started before it.
	RedoBefore time.Time
	// QuietWait is how long to wait before each run for the other processes'
	// CPU use to fall below QuietPercent (of one CPU); after it the run goes on
	// anyway and records what else was running. 0 disables the wait.
	QuietWait    time.Duration
	QuietPercent float64
	// HardwareClass, when set, is the hardware class this machine joins (an
	// existing class of machines with the same CPU model and cores, after
	// comparing their figures); by default a machine keeps the class it
	// recorded, or a new one gets store.ClassLabel.
	HardwareClass string
	// Log receives one line per event; Progress, when set, is shown instead of
	// per-run lines on a terminal.
	Log      io.Writer
	Progress Progress
	Version  string // collector version
}

// Identify is machine m as d knows it. m.ID hashes hostname, CPU name, cores
// and memory, which VMs made from one image share: on 2026-11-25 a VM with an
// "AMD EPYC" of family 26 model 2 had the ID of a VM recorded in 2026-11-23,
// before collector 0.1.8 recorded CPU ids, that measured at half its memory
// write rate. So where d holds m.ID for a machine whose CPU id differs from
// m's, or was never recorded, m is taken for another machine and gets
// m.IDWithCPU(): it starts in its own class (ChooseClass) and never takes over
// the other machine's runs. It joins their class only with -hardware-class,
// after its figures were compared with theirs.
func Identify(d *store.Data, m machine.Info) machine.Info {
	for _, x := range d.Machines {
		if x.MachineID != m.ID {
			continue
		}
		recorded := "" // no CPU id either way (e.g. ARM): nothing tells them apart
		if x.CPUID != nil {
			recorded = *x.CPUID
		}
		if recorded != m.CPUID {
			m.ID = m.IDWithCPU()
		}
		return m
	}
	return m
}

// ChooseClass is the hardware class machine m measures for. With want empty:
// the class m recorded in d, else, for a machine new to d or described before
// collector 0.1.8, store.ClassLabel of its CPU. With want set: want, if it is
// m's own ClassLabel or HardwareLabel, or a class in d whose machines all have
// m's CPU model and cores (joining it says they measure alike: measure a few
// runs in the machine's own class, then compare with collector stats);
// anything else is an error. A machine's runs follow its class, so joining a
// class moves the runs it measured before.
func ChooseClass(d *store.Data, m machine.Info, want string) (string, error) {
	own := store.ClassLabel(m.CPUModel, m.CPUID, m.Cores)
	recorded := ""
	for _, x := range d.Machines {
		if x.MachineID == m.ID && x.HardwareClass != nil {
			recorded = *x.HardwareClass
		}
	}
	if want == "" {
		if recorded != "" {
			return recorded, nil
		}
		return own, nil
	}
	if want == own || want == store.HardwareLabel(m.CPUModel, m.Cores) {
		return want, nil
	}
	found := false
	for _, x := range d.Machines {
		if x.MachineID == m.ID || x.Hardware() != want {
			continue
		}
		if x.CPUModel != m.CPUModel || int(x.Cores) != m.Cores {
			return "", fmt.Errorf("hardware class %q: its machine %s has %q with %d cores, this one %q with %d; figures of different CPUs are never combined", want, x.MachineID, x.CPUModel, x.Cores, m.CPUModel, m.Cores)
		}
		found = true
	}
	if !found {
		return "", fmt.Errorf("hardware class %q: no machine in the data has it (this machine's own is %q)", want, own)
	}
	return want, nil
}

// machineClass is the class machine id has in d and its number of runs there.
func machineClass(d *store.Data, id string) (class string, runs int) {
	class = d.MachineHardware()[id]
	for _, r := range d.Runs {
		if r.MachineID == id {
			runs++
		}
	}
	return class, runs
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Progress is a progress display (a bar on a terminal).
type Progress interface {
	Start(total int)
	Step(desc string)
	Finish()
}

type collector struct {
	Options
	data      *store.Data
	machine   machine.Info
	client    string
	clientVer string
	binaries  map[string]string // cell id -> build id of the binary in the work dir
	overhead  time.Duration
	// lastSave is how long the last save of the tables took; buildOverhead is
	// the collector's own time around the pending build (charged to the next run).
	lastSave, buildOverhead time.Duration
}

// Run collects every missing run of opts.Cells and saves after each one.
func Run(ctx context.Context, o Options) error {
	c := &collector{Options: o, binaries: map[string]string{}}
	for _, cc := range o.Config.Compilers {
		if !usesCompiler(o.Cells, cc.Name) {
			continue
		}
		if _, err := exec.LookPath(cc.CC); err != nil {
			return fmt.Errorf("compiler %s: %q not found on PATH", cc.Name, cc.CC)
		}
	}
	d, err := store.Load(o.DataDir)
	if err != nil {
		return err
	}
	c.data = d
	d.Plan = PlanRows(o.Config)
	me := Identify(d, machine.Identify())
	hw, err := ChooseClass(d, me, o.HardwareClass)
	if err != nil {
		return err
	}
	if was, n := machineClass(d, me.ID); n > 0 && was != hw {
		fmt.Fprintf(o.Log, "machine %s joins hardware class %s: its %d runs move there from %s\n", me.ID, hw, n, was)
	}
	fmt.Fprintf(o.Log, "measuring memory write bandwidth...\n")
	c.machine = machine.Describe(me)
	d.Machines = append(d.Machines, store.Machine{
		MachineID: c.machine.ID, Hostname: c.machine.Hostname, CPUModel: c.machine.CPUModel,
		Cores: int32(c.machine.Cores), MemoryBytes: c.machine.MemoryBytes, Kernel: c.machine.Kernel,
		OS: c.machine.OS, MemWriteBPS: c.machine.MemWriteBPS, MeasuredAt: time.Now().UTC(),
		CollectorVersion: o.Version, CPUID: nonEmpty(c.machine.CPUID), HardwareClass: &hw,
	})
	d.Dedupe()
	if err := d.Save(o.DataDir); err != nil {
		return err
	}
	cpuID := ""
	if c.machine.CPUID != "" {
		cpuID = " (" + c.machine.CPUID + ")"
	}
	fmt.Fprintf(o.Log, "machine %s: %s%s, %d cores, %.1f GiB, memory write %.1f GB/s\n", c.machine.ID,
		c.machine.CPUModel, cpuID, c.machine.Cores, float64(c.machine.MemoryBytes)/(1<<30), c.machine.MemWriteBPS/1e9)

	tasks := Pending(o.Cells, o.Config.Bench.Modes, o.Config.Bench.Repeats, d, hw, Redo{Failed: o.RetryFailed, NoisyPercent: o.RedoNoisy, StealPercent: o.RedoSteal, Before: o.RedoBefore})
	fmt.Fprintf(o.Log, "%d cells, %d runs to do on %s (repeats count per hardware class)\n", len(o.Cells), len(tasks), hw)
	if len(tasks) == 0 {
		return nil
	}
	if err := c.prepareClient(ctx); err != nil {
		return err
	}
	if o.Progress != nil {
		o.Progress.Start(len(tasks))
		defer o.Progress.Finish()
	}
	failed := map[string]bool{}
	for i, t := range tasks {
		if err := ctx.Err(); err != nil {
			return err
		}
		desc := fmt.Sprintf("%s %s #%d", t.Cell.ID(), t.Mode.Name, t.Repeat)
		if failed[t.Cell.ID()] {
			c.step(fmt.Sprintf("[%d/%d] %s: skipped (build failed)", i+1, len(tasks), desc))
			continue
		}
		line, err := c.do(ctx, t)
		if errors.Is(err, errBuildFailed) {
			failed[t.Cell.ID()] = true
			err = nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", desc, err)
		}
		c.step(fmt.Sprintf("[%d/%d] %s: %s", i+1, len(tasks), desc, line))
	}
	fmt.Fprintf(o.Log, "done; collector overhead (saving, bookkeeping) %.2fs in all\n", c.overhead.Seconds())
	return nil
}

func (c *collector) step(line string) {
	if c.Progress != nil {
		c.Progress.Step(line)
		return
	}
	fmt.Fprintln(c.Log, line)
}

var errBuildFailed = errors.New("build failed")

// do performs one task: builds the cell if its binary is not at hand, runs the
// benchmark, and saves. It returns a one-line summary.
func (c *collector) do(ctx context.Context, t Task) (string, error) {
	buildID, bin, summary, err := c.ensureBuild(ctx, t.Cell)
	if err != nil {
		return summary, err
	}
	spec := bench.Spec{
		Server: bin, Client: c.client, Args: t.Mode.Args,
		Dir:       filepath.Join(build.CellDir(c.WorkDir, t.Cell.ID()), "run"),
		ServerCPU: -1, ClientCPU: -1,
		StartTimeout: c.Config.Bench.StartTimeout.Duration, RunTimeout: c.Config.Bench.RunTimeout.Duration,
	}
	if runtime.NumCPU() >= 2 {
		spec.ServerCPU, spec.ClientCPU = 0, 1
	}
	os.RemoveAll(spec.Dir)
	// Write back what the build left dirty now, not during the measurement.
	if dirty, took := machine.FlushWrites(); dirty >= 1<<20 {
		summary = withNote(summary, fmt.Sprintf("flushed %d MB of pending writes in %.1fs", dirty>>20, took.Seconds()))
	}
	if waited := c.waitQuiet(ctx); waited != "" {
		summary = withNote(summary, waited)
	}
	// The host's speed just before and after (see store.Run.MemWriteBefore).
	probeStart := time.Now()
	memBefore := machine.MemWriteProbe()
	probeBefore := time.Since(probeStart)
	load0, snap0 := machine.Load1(), machine.SnapshotCPU()
	busy0, steal0 := machine.CPUTicks()
	start := time.Now()
	out, err := bench.Run(ctx, spec)
	if err != nil {
		return summary, err
	}
	end := time.Now()
	_, steal1 := machine.CPUTicks()
	steal := machine.BusyPercent(steal1-steal0, end.Sub(start))
	t0 := time.Now()
	memAfter := machine.MemWriteProbe()
	snap1 := machine.SnapshotCPU()
	other := machine.OtherCPU(snap0, snap1, []string{"redis-server", "redis-benchmark", "taskset"})
	// Everything busy but our server, our client and the kernel's workers
	// (ksoftirqd carries the benchmark's own loopback traffic).
	others := machine.BusyPercent(machine.BusyTicks()-busy0-machine.KernelTicks(snap0, snap1), end.Sub(start)) -
		100*out.CPUSeconds/end.Sub(start).Seconds()
	other = strings.TrimSuffix(fmt.Sprintf("others:%.0f,%s", math.Max(others, 0), other), ",")
	runID := fmt.Sprintf("%s|%s|%d|%s", t.Cell.ID(), t.Mode.Name, t.Repeat, start.UTC().Format("20060102T150405.000"))
	status := "ok"
	ok := 0
	for _, r := range out.Results {
		if r.Status == "ok" {
			ok++
		} else if status == "ok" {
			status = "partial"
		}
	}
	if out.ServerFailed != "" {
		status = "server_failed"
	}
	run := store.Run{
		RunID: runID, CellID: t.Cell.ID(), Version: t.Cell.Version, Compiler: t.Cell.Compiler.Name,
		FlagSet: t.Cell.FlagSet.Name, BuildID: buildID, Mode: t.Mode.Name, Repeat: int32(t.Repeat),
		Status: status, ClientVersion: c.clientVer, ClientArgs: strings.Join(t.Mode.Args, " "),
		ServerCPU: int32(spec.ServerCPU), ClientCPU: int32(spec.ClientCPU),
		Load1Before: load0, Load1After: machine.Load1(), OtherCPU: other, RawOutput: out.Raw,
		DurationSeconds: end.Sub(start).Seconds(), StartedAt: start.UTC(), FinishedAt: end.UTC(),
		MachineID: c.machine.ID, MemWriteBefore: &memBefore, MemWriteAfter: &memAfter,
		StealPct: &steal,
	}
	for _, r := range out.Results {
		res := store.Result{
			RunID: runID, BuildID: buildID, CellID: t.Cell.ID(), Version: t.Cell.Version,
			Compiler: t.Cell.Compiler.Name, FlagSet: t.Cell.FlagSet.Name, Mode: t.Mode.Name,
			Repeat: int32(t.Repeat), Test: r.Test, TestIndex: int32(r.Index), Status: r.Status,
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
		c.data.Results = append(c.data.Results, res)
	}
	if err := os.WriteFile(filepath.Join(build.CellDir(c.WorkDir, t.Cell.ID()), fmt.Sprintf("%s-%d.txt", t.Mode.Name, t.Repeat)), []byte(out.Raw), 0o644); err != nil {
		return summary, err
	}
	// The save is timed by the previous save's duration: the row must be
	// complete before it is written, and saves take about as long each time.
	run.OverheadSeconds = (time.Since(t0) + probeBefore + c.lastSave + c.buildOverhead).Seconds()
	c.buildOverhead = 0
	if t.Redo != "" {
		// Keep the run this one replaces, with why, in the redone tables.
		c.data.Retire(t.Cell.ID(), t.Mode.Name, t.Repeat, t.Redo, runID)
		summary = withNote(summary, "redo ("+t.Redo+")")
	}
	c.data.Runs = append(c.data.Runs, run)
	t1 := time.Now()
	if err := c.data.Save(c.DataDir); err != nil {
		return summary, err
	}
	c.lastSave = time.Since(t1)
	over := time.Since(t0) + probeBefore
	c.overhead += over
	line := fmt.Sprintf("%s, %d/%d tests ok, bench %.1fs, load %.2f", status, ok, len(out.Results), run.DurationSeconds, run.Load1After)
	if other != "" {
		line += ", other CPU: " + other
	}
	if out.ServerFailed != "" {
		line += ", server: " + out.ServerFailed
	}
	line += fmt.Sprintf(", host steal %.1f%%, memory write %.1f/%.1f GB/s", steal, memBefore/1e9, memAfter/1e9)
	line += fmt.Sprintf(", overhead %.3fs (%.2f%%)", over.Seconds(), 100*over.Seconds()/time.Since(start).Seconds())
	return withNote(summary, line), nil
}

// withNote appends note to a run's log summary, "; "-separated.
func withNote(summary, note string) string {
	if summary == "" {
		return note
	}
	return summary + "; " + note
}

// ensureBuild returns the build id and binary of the cell, building it if the
// binary of a recorded successful build is not in the work directory.
func (c *collector) ensureBuild(ctx context.Context, cell config.Cell) (string, string, string, error) {
	dir := build.CellDir(c.WorkDir, cell.ID())
	bin := filepath.Join(dir, "redis-server")
	if id, err := os.ReadFile(filepath.Join(dir, "build-id")); err == nil {
		for _, b := range c.data.Builds {
			if b.BuildID == string(id) && b.Status == "ok" {
				if _, err := os.Stat(bin); err == nil {
					return b.BuildID, bin, "", nil
				}
			}
		}
	}
	tree, err := c.Sources.Get(ctx, cell.Version)
	if err != nil {
		return "", "", "", err
	}
	started := time.Now()
	res, err := build.Build(ctx, build.Spec{
		Cell: cell, SourceDir: tree.Dir, WorkDir: c.WorkDir, DepsGetFlags: c.Config.DepsGetFlags,
		Jobs: c.Config.Jobs, Compat: c.Config.Compat, Timeout: c.Config.BuildTimeout.Duration,
	})
	if err != nil {
		return "", "", "", err
	}
	id := fmt.Sprintf("%s|%s", cell.ID(), started.UTC().Format("20060102T150405.000"))
	b := store.Build{
		BuildID: id, CellID: cell.ID(), Version: cell.Version, Compiler: cell.Compiler.Name,
		FlagSet: cell.FlagSet.Name, Status: res.Status, LogTail: res.LogTail, CC: cell.Compiler.CC,
		CCPath: res.CCPath, CCVersion: res.CCVersion, CFlags: res.CFlags, LDFlags: res.LDFlags,
		CompatFlags: res.CompatFlags, DepsGetFlags: c.Config.DepsGetFlags, MakeArgs: res.MakeArgs,
		SourceKind: tree.Kind, SourceRef: tree.Ref, SourceCommit: tree.Commit, SourceSHA256: tree.SHA256,
		SourceVerified: tree.Verified, SourceSeconds: tree.Seconds + res.CopySeconds,
		DepsSeconds: res.DepsSeconds, BuildSeconds: res.BuildSeconds, BinaryBytes: res.BinaryBytes,
		StartedAt: started.UTC(), FinishedAt: time.Now().UTC(), MachineID: c.machine.ID,
		CollectorVersion: c.Version,
	}
	if res.Error != "" {
		e := res.Error
		b.Error = &e
	}
	c.data.Builds = append(c.data.Builds, b)
	t0 := time.Now()
	if err := c.data.Save(c.DataDir); err != nil {
		return "", "", "", err
	}
	c.buildOverhead = time.Since(t0)
	summary := fmt.Sprintf("build %s in %.1fs (source %.1fs, deps %.1fs)", res.Status, res.BuildSeconds, b.SourceSeconds, res.DepsSeconds)
	if res.CompatFlags != "" {
		summary += " with compat flags " + res.CompatFlags
	}
	if res.Status != "ok" {
		c.step(fmt.Sprintf("%s: build failed: %s", cell.ID(), res.Error))
		return "", "", summary + ": " + res.Error, errBuildFailed
	}
	if err := os.WriteFile(filepath.Join(dir, "build-id"), []byte(id), 0o644); err != nil {
		return "", "", "", err
	}
	return id, res.Binary, summary, nil
}

// prepareClient builds the single redis-benchmark used for every server.
func (c *collector) prepareClient(ctx context.Context) error {
	v := c.Config.Bench.ClientVersion
	tree, err := c.Sources.Get(ctx, v)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Log, "building client redis-benchmark %s (default flags)...\n", v)
	bin, err := build.Client(ctx, tree.Dir, c.WorkDir, v, c.Config.Jobs, c.Config.BuildTimeout.Duration)
	if err != nil {
		return err
	}
	c.client = bin
	c.clientVer = bench.ClientVersion(ctx, bin)
	if c.clientVer == "" {
		c.clientVer = "redis-benchmark " + v
	}
	fmt.Fprintf(c.Log, "client: %s\n", c.clientVer)
	return nil
}

func usesCompiler(cells []config.Cell, name string) bool {
	for _, c := range cells {
		if c.Compiler.Name == name {
			return true
		}
	}
	return false
}

// waitQuiet waits, up to QuietWait, until other processes use less than
// QuietPercent of a CPU (see quietGate). It says how long it waited.
func (c *collector) waitQuiet(ctx context.Context) string {
	if c.QuietWait <= 0 {
		return ""
	}
	start := time.Now()
	gate := quietGate{Limit: c.QuietPercent}
	for {
		before, t := machine.BusyTicks(), time.Now()
		select {
		case <-ctx.Done():
			return ""
		case <-time.After(quietWindow):
		}
		busy := machine.BusyPercent(machine.BusyTicks()-before, time.Since(t))
		waited := time.Since(start)
		if gate.Quiet(busy) {
			if waited > quietWindow+time.Second {
				return fmt.Sprintf("waited %s for a quiet machine", waited.Round(time.Second))
			}
			return ""
		}
		if waited >= c.QuietWait {
			return fmt.Sprintf("machine still busy (%.0f%% of a CPU) after %s, running anyway", busy, waited.Round(time.Second))
		}
	}
}

// quietWindow is how long waitQuiet measures other processes' CPU at a time.
const quietWindow = 5 * time.Second

// quietGate decides, one window of other processes' CPU use at a time, when the
// machine is quiet enough to start a run: one window below Limit when it was
// quiet from the start, two in a row once a window has been busy. Builds, test
// suites and browsers pause for a few seconds between their steps; a single quiet
// window then let a run start into the next step (a run measured 19% busy so).
type quietGate struct {
	Limit    float64
	seenBusy bool
	quiet    int
}

// Quiet records one window's busy percentage and says whether to start now.
func (g *quietGate) Quiet(busy float64) bool {
	if busy >= g.Limit {
		g.seenBusy, g.quiet = true, 0
		return false
	}
	g.quiet++
	if g.seenBusy {
		return g.quiet >= 2
	}
	return true
}
