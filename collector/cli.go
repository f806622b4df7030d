package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/count"
	"github.com/redis-compiler-benchmarks/collector/internal/hwclass"
	"github.com/redis-compiler-benchmarks/collector/internal/machine"
	"github.com/redis-compiler-benchmarks/collector/internal/model"
	"github.com/redis-compiler-benchmarks/collector/internal/report"
	"github.com/redis-compiler-benchmarks/collector/internal/runner"
	"github.com/redis-compiler-benchmarks/collector/internal/source"
	"github.com/redis-compiler-benchmarks/collector/internal/stats"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

const usage = `usage: collector <command> [flags]

commands:
  run     build and benchmark every missing cell of the matrix, saving after each run; with
          -precision, the precision modes in interleaved rounds
  build   build every cell of the matrix, in collection order, recording each build (ok, or
          failed with its log tail and reason); count and run reuse the binaries
  count   build every cell and count, under Valgrind, the instructions its server executes per
          request of each test (deterministic; does not need a quiet machine)
  plan    print the matrix and which cells are done, partial, failed or pending; with -count, the
          counted instrument's progress per version in the order count takes them
  stats   time per cell (source, build, benchmark, count, collector overhead), machine time in all and
          per stretch of collection, integrity checks (versions sharing a source, counted cells
          without a code hash or with several, bundled dependencies changed); with -compare, run-to-run noise;
          with -precision, each configuration's effect against gcc -O2 with its confidence interval,
          and the precision tests that lasted less than their mode's min_time; with -model, the
          counts calibrated against the precision rounds (cost models, leave-one-version-out errors)
  shards  the jobs the counting workflow (.github/workflows/count.yml) would start: the cells
          still to count, dealt to jobs within a time budget, each job's estimated hours from the
          data's measured times; -json prints the workflow's matrix
  matrix  edit the matrix: matrix add-releases TAGS adds the releases of git ls-remote --tags
          output it lacks (the newest patch of each line becomes current) and prints them
  merge   merge data directories (e.g. shards) into one: collector merge -out DIR IN...
  dumpdiff compare two counting runs' callgrind dumps test by test (where a disturbed run parted
          from the other, and in which functions): collector dumpdiff [-top N] DIR_A DIR_B
  bands   measure each counted metric's rebuild band (how far its counts move between two builds
          of one cell from the same inputs) and write rebuild_bands.parquet: collector bands -data DIR
  recover add runs that earlier versions of a dataset had and that were measured again to its
          redone tables: collector recover -data DIR [-redo-... rules] EARLIER_DIR...
  version print the collector version

run 'collector <command> -h' for a command's flags`

// Version is the collector's version, recorded with every build and machine.
const Version = "0.3.0"

func collectorVersion() string {
	v := Version
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += "+" + s.Value[:12]
			}
		}
	}
	return v
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return errors.New("no command")
	}
	var err error
	switch args[0] {
	case "run":
		err = cmdRun(ctx, args[1:], stdout, stderr)
	case "count":
		err = cmdCount(ctx, args[1:], stdout, stderr)
	case "build":
		err = cmdBuild(ctx, args[1:], stdout, stderr)
	case "plan":
		err = cmdPlan(args[1:], stdout, stderr)
	case "shards":
		err = cmdShards(args[1:], stdout, stderr)
	case "matrix":
		err = cmdMatrix(args[1:], stdout, stderr)
	case "merge":
		err = cmdMerge(args[1:], stdout, stderr)
	case "stats":
		err = cmdStats(args[1:], stdout, stderr)
	case "dumpdiff":
		err = cmdDumpDiff(args[1:], stdout, stderr)
	case "recover":
		err = cmdRecover(args[1:], stdout, stderr)
	case "bands":
		err = cmdBands(args[1:], stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, collectorVersion())
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
	default:
		return fmt.Errorf("unknown command %q; run 'collector help' for the commands", args[0])
	}
	if errors.Is(err, flag.ErrHelp) {
		return nil // `collector <command> -h` printed the flags, as asked
	}
	return err
}

