package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/bench"
	"github.com/redis-compiler-benchmarks/collector/internal/build"
	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/hwclass"
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
	// RedoDiffering makes count count again the (cell, mode) whose repeats
	// of one build differ (store.Data.RedoDiffering).
	RedoDiffering bool
	// RedoUnhashed makes count count again the cells whose counting runs
	// come from builds without a code hash (store.Data.RedoUnhashed).
	RedoUnhashed bool
	// KeepDumps keeps each counted test's callgrind dump (collector count).
	KeepDumps bool
	// Reference, when set, is the dataset whose Valgrind version, guest CPU
	// and compiler versions a count must match (SetupConflict); by default
	// the data directory's own. NewDataset counts whatever they are.
	Reference  *store.Data
	NewDataset bool
	// Ccache, when set, is the ccache directory builds compile through (build.Spec).
	Ccache string
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
	// recorded, or a new one gets hwclass.DefaultLabel (hwclass.Choose).
	HardwareClass string
	// Precision runs the precision modes (Config.Bench.Precision) in
	// interleaved rounds (PendingRounds) instead of the reference modes.
	Precision bool
	// Log receives one line per event; Progress, when set, is shown instead of
	// per-run lines on a terminal.
	Log      io.Writer
	Progress Progress
	Version  string // collector version
}

// nonEmpty is s, or nil for "" (a null column).
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
	// freezeClock is the preload library that freezes a counted server's
	// clock; preloadLine says which build of it (count.PreloadLine).
	freezeClock, preloadLine string
	// guestCPU is the signature of the CPU a counted server sees under Valgrind.
	guestCPU string
	Options
	data      *store.Data
	machine   machine.Info
	class     string // the hardware class this machine measures for
	client    string
	clientVer string
	binaries  map[string]string // cell id -> build id of the binary in the work dir
	// addedLTO holds the builds whose release's Makefile added -flto to their
	// -O3 (redoMakefileLTO): their binaries are not the cell's.
	addedLTO map[string]bool
	overhead time.Duration
	// lastSave is how long the last save of the tables took; buildOverhead is
	// the collector's own time around the pending build (charged to the next run).
	lastSave, buildOverhead time.Duration
	// dataMu guards data while a counting collection builds the next cell
	// beside the runs of this one; stepMu keeps their log lines whole.
	dataMu, stepMu sync.Mutex
}

// open starts a collection: it checks the compilers, loads the data, records
// the plan and this machine, and returns the machine's hardware class.
func open(o Options) (*collector, string, error) {
	c := &collector{Options: o, binaries: map[string]string{}, addedLTO: map[string]bool{}}
	if err := checkCompilers(o.Config, o.Cells); err != nil {
		return nil, "", err
	}
	d, err := store.Load(o.DataDir)
	if err != nil {
		return nil, "", err
	}
	c.data = d
	d.Plan = PlanRows(o.Config)
	hw, err := c.describeMachine()
	if err != nil {
		return nil, "", err
	}
	return c, hw, nil
}

