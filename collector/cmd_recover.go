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
