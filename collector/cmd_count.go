package main

import (
	"context"
	"flag"
	"io"

	"github.com/redis-compiler-benchmarks/collector/internal/runner"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func cmdCount(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("count", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f sourceFlags
	f.counted = true
	f.register(fs)
	retry := fs.Bool("retry-failed", false, "count again the runs whose server failed, and rebuild cells whose build failed")
	redo := fs.Bool("redo-differing", false, "count again, both repeats, each (cell, mode) whose repeats of one build counted different instructions per request in some test (a disturbed run); each earlier run counts until its recount replaces it, then is kept in the superseded tables with the reason; checked when the collector starts and after each pass, up to two more passes")
	reference := fs.String("reference", "", "dataset whose Valgrind version, guest CPU signature and compiler versions the counts must match (default: -data); e.g. public/data when counting a shard into an empty directory")
	newDataset := fs.Bool("new-dataset", false, "count even when Valgrind, the guest CPU or a compiler is not the reference dataset's (the counts start a dataset of their own)")
	unhashed := fs.Bool("redo-unhashed", false, "count again, on a new build, each cell whose counting runs come from a build recorded without a code hash (builds.code_sha256 null) and whose binary is not at hand to hash; each earlier run counts until its recount replaces it, then is kept in the superseded tables with the reason")
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