// matrixFlags are the flags shared by run and plan.
type matrixFlags struct {
	config, data, shard, versions, cells, modes string
	repeats                                     int
	// rounds, when set and true, makes -repeats the precision protocol's
	// rounds: the reference modes keep the config's repeats (and the plan
	// table, which holds them, stays as the config says).
	rounds *bool
	// counted makes -repeats the counted instrument's repeats per mode
	// (count.repeats); the benchmark's repeats stay as the config says.
	counted bool
}

func (m *matrixFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&m.config, "config", defaultConfig(), "matrix file (TOML)")
	fs.StringVar(&m.data, "data", "public/data", "directory of the Parquet tables")
	fs.StringVar(&m.shard, "shard", "", "run only shard i of n, as i/n (e.g. 0/4)")
	fs.StringVar(&m.versions, "versions", "", `comma-separated subset of the matrix's versions; "current" stands for the current versions`)
	fs.StringVar(&m.cells, "cells", "", `comma-separated cell IDs ("7.4.1|gcc|-O2,7.4.1|clang|-Os"): only these cells (as "collector shards" deals them to jobs)`)
	fs.StringVar(&m.modes, "modes", "", "comma-separated subset of the precision modes (benchmark.precision) to run or plan with -precision (default: all)")
	if m.counted {
		fs.IntVar(&m.repeats, "repeats", 0, "counting runs per mode of every cell (default: the config's count.repeats); e.g. one more than the dataset has, to count each cell once more on this machine")
	} else {
		fs.IntVar(&m.repeats, "repeats", 0, "repeats per mode of every version (default: the config's, benchmark.repeats for current versions and benchmark.other_repeats for the others)")
	}
}

func defaultConfig() string {
	if _, err := os.Stat("collector/matrix.toml"); err == nil {
		return "collector/matrix.toml"
	}
	return "matrix.toml"
}

// load reads the config and selects the cells of this invocation.
func (m *matrixFlags) load() (*config.Config, []config.Cell, error) {
	cfg, err := config.Load(m.config)
	if err != nil {
		return nil, nil, err
	}
	if m.repeats < 0 {
		return nil, nil, fmt.Errorf("-repeats must be >= 1")
	}
	if m.repeats > 0 && m.counted {
		cfg.Count.Repeats = m.repeats
	} else if m.repeats > 0 && m.rounds != nil && *m.rounds {
		cfg.Bench.Rounds = m.repeats
	} else if m.repeats > 0 {
		cfg.Bench.Repeats, cfg.Bench.OtherRepeats = m.repeats, m.repeats
	}
	if m.modes != "" {
		var keep []config.Mode
		for _, name := range strings.Split(m.modes, ",") {
			i := slices.IndexFunc(cfg.Bench.Precision, func(md config.Mode) bool { return md.Name == strings.TrimSpace(name) })
			if i < 0 {
				return nil, nil, fmt.Errorf("-modes: %q is not a precision mode of %s", name, m.config)
			}
			keep = append(keep, cfg.Bench.Precision[i])
		}
		cfg.Bench.Precision = keep
	}
	sh, err := config.ParseShard(m.shard)
	if err != nil {
		return nil, nil, err
	}
	cells := sh.Filter(cfg.Cells())
	if m.versions != "" {
		want := map[string]bool{}
		for _, v := range strings.Split(m.versions, ",") {
			v = strings.TrimSpace(v)
			if v == "current" {
				for _, c := range cfg.Versions {
					want[c] = true
				}
				continue
			}
			if !slices.Contains(cfg.ReleaseList(), v) {
				return nil, nil, fmt.Errorf("unknown version %q (not in %s)", v, m.config)
			}
			want[v] = true
		}
		var keep []config.Cell
		for _, c := range cells {
			if want[c.Version] {
				keep = append(keep, c)
			}
		}
		cells = keep
	}
	if m.cells != "" {
		if cells, err = onlyCells(cells, cfg.Cells(), m.cells); err != nil {
			return nil, nil, err
		}
	}
	return cfg, cells, nil
}

