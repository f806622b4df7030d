package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/count"
)

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
