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
	"slices"
	"strings"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/runner"
	"github.com/redis-compiler-benchmarks/collector/internal/source"
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