// onlyCells keeps the cells whose IDs list (comma-separated) names; an ID
// that is not a cell of the matrix (all) is an error.
func onlyCells(cells, all []config.Cell, list string) ([]config.Cell, error) {
	want := map[string]bool{}
	for _, id := range strings.Split(list, ",") {
		want[strings.TrimSpace(id)] = true
	}
	known := map[string]bool{}
	for _, c := range all {
		known[c.ID()] = true
	}
	for id := range want {
		if !known[id] {
			return nil, fmt.Errorf("-cells: %q is not a cell of the matrix (version|compiler|flag set)", id)
		}
	}
	var keep []config.Cell
	for _, c := range cells {
		if want[c.ID()] {
			keep = append(keep, c)
		}
	}
	return keep, nil
}

// sourceFlags are the flags of the commands that build cells: where sources
// come from and the work directory.
type sourceFlags struct {
	matrixFlags
	work, src, gitRepo, tarDir, hashes, baseURL string
	noBar, ccache                               bool
}

func (f *sourceFlags) register(fs *flag.FlagSet) {
	f.matrixFlags.register(fs)
	fs.StringVar(&f.work, "work", "work", "work directory: source cache, builds, raw evidence")
	fs.StringVar(&f.src, "source", "download", "where sources come from: download, tarballs or git")
	fs.StringVar(&f.gitRepo, "git", "", "local git repository of Redis (with -source git)")
	fs.StringVar(&f.tarDir, "tarballs", "", "directory of release tarballs (with -source tarballs; with -source git, the releases the clone does not tag)")
	fs.StringVar(&f.hashes, "hashes", "", "redis-hashes list (file or URL) to verify tarballs; required for download")
	fs.StringVar(&f.baseURL, "download-url", "https://download.redis.io/releases/", "release download site")
	fs.BoolVar(&f.noBar, "no-progress", false, "plain log lines even on a terminal")
	fs.BoolVar(&f.ccache, "ccache", false, "compile through ccache (cache in the work directory's ccache/): a file unchanged since a release built before with the same flags is not compiled again; the make line recorded with each build says so")
}

// options parses args and prepares what every building command needs: the
// config and cells, a source getter that has every version, and absolute
// work and data directories.
func (f *sourceFlags) options(ctx context.Context, fs *flag.FlagSet, args []string, stderr io.Writer) (runner.Options, error) {
	var o runner.Options
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	cfg, cells, err := f.load()
	if err != nil {
		return o, err
	}
	if !isSet(fs, "source") && f.hashes == "" {
		return o, errors.New(fs.Name() + sourceChoices)
	}
	getter, err := newGetter(ctx, f.src, f.gitRepo, f.tarDir, f.hashes, f.baseURL, filepath.Join(f.work, "tarballs"), cfg.SourceOverrides)
	if err != nil {
		return o, err
	}
	for _, v := range usedVersions(cfg, cells) {
		if err := getter.Has(v); err != nil {
			return o, err
		}
	}
	if f.ccache {
		if _, err := exec.LookPath("ccache"); err != nil {
			return o, errors.New("-ccache: ccache is not on PATH (apt-get install ccache)")
		}
	}
	if err := os.MkdirAll(f.work, 0o755); err != nil {
		return o, fmt.Errorf("work directory: %w", err)
	}
	// Builds and servers run in other directories: every path must be absolute.
	if f.work, err = filepath.Abs(f.work); err != nil {
		return o, err
	}
	if f.data, err = filepath.Abs(f.data); err != nil {
		return o, err
	}
	o = runner.Options{
		Config: cfg, Cells: cells, DataDir: f.data, WorkDir: f.work,
		Sources: &source.Cache{Dir: filepath.Join(f.work, "src"), Getter: getter, Releases: cfg.ReleaseList()},
		Log:     stderr, Version: collectorVersion(),
	}
	if f.ccache {
		o.Ccache = filepath.Join(f.work, "ccache")
	}
	if !f.noBar && isTerminal(stderr) {
		o.Progress = newBar(stderr)
	}
	return o, nil
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f sourceFlags
	f.register(fs)
	var redo redoFlags
	redo.register(fs)
	quietWait := fs.Duration("quiet-wait", 10*time.Minute, "before each run, wait up to this long for other processes to go quiet (0: don't)")
	quietPct := fs.Float64("quiet-percent", 20, "other processes' CPU use (percent of one CPU) below which the machine counts as quiet")
	precision := fs.Bool("precision", false, "run the precision modes (benchmark.precision) in interleaved rounds instead of the reference modes; -repeats sets the rounds")
	class := fs.String("hardware-class", "", `hardware class to measure for: an existing class of machines with this CPU model and cores, after "collector stats" showed they measure alike (default: the class this machine recorded, else "CPU model (family F model M), N cores"; its runs follow it)`)
	f.rounds = precision
	opts, err := f.options(ctx, fs, args, stderr)
	if err != nil {
		return err
	}
	opts.RetryFailed, opts.RedoNoisy, opts.RedoSteal, opts.RedoBefore = redo.failed, redo.noisy, redo.steal, redo.before.t
	opts.QuietWait, opts.QuietPercent, opts.HardwareClass = *quietWait, *quietPct, *class
	opts.Precision = *precision
	return runner.Run(ctx, opts)
}

