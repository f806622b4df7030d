package main

import (
	"context"
	"flag"
	"io"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/runner"
)

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
