package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/model"
	"github.com/redis-compiler-benchmarks/collector/internal/report"
	"github.com/redis-compiler-benchmarks/collector/internal/stats"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

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
	if st, err := os.Stat(*data); err != nil || !st.IsDir() {
		return fmt.Errorf("no data directory %s (-data)", *data)
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

// modeNames are the names of modes.
func modeNames(modes []config.Mode) []string {
	var out []string
	for _, m := range modes {
		out = append(out, m.Name)
	}
	return out
}
