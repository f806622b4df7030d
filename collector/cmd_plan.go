package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/redis-compiler-benchmarks/collector/internal/hwclass"
	"github.com/redis-compiler-benchmarks/collector/internal/machine"
	"github.com/redis-compiler-benchmarks/collector/internal/report"
	"github.com/redis-compiler-benchmarks/collector/internal/runner"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

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
