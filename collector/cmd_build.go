package main

import (
	"context"
	"flag"
	"io"

	"github.com/redis-compiler-benchmarks/collector/internal/runner"
)

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
