package report

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// countFigures are the per-request figures of a count, by name, in print order.
var countFigures = []struct {
	name string
	get  func(store.Count) *float64
}{
	{"instructions", func(c store.Count) *float64 { return c.InstructionsPerRequest }},
	{"L1 misses", func(c store.Count) *float64 { return c.L1MissesPerRequest }},
	{"LL misses", func(c store.Count) *float64 { return c.LLMissesPerRequest }},
	{"branch misses", func(c store.Count) *float64 { return c.BranchMissesPerRequest }},
	{"est. cycles", func(c store.Count) *float64 { return c.EstCyclesPerRequest }},
}

// Counts prints the counted instrument's coverage, its time per cell, the
// tests without a count by status, and, per mode and figure, the spread of
// the repeats of each (cell, test): (max - min) / min, median, p99 and max,
// and the share within 0.1%.
func Counts(w io.Writer, d *store.Data) {
	var earlier, redone []store.CountRun
	for _, r := range d.SupersededCountRuns {
		if r.Redone != nil {
			redone = append(redone, r)
		} else {
			earlier = append(earlier, r)
		}
	}
	if n := len(earlier); n > 0 {
		cells := map[string]bool{}
		protocols := map[int]bool{}
		for _, r := range earlier {
			cells[r.CellID] = true
			protocols[store.ProtocolOf(r)] = true
		}
		var ps []string
		for p := range protocols {
			ps = append(ps, strconv.Itoa(p))
		}
		sort.Strings(ps)
		fmt.Fprintf(w, "counts: protocol %d; %d runs of %d cells under earlier protocols (%s) are superseded, kept in %s, and not used\n",
			store.CountProtocol, n, len(cells), strings.Join(ps, ", "), store.SupersededCountRunsFile)
	}
	redoneRuns(w, redone)
	if len(d.CountRuns) == 0 {
		fmt.Fprintln(w, "counts: none yet (collector count)")
		return
	}
	perCell := map[string]float64{}
	var total float64
	for _, r := range d.CountRuns {
		perCell[r.CellID] += r.DurationSeconds
		total += r.DurationSeconds
	}
	var secs []float64
	for _, s := range perCell {
		secs = append(secs, s)
	}
	fmt.Fprintf(w, "counts: %d runs of %d cells; counting time per cell median %.0fs, max %.0fs; %.2f h in all (runs in parallel overlap)\n",
		len(d.CountRuns), len(perCell), Median(secs), max(secs), total/3600)
	statuses := map[string]int{}
	for _, c := range d.Counts {
		if c.Status != "ok" {
			statuses[c.Status]++
		}
	}
	if len(statuses) > 0 {
		names := make([]string, 0, len(statuses))
		for s := range statuses {
			names = append(names, s)
		}
		sort.Strings(names)
		for _, s := range names {
			fmt.Fprintf(w, "counts: %d tests %s\n", statuses[s], s)
		}
	}
	for _, mode := range countModes(d) {
		for _, f := range countFigures {
			spreads := slices.Collect(maps.Values(countSpreads(d, mode, f.get)))
			if len(spreads) == 0 {
				continue
			}
			within := 0
			for _, s := range spreads {
				if s <= 0.1 {
					within++
				}
			}
			fmt.Fprintf(w, "counts, mode %s, %s per request: repeat spread median %.4f%%, p99 %.4f%%, max %.4f%%; %d of %d (cell, test) within 0.1%%\n",
				mode, f.name, Median(spreads), Quantile(spreads, 0.99), max(spreads), within, len(spreads))
		}
		beyond := countSpreads(d, mode, countFigures[0].get)
		keys := slices.SortedFunc(maps.Keys(beyond), func(a, b [2]string) int { return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) })
		for _, k := range keys {
			if beyond[k] > 0.1 {
				fmt.Fprintf(w, "counts, mode %s: %s %s: instructions per request %.4f%% apart (> 0.1%%)\n", mode, k[0], k[1], beyond[k])
			}
		}
	}
}

func countModes(d *store.Data) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range d.CountRuns {
		if !seen[r.Mode] {
			seen[r.Mode] = true
			out = append(out, r.Mode)
		}
	}
	sort.Strings(out)
	return out
}

// countSpreads is, per (cell, test) of mode with two or more counts of one
// build, the spread of the figure in percent: (max - min) / min, the largest
// over its builds.
func countSpreads(d *store.Data, mode string, get func(store.Count) *float64) map[[2]string]float64 {
	out := map[[2]string]float64{}
	for k, sp := range d.RepeatSpans(get) {
		if k.Mode == mode && sp.N >= 2 && sp.Lo > 0 {
			cell := [2]string{k.Cell, k.Test}
			out[cell] = math.Max(out[cell], 100*sp.Spread())
		}
	}
	return out
}

// redoneRuns says which runs of the current protocol were counted again and
// why, by kind: repeats that differed (each cell and mode with its reason),
// builds whose jemalloc took the host's virtual address bits, and cells
// resumed on a rebuild of other code (per version, with how many cells).
func redoneRuns(w io.Writer, redone []store.CountRun) {
	kinds := []struct {
		prefix, header string
		perVersion     bool
	}{
		{"repeats differed", "counted again because their repeats differed (collector count -redo-differing)", false},
		{"built with jemalloc", "counted again on a rebuild because their build's jemalloc took the build host's virtual address bits (docs/method.md, Build protocol)", true},
		{"counted on build", "counted again on the cell's later build, which is other code", true},
	}
	for _, k := range kinds {
		why := map[string]string{}
		var cellIDs []string
		runs := 0
		for _, r := range redone {
			if strings.HasPrefix(*r.Redone, k.prefix) {
				why[r.CellID+" "+r.Mode] = *r.Redone
				cellIDs = append(cellIDs, r.CellID)
				runs++
			}
		}
		if runs == 0 {
			continue
		}
		if !k.perVersion {
			fmt.Fprintf(w, "counts: %d runs of %d (cell, mode) %s, kept in %s:\n", runs, len(why), k.header, store.SupersededCountRunsFile)
			for _, key := range slices.Sorted(maps.Keys(why)) {
				fmt.Fprintf(w, "counts:   %s: %s\n", key, why[key])
			}
			continue
		}
		cells := map[string]map[string]bool{} // version -> cells
		var versions []string
		for _, cell := range cellIDs {
			v, _, _ := strings.Cut(cell, "|")
			if cells[v] == nil {
				cells[v] = map[string]bool{}
				versions = append(versions, v)
			}
			cells[v][cell] = true
		}
		sort.Slice(versions, func(i, j int) bool { return config.CompareVersions(versions[i], versions[j]) < 0 })
		var parts []string
		n := 0
		for _, v := range versions {
			parts = append(parts, fmt.Sprintf("%s (%d)", v, len(cells[v])))
			n += len(cells[v])
		}
		fmt.Fprintf(w, "counts: %d runs of %d cells %s, kept in %s: %s\n", runs, n, k.header, store.SupersededCountRunsFile, strings.Join(parts, ", "))
	}
}