func cmdCount(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("count", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f sourceFlags
	f.counted = true
	f.register(fs)
	retry := fs.Bool("retry-failed", false, "count again the runs whose server failed, and rebuild cells whose build failed")
	redo := fs.Bool("redo-differing", false, "count again, both repeats, each (cell, mode) whose repeats of one build counted different instructions per request in some test (a disturbed run); the earlier runs are kept in the superseded tables with the reason; checked when the collector starts and after each pass, up to two more passes")
	reference := fs.String("reference", "", "dataset whose Valgrind version, guest CPU signature and compiler versions the counts must match (default: -data); e.g. public/data when counting a shard into an empty directory")
	newDataset := fs.Bool("new-dataset", false, "count even when Valgrind, the guest CPU or a compiler is not the reference dataset's (the counts start a dataset of their own)")
	unhashed := fs.Bool("redo-unhashed", false, "count again, on a new build, each cell whose counting runs come from a build recorded without a code hash (builds.code_sha256 null) and whose binary is not at hand to hash; the earlier runs are kept in the superseded tables with the reason")
	keep := fs.Bool("keep-dumps", false, "keep each test's callgrind dump, for callgrind_annotate, in the run's work directory (cells/<cell>/count-<mode>-<repeat>/dumps)")
	opts, err := f.options(ctx, fs, args, stderr)
	if err != nil {
		return err
	}
	opts.RetryFailed, opts.KeepDumps, opts.RedoDiffering, opts.NewDataset, opts.RedoUnhashed = *retry, *keep, *redo, *newDataset, *unhashed
	if *reference != "" {
		if opts.Reference, err = store.Load(*reference); err != nil {
			return err
		}
	}
	return runner.Count(ctx, opts)
}

func cmdBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f sourceFlags
	f.register(fs)
	retry := fs.Bool("retry-failed", false, "rebuild cells whose latest build failed")
	opts, err := f.options(ctx, fs, args, stderr)
	if err != nil {
		return err
	}
	opts.RetryFailed = *retry
	return runner.Build(ctx, opts)
}

// usedVersions are the versions whose sources this run needs, client included.
func usedVersions(cfg *config.Config, cells []config.Cell) []string {
	seen := map[string]bool{cfg.Bench.ClientVersion: true}
	out := []string{cfg.Bench.ClientVersion}
	for _, c := range cells {
		if !seen[c.Version] {
			seen[c.Version] = true
			out = append(out, c.Version)
		}
	}
	return out
}

// sourceChoices is what run and count say, after their name, when given no source at all.
const sourceChoices = " needs Redis sources: -source git -git REPO (tags of a clone), -source tarballs -tarballs DIR [-hashes LIST], or -source download -hashes LIST (redis/redis-hashes' README, file or URL)"

// isSet says whether flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

type getter interface {
	source.Getter
	Has(version string) error
}