// Run collects every missing run of opts.Cells and saves after each one.
func Run(ctx context.Context, o Options) error {
	c, hw, err := open(o)
	if err != nil {
		return err
	}
	d := c.data
	c.class = hw
	redo := Redo{Failed: o.RetryFailed, NoisyPercent: o.RedoNoisy, StealPercent: o.RedoSteal, Before: o.RedoBefore}
	tasks := PendingRuns(o.Config, o.Cells, d, hw, redo)
	if o.Precision {
		if len(o.Config.Bench.Precision) == 0 {
			return errors.New("the config has no benchmark.precision modes")
		}
		tasks = PendingRounds(o.Cells, o.Config.Bench.Precision, o.Config.Bench.Rounds, d, hw, redo, rand.Int64)
	}
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
		if t.Round != nil {
			desc += fmt.Sprintf(" (round position %d)", t.Round.Position)
		}
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

// checkCompilers fails unless every compiler the cells use is on PATH.
func checkCompilers(cfg *config.Config, cells []config.Cell) error {
	for _, cc := range cfg.Compilers {
		if !usesCompiler(cells, cc.Name) {
			continue
		}
		if _, err := exec.LookPath(cc.CC); err != nil {
			return fmt.Errorf("compiler %s: %q not found on PATH", cc.Name, cc.CC)
		}
	}
	return nil
}

// describeMachine identifies this machine, chooses its hardware class,
// measures its memory write bandwidth and saves its machines row. It returns
// the class, whose repeats the collection counts.
func (c *collector) describeMachine() (string, error) {
	me := hwclass.Identify(c.data, machine.Identify())
	hw, err := hwclass.Choose(c.data, me, c.HardwareClass)
	if err != nil {
		return "", err
	}
	if was, n := hwclass.Current(c.data, me.ID); n > 0 && was != hw {
		fmt.Fprintf(c.Log, "machine %s joins hardware class %s: its %d runs move there from %s\n", me.ID, hw, n, was)
	}
	fmt.Fprintf(c.Log, "measuring memory write bandwidth...\n")
	c.machine = machine.Describe(me)
	c.data.Machines = append(c.data.Machines, machineRow(c.machine, hw, c.Version, time.Now()))
	c.data.Dedupe()
	if err := c.data.Save(c.DataDir); err != nil {
		return "", err
	}
	cpuID := ""
	if c.machine.CPUID != "" {
		cpuID = " (" + c.machine.CPUID + ")"
	}
	fmt.Fprintf(c.Log, "machine %s: %s%s, %d cores, %.1f GiB, memory write %.1f GB/s\n", c.machine.ID,
		c.machine.CPUModel, cpuID, c.machine.Cores, float64(c.machine.MemoryBytes)/(1<<30), c.machine.MemWriteBPS/1e9)
	return hw, nil
}

// machineRow is the machines row of m, measuring for class hw, described at
// time at by collector version.
func machineRow(m machine.Info, hw, version string, at time.Time) store.Machine {
	return store.Machine{
		MachineID: m.ID, Hostname: m.Hostname, CPUModel: m.CPUModel,
		Cores: int32(m.Cores), MemoryBytes: m.MemoryBytes, Kernel: m.Kernel,
		OS: m.OS, MemWriteBPS: m.MemWriteBPS, MeasuredAt: at.UTC(),
		CollectorVersion: version, CPUID: nonEmpty(m.CPUID), HardwareClass: &hw,
	}
}

func (c *collector) step(line string) {
	c.stepMu.Lock()
	defer c.stepMu.Unlock()
	if c.Progress != nil {
		c.Progress.Step(line)
		return
	}
	fmt.Fprintln(c.Log, line)
}

var errBuildFailed = errors.New("build failed")

// ensureBuild returns the build id and binary of the cell, building it if the
// binary of a recorded successful build is not in the work directory.
func (c *collector) ensureBuild(ctx context.Context, cell config.Cell) (string, string, string, error) {
	dir := build.CellDir(c.WorkDir, cell.ID())
	bin := filepath.Join(dir, "redis-server")
	if id, err := os.ReadFile(filepath.Join(dir, "build-id")); err == nil {
		c.dataMu.Lock()
		i := slices.IndexFunc(c.data.Builds, func(b store.Build) bool {
			return b.BuildID == string(id) && b.Status == "ok" && !store.WrongLgVaddr(b, build.FixedLgVaddr) && !c.addedLTO[b.BuildID]
		})
		var b store.Build
		if i >= 0 {
			b = c.data.Builds[i]
		}
		c.dataMu.Unlock()
		if _, err := os.Stat(bin); i >= 0 && err == nil {
			stale, err := c.Sources.Stale(ctx, cell.Version, sourceOf(b))
			if err != nil {
				return "", "", "", err
			}
			if !stale {
				return string(id), bin, "", nil
			}
		}
	}
	t0 := time.Now()
	tree, err := c.Sources.Get(ctx, cell.Version)
	if r, ok := source.IsRefusal(err); ok {
		return "", "", "source refused: " + r.Reason, c.recordRefusal(cell, r, t0)
	}
	if err != nil {
		return "", "", "", err
	}
	started := time.Now()
	res, err := build.Build(ctx, build.Spec{
		Cell: cell, SourceDir: tree.Dir, WorkDir: c.WorkDir, DepsGetFlags: c.Config.DepsGetFlags,
		Jobs: c.Config.Jobs, Compat: c.Config.Compat, Timeout: c.Config.BuildTimeout.Duration, Ccache: c.Ccache,
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
	deps := source.ReadDeps(tree.Dir)
	b.SetDeps(deps.Jemalloc, deps.Lua, deps.Hiredis, deps.Linenoise)
	if res.Error != "" {
		e := res.Error
		b.Error = &e
	}
	if res.Status == "ok" {
		rid := res.RedisBuildID
		b.RedisBuildID = &rid
		if res.CodeSHA256 != "" {
			code := res.CodeSHA256
			b.CodeSHA256 = &code
		}
		lg := int32(res.JemallocLgVaddr)
		b.JemallocLgVaddr = &lg
		if res.PGOTraining != "" {
			training, profile := res.PGOTraining, res.PGOProfileSHA256
			b.PGOTraining, b.PGOProfileSHA256 = &training, &profile
		}
	}
	t0 = time.Now()
	c.dataMu.Lock()
	c.data.Builds = append(c.data.Builds, b)
	// open saved the whole dataset: a build adds to builds alone.
	err = c.data.SaveBuildsAndCounts(c.DataDir)
	c.dataMu.Unlock()
	if err != nil {
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

// recordDeps fills in the bundled dependencies of the ok builds of the
// selected cells recorded before the deps_* columns, from their version's
// source tree when it is still the source they were built from. It returns
// how many builds it filled in.
func (c *collector) recordDeps(ctx context.Context) (int, error) {
	selected := map[string]bool{}
	for _, cell := range c.Cells {
		selected[cell.ID()] = true
	}
	trees := map[string]*source.Deps{}
	n := 0
	for i := range c.data.Builds {
		b := &c.data.Builds[i]
		if b.Status != "ok" || b.DepsJemalloc != nil || !selected[b.CellID] {
			continue
		}
		if stale, err := c.Sources.Stale(ctx, b.Version, sourceOf(*b)); err != nil || stale {
			continue
		}
		d, seen := trees[b.Version]
		if !seen {
			tree, err := c.Sources.Get(ctx, b.Version)
			if _, refused := source.IsRefusal(err); refused {
				trees[b.Version] = nil
				continue
			}
			if err != nil {
				return n, err
			}
			got := source.ReadDeps(tree.Dir)
			d, trees[b.Version] = &got, &got
		}
		if d == nil {
			continue
		}
		b.SetDeps(d.Jemalloc, d.Lua, d.Hiredis, d.Linenoise)
		n++
	}
	return n, nil
}

// fillDeps records the deps of builds made before the columns (recordDeps)
// and saves them.
func (c *collector) fillDeps(ctx context.Context) error {
	n, err := c.recordDeps(ctx)
	if err != nil || n == 0 {
		return err
	}
	fmt.Fprintf(c.Log, "%d builds recorded before their bundled dependencies were: read from their sources\n", n)
	return c.data.SaveBuildsAndCounts(c.DataDir)
}

// sourceOf is the source a build was made from.
func sourceOf(b store.Build) source.Tree {
	return source.Tree{Kind: b.SourceKind, Ref: b.SourceRef, Commit: b.SourceCommit, SHA256: b.SourceSHA256}
}

// recordRefusal records a cell whose source was refused (source.Refusal) as a
// failed build with the refusal's line as its error, and returns
// errBuildFailed: the cell is never measured.
func (c *collector) recordRefusal(cell config.Cell, r *source.Refusal, started time.Time) error {
	reason := r.Reason
	b := store.Build{
		BuildID: fmt.Sprintf("%s|%s", cell.ID(), started.UTC().Format("20060102T150405.000")), CellID: cell.ID(),
		Version: cell.Version, Compiler: cell.Compiler.Name, FlagSet: cell.FlagSet.Name, Status: "failed",
		Error: &reason, CC: cell.Compiler.CC, DepsGetFlags: c.Config.DepsGetFlags,
		SourceKind: r.Tree.Kind, SourceRef: r.Tree.Ref, SourceCommit: r.Tree.Commit, SourceSHA256: r.Tree.SHA256,
		SourceVerified: r.Tree.Verified, StartedAt: started.UTC(), FinishedAt: time.Now().UTC(),
		MachineID: c.machine.ID, CollectorVersion: c.Version,
	}
	c.dataMu.Lock()
	c.data.Builds = append(c.data.Builds, b)
	err := c.data.SaveBuildsAndCounts(c.DataDir)
	c.dataMu.Unlock()
	if err != nil {
		return err
	}
	c.step(fmt.Sprintf("%s: source refused: %s", cell.ID(), reason))
	return errBuildFailed
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
