package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/redis-compiler-benchmarks/collector/internal/report"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

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