func newGetter(ctx context.Context, kind, gitRepo, tarDir, hashes, baseURL, dlDir string, overrides map[string]string) (getter, error) {
	var digests map[string]source.Digest
	if hashes != "" {
		var err error
		if digests, err = source.LoadHashes(ctx, hashes); err != nil {
			return nil, err
		}
	}
	switch kind {
	case "git":
		if gitRepo == "" {
			return nil, errors.New("-source git needs -git <repository>")
		}
		if tarDir != "" {
			// Releases the clone does not tag come from the tarballs (e.g. 8.0
			// from Debian's source packages).
			if _, err := os.ReadDir(tarDir); err != nil {
				return nil, fmt.Errorf("tarball directory: %w", err)
			}
			return source.Chain{source.Git{Repo: gitRepo, Overrides: overrides}, source.Tarballs{Dir: tarDir, Hashes: digests}}, nil
		}
		return source.Git{Repo: gitRepo, Overrides: overrides}, nil
	case "tarballs":
		if tarDir == "" {
			return nil, errors.New("-source tarballs needs -tarballs <directory>")
		}
		if _, err := os.ReadDir(tarDir); err != nil {
			return nil, fmt.Errorf("tarball directory: %w", err)
		}
		return source.Tarballs{Dir: tarDir, Hashes: digests}, nil
	case "download":
		if digests == nil {
			return nil, errors.New("-source download needs -hashes (a copy of redis/redis-hashes' README, file or URL)")
		}
		return source.Download{BaseURL: baseURL, Dir: dlDir, Hashes: digests}, nil
	}
	return nil, fmt.Errorf("unknown -source %q (want download, tarballs or git)", kind)
}

func cmdPlan(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var m matrixFlags
	m.register(fs)
	hwFlag := fs.String("hardware", "", `hardware class whose repeats to count, as "collector plan" lists them, e.g. "AMD EPYC, 2 cores" (default: this machine's; "all": every machine)`)
	precision := fs.Bool("precision", false, "plan the precision modes' rounds instead of the reference modes")
	counted := fs.Bool("count", false, "the counted instrument's progress per version, in the order collector count takes them")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, cells, err := m.load()
	if err != nil {
		return err
	}
	if *counted {
		d, err := store.Load(m.data)
		if err != nil {
			return err
		}
		printCountPlan(stdout, runner.CountStatus(cfg, cells, d), cfg.Count.Repeats*len(cfg.Count.Modes))
		return nil
	}
	pending := func(d *store.Data, hw string) []runner.Task {
		return runner.PendingRuns(cfg, cells, d, hw, runner.Redo{})
	}
	if *precision {
		cfg.Bench.Modes, cfg.Bench.Repeats = cfg.Bench.Precision, cfg.Bench.Rounds
		if m.repeats > 0 {
			cfg.Bench.Repeats = m.repeats
		}
		cfg.Bench.OtherRepeats = cfg.Bench.Repeats
		pending = func(d *store.Data, hw string) []runner.Task {
			return runner.PendingRounds(cells, cfg.Bench.Modes, cfg.Bench.Repeats, d, hw, runner.Redo{}, func() int64 { return 0 })
		}
	}
	d, err := store.Load(m.data)
	if err != nil {
		return err
	}
	hw, err := planClass(d, *hwFlag)
	if err != nil {
		return err
	}
	counts := map[string]int{}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "VERSION\tCOMPILER\tFLAGS\tSTATE\tRUNS\tNOTE")
	for _, s := range runner.MatrixStatus(cfg, cells, d, hw) {
		var runs []string
		for _, md := range cfg.Bench.Modes {
			runs = append(runs, fmt.Sprintf("%s %d/%d", md.Name, s.Done[md.Name], s.Repeats))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Cell.Version, s.Cell.Compiler.Name, s.Cell.FlagSet.Name,
			s.State, strings.Join(runs, ", "), s.Error)
		counts[s.State]++
	}
	tw.Flush()
	report.Hardware(stdout, d)
	todo := pending(d, hw)
	on := "on " + hw
	if hw == "" {
		on = "counting every machine's runs together"
	}
	fmt.Fprintf(stdout, "%d cells: %d done, %d partial, %d failed, %d pending; %d runs to do %s\n",
		len(cells), counts["done"], counts["partial"], counts["failed"], counts["pending"], len(todo), on)
	return nil
}

