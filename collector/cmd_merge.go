package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/redis-compiler-benchmarks/collector/internal/runner"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

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