// printCountPlan prints the counted instrument's progress per version in
// collection order, marks the version count takes next, and sums it up;
// planned is the counting runs planned per cell.
func printCountPlan(w io.Writer, versions []runner.VersionCounts, planned int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ORDER\tVERSION\tPHASE\tCOUNTED\tPARTIAL\tFAILED\tPENDING\tSTATE")
	var sum runner.VersionCounts
	next := ""
	for i, v := range versions {
		state := "done"
		switch {
		case v.Partial+v.Pending() == 0:
		case next == "":
			next, state = v.Version, "next"
		default:
			state = "pending"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d/%d\t%d\t%d\t%d\t%s\n", i+1, v.Version, v.Phase, v.Counted, v.Cells, v.Partial, v.Failed, v.Pending(), state)
		sum.Cells, sum.Counted, sum.Partial, sum.Failed = sum.Cells+v.Cells, sum.Counted+v.Counted, sum.Partial+v.Partial, sum.Failed+v.Failed
	}
	tw.Flush()
	if next == "" {
		next = "nothing, every cell is counted or failed to build"
	}
	fmt.Fprintf(w, "%d versions, %d cells (%d counting runs each): %d counted, %d partial, %d failed to build, %d pending; next: %s\n",
		len(versions), sum.Cells, planned, sum.Counted, sum.Partial, sum.Failed, sum.Pending(), next)
}

// planClass is the hardware class whose repeats plan counts ("" for every
// machine's): flag's class, which must be in d or this machine's own, else
// this machine's.
func planClass(d *store.Data, flag string) (string, error) {
	if flag == "all" {
		return "", nil
	}
	own, err := hwclass.Choose(d, hwclass.Identify(d, machine.Identify()), "")
	if flag == "" || err != nil || flag == own {
		return own, err
	}
	known := hwclass.Known(d)
	if !slices.Contains(known, flag) {
		return "", fmt.Errorf("hardware class %q is not in the data (%s)", flag, classChoices(known))
	}
	return flag, nil
}

// classChoices says which values -hardware takes.
func classChoices(known []string) string {
	if len(known) == 0 {
		return `no machine recorded yet; "all" counts every machine`
	}
	return `its classes: "` + strings.Join(known, `", "`) + `"; or "all"`
}

func cmdMerge(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "output data directory (its existing tables are kept and merged into)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		return errors.New("usage: collector merge -out DIR IN_DIR...")
	}
	all, err := store.Load(*out)
	if err != nil {
		return err
	}
	for _, in := range fs.Args() {
		if _, err := os.Stat(in); err != nil {
			return fmt.Errorf("merge input: %w", err)
		}
		d, err := store.Load(in)
		if err != nil {
			return err
		}
		if err := all.MachineConflict(d); err != nil {
			return fmt.Errorf("merge %s: %w; nothing merged", in, err)
		}
		if err := runner.SetupConflict(all, d); err != nil {
			return fmt.Errorf("merge %s: %w; nothing merged", in, err)
		}
		all.Merge(d)
	}
	if err := all.Save(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "merged %d inputs into %s: %d builds, %d runs, %d results\n", fs.NArg(), *out, len(all.Builds), len(all.Runs), len(all.Results))
	return nil
}

// cmdDumpDiff compares two counting runs' dumps (collector count -keep-dumps,
// or the dumps -redo-differing keeps of a pair whose repeats differ).
func cmdDumpDiff(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dumpdiff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	top := fs.Int("top", 10, "functions listed per differing test, for calls and for own instructions")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return errors.New("usage: collector dumpdiff [-top N] DIR_A DIR_B (two folders of test-NN.callgrind dumps)")
	}
	a, b := fs.Arg(0), fs.Arg(1)
	diffs, err := count.CompareDumpDirs(a, b)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "A: %s\nB: %s\n", a, b)
	same, first := 0, ""
	for _, d := range diffs {
		if d.Same() {
			same++
			fmt.Fprintf(stdout, "%s: same in every event and function\n", d.File)
			continue
		}
		if first == "" {
			first = d.File
		}
		if d.Missing != "" {
			fmt.Fprintf(stdout, "%s: missing in %s\n", d.File, d.Missing)
			continue
		}
		var parts []string
		for _, e := range d.Events {
			if x, y := d.TotalsA[e], d.TotalsB[e]; x != y {
				parts = append(parts, fmt.Sprintf("%s %d / %d (%+d)", e, x, y, x-y))
			}
		}
		if len(parts) == 0 {
			parts = []string{"the same totals, spread differently over the functions"}
		}
		fmt.Fprintf(stdout, "%s: %s\n", d.File, strings.Join(parts, ", "))
		list := func(label string, l []count.NameDiff) {
			if len(l) == 0 {
				return
			}
			var items []string
			for i, n := range l {
				if i == *top {
					items = append(items, fmt.Sprintf("%d more", len(l)-i))
					break
				}
				items = append(items, fmt.Sprintf("%s %d / %d", n.Name, n.A, n.B))
			}
			fmt.Fprintf(stdout, "  %s: %s\n", label, strings.Join(items, "; "))
		}
		list("calls", d.Calls)
		list("own Ir", d.Self)
	}
	if first == "" {
		fmt.Fprintf(stdout, "all %d tests the same in every event and function\n", len(diffs))
	} else {
		fmt.Fprintf(stdout, "%d of %d tests differ, the first %s\n", len(diffs)-same, len(diffs), first)
	}
	return nil
}

func cmdStats(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "public/data", "data directory")
	compare := fs.String("compare", "", "a second, independent collection of the same cells: print run-to-run noise")
	precision := fs.Bool("precision", false, "print, per version and mode with precision runs, each configuration's effect against -baseline with its bootstrap interval and median CV, and the same for those versions' reference runs")
	configPath := fs.String("config", defaultConfig(), "matrix file (TOML): which modes are precision modes (with -precision)")
	baseline := fs.String("baseline", "gcc|-O2", "baseline configuration, compiler|flag set (with -precision)")
	seed := fs.Uint("seed", uint(stats.DefaultOptions.Seed), "bootstrap seed (with -precision)")
	versions := fs.String("versions", "", "with -precision: comma-separated versions to print, reference runs included, even without precision runs")
	calibrate := fs.Bool("model", false, "print, per precision mode, the counts calibrated against its rounds' effects on -baseline: least-squares cost models validated by leaving one version out (docs/method.md)")
	gap := fs.Duration("stretch-gap", report.StretchGap, "a pause of this long or more between a machine's builds and runs starts a new stretch of collection")
	if err := fs.Parse(args); err != nil {
		return err
	}
	d, err := store.Load(*data)
	if err != nil {
		return err
	}
	if *calibrate {
		cfg, err := config.Load(*configPath)
		if err != nil {
			return err
		}
		o := stats.DefaultOptions
		o.Seed = uint32(*seed)
		model.Print(stdout, d, modeNames(cfg.Bench.Precision), modeNames(cfg.Bench.Modes), *baseline, o)
		return nil
	}
	if *precision {
		cfg, err := config.Load(*configPath)
		if err != nil {
			return err
		}
		o := stats.DefaultOptions
		o.Seed = uint32(*seed)
		var only []string
		if *versions != "" {
			only = strings.Split(*versions, ",")
		}
		report.Precision(stdout, d, modeNames(cfg.Bench.Precision), modeNames(cfg.Bench.Modes), only, *baseline, o)
		minTime := map[string]time.Duration{}
		for _, m := range cfg.Bench.Precision {
			minTime[m.Name] = m.MinTime.Duration
		}
		report.ShortTests(stdout, d, minTime)
		return nil
	}
	report.Times(stdout, d)
	report.Counts(stdout, d)
	report.GuestCPUs(stdout, d)
	report.Totals(stdout, d)
	report.Builds(stdout, d)
	report.Integrity(stdout, d)
	report.RebuildBands(stdout, d.MeasureRebuildBands())
	report.PrintStretches(stdout, d, *gap)
	report.Spread(stdout, d)
	report.Probes(stdout, d)
	report.Steal(stdout, d)
	report.ServerTime(stdout, d)
	report.Machines(stdout, d)
	report.Redone(stdout, d)
	if *compare != "" {
		other, err := store.Load(*compare)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout)
		report.Noise(stdout, d, other)
	}
	return nil
}

// cmdBands measures the rebuild bands of a data directory's counts, writes
// them there (rebuild_bands.parquet, alone: no other table is rewritten) and
// prints them; with -n it only prints.
func cmdBands(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bands", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "public/data", "data directory")
	dryRun := fs.Bool("n", false, "print the bands without writing them")
	if err := fs.Parse(args); err != nil {
		return err
	}
	d, err := store.Load(*data)
	if err != nil {
		return err
	}
	if *dryRun {
		report.RebuildBands(stdout, d.MeasureRebuildBands())
		return nil
	}
	if err := d.WriteRebuildBands(*data); err != nil {
		return err
	}
	report.RebuildBands(stdout, d.RebuildBands)
	fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(*data, store.RebuildBandsFile))
	return nil
}

// modeNames are the names of modes.
func modeNames(modes []config.Mode) []string {
	var out []string
	for _, m := range modes {
		out = append(out, m.Name)
	}
	return out
}

// redoFlags are the rules for measuring runs again, shared by run and recover.
type redoFlags struct {
	failed       bool
	noisy, steal float64
	before       timeFlag
}

func (r *redoFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&r.failed, "retry-failed", false, "rebuild cells whose last build failed and redo runs whose server failed")
	fs.Float64Var(&r.noisy, "redo-noisy", 0, "redo runs during which other processes used more than this percent of a CPU (0: never)")
	fs.Float64Var(&r.steal, "redo-steal", 0, "redo runs during which the VM's host took more than this percent of a CPU (runs.steal_pct; 0: never)")
	fs.Var(&r.before, "redo-before", "redo runs started before this UTC time (2006-01-02T15:04:05Z), e.g. after fixing how a run is measured")
}

func (r *redoFlags) rules() runner.Redo {
	return runner.Redo{Failed: r.failed, NoisyPercent: r.noisy, StealPercent: r.steal, Before: r.before.t}
}

// cmdRecover adds to a dataset's redone tables the runs that earlier versions
// of it (e.g. checkouts of its git history) had and that were measured again
// before the collector kept redone runs (0.1.7).
func cmdRecover(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("recover", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "public/data", "the dataset to add the recovered runs to")
	var redo redoFlags
	redo.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("usage: collector recover [-data DIR] [-redo-... rules as given to run] EARLIER_DATA_DIR...")
	}
	for _, in := range fs.Args() {
		if _, err := os.Stat(in); err != nil {
			return fmt.Errorf("recover input: %w", err)
		}
	}
	d, err := store.Load(*data)
	if err != nil {
		return err
	}
	if len(d.Runs) == 0 {
		return fmt.Errorf("recover: no runs in %s", *data)
	}
	var earlier []*store.Data
	for _, in := range fs.Args() {
		e, err := store.Load(in)
		if err != nil {
			return err
		}
		earlier = append(earlier, e)
	}
	n, orphans := runner.Recover(d, earlier, redo.rules())
	if err := d.Save(*data); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "recovered %d runs measured again from %d earlier versions (%d left out: their cell, mode and repeat is not in %s); %d redone runs in all\n",
		n, len(earlier), orphans, *data, len(d.RedoneRuns))
	return nil
}

// timeFlag is a flag holding an RFC 3339 time.
type timeFlag struct{ t time.Time }

func (f *timeFlag) String() string {
	if f.t.IsZero() {
		return ""
	}
	return f.t.Format(time.RFC3339)
}

func (f *timeFlag) Set(s string) error {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return fmt.Errorf("want a time like 2026-11-22T04:55:00Z, got %q", s)
	}
	f.t = t
	return nil
}
