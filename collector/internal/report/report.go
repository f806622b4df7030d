// Package report summarises a dataset for the collector's own benchmarks:
// where a cell's time goes (source, dependencies, build, benchmark, collector
// overhead), the machine time and failures of a collection, how far the repeats
// of one collection spread, and how much the best-of-repeats figure moves
// between two independent collections of the same cells (run-to-run noise).
package report

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/redis-compiler-benchmarks/collector/internal/hwclass"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// Times prints, per built or counted cell, the seconds spent on each step
// (counting: the sum of its counting runs, which overlap when run in
// parallel) and the collector's overhead as a share of the cell's wall time
// outside counting, then the medians.
func Times(w io.Writer, d *store.Data) {
	type cellTime struct{ src, deps, build, bench, count, over float64 }
	cells := map[string]*cellTime{}
	var order []string
	get := func(id string) *cellTime {
		if cells[id] == nil {
			cells[id] = &cellTime{}
			order = append(order, id)
		}
		return cells[id]
	}
	for _, b := range d.Builds {
		ct := get(b.CellID)
		ct.src += b.SourceSeconds
		ct.deps += b.DepsSeconds
		ct.build += b.BuildSeconds
	}
	for _, r := range d.CountRuns {
		get(r.CellID).count += r.DurationSeconds
	}
	for _, r := range d.Runs {
		if ct := cells[r.CellID]; ct != nil {
			ct.bench += r.DurationSeconds
			ct.over += r.OverheadSeconds
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "cell\tsource s\tdeps s\tbuild s\tbench s\tcount s\toverhead s\toverhead %\t")
	var shares, src, deps, bld, bench, count []float64
	for _, id := range order {
		ct := cells[id]
		share := 0.0
		if total := ct.src + ct.deps + ct.build + ct.bench + ct.over; total > 0 {
			share = 100 * ct.over / total
		}
		fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.3f\t%.3f\t\n", id, ct.src, ct.deps, ct.build, ct.bench, ct.count, ct.over, share)
		shares, src, deps, bld = append(shares, share), append(src, ct.src), append(deps, ct.deps), append(bld, ct.build)
		bench, count = append(bench, ct.bench), append(count, ct.count)
	}
	tw.Flush()
	fmt.Fprintf(w, "%d cells; median seconds: source %.1f, deps %.1f, build %.1f, bench %.1f, count %.1f; collector overhead median %.3f%%, max %.3f%% of cell wall time\n",
		len(order), Median(src), Median(deps), Median(bld), Median(bench), Median(count), Median(shares), max(shares))
}

// Best is the best (highest) requests/second of each (cell, mode, test) over
// its repeats, as the site shows it.
func Best(d *store.Data) map[[3]string]float64 {
	out := map[[3]string]float64{}
	for _, r := range d.Results {
		if r.Status != "ok" || r.RPS == nil {
			continue
		}
		k := [3]string{r.CellID, r.Mode, r.Test}
		if *r.RPS > out[k] {
			out[k] = *r.RPS
		}
	}
	return out
}

// Noise prints, per mode and test, the relative difference of the best-of-
// repeats figure between two independent collections a and b of the same
// cells: |a-b| / mean(a,b), median over cells; then the median per mode.
func Noise(w io.Writer, a, b *store.Data) {
	ba, bb := Best(a), Best(b)
	perTest := map[[2]string][]float64{}
	perMode := map[string][]float64{}
	for k, va := range ba {
		vb, ok := bb[k]
		if !ok {
			continue
		}
		s := 100 * math.Abs(va-vb) / ((va + vb) / 2)
		perTest[[2]string{k[1], k[2]}] = append(perTest[[2]string{k[1], k[2]}], s)
		perMode[k[1]] = append(perMode[k[1]], s)
	}
	var keys [][2]string
	for k := range perTest {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "mode\ttest\tcells\tmedian spread %\tmax spread %")
	for _, k := range keys {
		v := perTest[k]
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.2f\t%.2f\n", k[0], k[1], len(v), Median(v), max(v))
	}
	tw.Flush()
	for _, m := range slices.Sorted(maps.Keys(perMode)) {
		fmt.Fprintf(w, "mode %s: median run-to-run spread of best-of-repeats %.2f%% over %d (cell, test) pairs\n", m, Median(perMode[m]), len(perMode[m]))
	}
}

// Totals prints the machine time a collection took and what failed: cells
// built and failed (by their latest build), runs, and runs whose server
// failed. Counting time is the counting runs' own, which overlap when run in
// parallel (Stretches has the wall time).
func Totals(w io.Writer, d *store.Data) {
	var build, bench float64
	latest := map[string]store.Build{}
	for _, b := range d.Builds {
		build += b.SourceSeconds + b.DepsSeconds + b.BuildSeconds
		if prev, ok := latest[b.CellID]; !ok || !b.StartedAt.Before(prev.StartedAt) {
			latest[b.CellID] = b
		}
	}
	failed := 0
	for _, b := range latest {
		if b.Status != "ok" {
			failed++
		}
	}
	serverFailed := 0
	for _, r := range d.Runs {
		bench += r.DurationSeconds + r.OverheadSeconds
		if r.Status == "server_failed" {
			serverFailed++
		}
	}
	var count float64
	counted := map[string]bool{}
	for _, r := range d.CountRuns {
		count += r.DurationSeconds
		counted[r.CellID] = true
	}
	fmt.Fprintf(w, "machine time: %.2f h building (sources, dependencies, servers), %.2f h benchmarking, %.2f h counting (counting runs, summed); %d cells built, %d failed to build; %d runs, %d with a failed server; %d counting runs of %d cells\n",
		build/3600, bench/3600, count/3600, len(latest)-failed, failed, len(d.Runs), serverFailed, len(d.CountRuns), len(counted))
}

// ClassOfRun maps each run id to its machine's hardware class (hwclass.Of;
// "unknown machine" when the machines table lacks it).
func ClassOfRun(d *store.Data) map[string]string {
	class := hwclass.ByMachine(d)
	out := map[string]string{}
	for _, r := range d.Runs {
		c, ok := class[r.MachineID]
		if !ok {
			c = "unknown machine"
		}
		out[r.RunID] = c
	}
	return out
}

// Hardware prints, per hardware class, its machines, runs and the cells it has
// measured: each class is a dataset of its own (repeats count per class).
func Hardware(w io.Writer, d *store.Data) {
	type class struct {
		machines, cells map[string]bool
		runs            int
	}
	classes := map[string]*class{}
	get := func(hw string) *class {
		if classes[hw] == nil {
			classes[hw] = &class{machines: map[string]bool{}, cells: map[string]bool{}}
		}
		return classes[hw]
	}
	for _, m := range d.Machines {
		get(hwclass.Of(m)).machines[m.MachineID] = true
	}
	classOf := ClassOfRun(d)
	for _, r := range d.Runs {
		c := get(classOf[r.RunID])
		c.runs++
		c.cells[r.CellID] = true
	}
	for _, hw := range slices.Sorted(maps.Keys(classes)) {
		c := classes[hw]
		fmt.Fprintf(w, "hardware %s: machines %s; %d runs, %d cells measured\n",
			hw, strings.Join(slices.Sorted(maps.Keys(c.machines)), ", "), c.runs, len(c.cells))
	}
}

// Spread prints, per hardware class and mode, how far the repeats of each
// (cell, test) lie apart within this collection, (best - worst) / best as the
// site's noise rule takes it: the median and the largest, over the pairs with
// two or more repeats. Classes are never mixed, as on the site.
func Spread(w io.Writer, d *store.Data) {
	type key [4]string // class, cell, mode, test
	classOf := ClassOfRun(d)
	best, worst, n := map[key]float64{}, map[key]float64{}, map[key]int{}
	for _, r := range d.Results {
		if r.Status != "ok" || r.RPS == nil {
			continue
		}
		k, v := key{classOf[r.RunID], r.CellID, r.Mode, r.Test}, *r.RPS
		if n[k] == 0 || v > best[k] {
			best[k] = v
		}
		if n[k] == 0 || v < worst[k] {
			worst[k] = v
		}
		n[k]++
	}
	type group [2]string // class, mode
	perGroup := map[group][]float64{}
	top := map[group]key{}
	for k, c := range n {
		if c < 2 || best[k] <= 0 {
			continue
		}
		g := group{k[0], k[2]}
		s := 100 * (best[k] - worst[k]) / best[k]
		if t, ok := top[g]; !ok || s > 100*(best[t]-worst[t])/best[t] {
			top[g] = k
		}
		perGroup[g] = append(perGroup[g], s)
	}
	if len(perGroup) == 0 {
		fmt.Fprintln(w, "repeats: no (cell, test) has two measured repeats on one hardware class yet, so no spread")
		return
	}
	groups := slices.SortedFunc(maps.Keys(perGroup), func(a, b group) int { return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) })
	for _, g := range groups {
		t := top[g]
		fmt.Fprintf(w, "%s, mode %s: spread of repeats median %.2f%%, max %.2f%% (%s %s), over %d (cell, test) pairs with 2+ repeats\n",
			g[0], g[1], Median(perGroup[g]), max(perGroup[g]), t[1], t[3], len(perGroup[g]))
	}
}

// Median of xs (0 for none).
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func max(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}

// Probes prints, per machine, the host-speed probe around its runs
// (runs.mem_write_before/after): how many runs have it, the median of each
// side (they differ: the probe before follows the quiet wait, on an idle CPU;
// the one after follows the benchmark and the server's exit), and how many
// runs had a probe below 75% of its side's median (a host slower than usual).
func Probes(w io.Writer, d *store.Data) {
	type side struct{ before, after []float64 }
	perMachine := map[string]*side{}
	for _, r := range d.Runs {
		if r.MemWriteBefore == nil || r.MemWriteAfter == nil {
			continue
		}
		s := perMachine[r.MachineID]
		if s == nil {
			s = &side{}
			perMachine[r.MachineID] = s
		}
		s.before = append(s.before, *r.MemWriteBefore)
		s.after = append(s.after, *r.MemWriteAfter)
	}
	if len(perMachine) == 0 {
		fmt.Fprintln(w, "host probe: no run has one yet (collector 0.1.3 on)")
		return
	}
	for _, id := range slices.Sorted(maps.Keys(perMachine)) {
		s := perMachine[id]
		mb, ma := Median(s.before), Median(s.after)
		slow := 0
		for i := range s.before {
			if s.before[i] < 0.75*mb || s.after[i] < 0.75*ma {
				slow++
			}
		}
		fmt.Fprintf(w, "host probe %s: memory write median %.1f GB/s before, %.1f after, over %d runs; %d runs with a probe below 75%% of its median\n",
			id, mb/1e9, ma/1e9, len(s.before), slow)
	}
}

// Steal prints, per machine, the CPU time its host took while its runs were
// measured (runs.steal_pct, percent of one CPU): the median, the maximum, and
// how many runs lost 5% of a CPU or more.
func Steal(w io.Writer, d *store.Data) {
	perMachine := map[string][]float64{}
	for _, r := range d.Runs {
		if r.StealPct != nil {
			perMachine[r.MachineID] = append(perMachine[r.MachineID], *r.StealPct)
		}
	}
	if len(perMachine) == 0 {
		fmt.Fprintln(w, "host steal: no run has it yet (collector 0.1.6 on)")
		return
	}
	for _, id := range slices.Sorted(maps.Keys(perMachine)) {
		s := perMachine[id]
		high := 0
		for _, v := range s {
			if v >= 5 {
				high++
			}
		}
		fmt.Fprintf(w, "host steal %s: median %.1f%% of a CPU, max %.1f%%, over %d runs; %d runs with 5%% or more\n",
			id, Median(s), max(s), len(s), high)
	}
}

// Redone prints how many runs were measured again and why (the rules of
// redone_runs.redo_reason, a run counted under each rule it fell under), and
// per mode how fast each discarded run was against the run that replaced it:
// the median over its tests of discarded / replacement requests per second.
func Redone(w io.Writer, d *store.Data) {
	if len(d.RedoneRuns) == 0 {
		fmt.Fprintln(w, "runs measured again: none recorded (collector 0.1.7 on, or collector recover)")
		return
	}
	rps := map[string]map[string]float64{} // run id -> test -> rps
	add := func(results []store.Result) {
		for _, r := range results {
			if r.RPS != nil {
				if rps[r.RunID] == nil {
					rps[r.RunID] = map[string]float64{}
				}
				rps[r.RunID][r.Test] = *r.RPS
			}
		}
	}
	add(d.Results)
	add(d.RedoneResults)
	rules := map[string]int{}
	speed := map[string][]float64{} // mode -> per discarded run, its median ratio
	for _, r := range d.RedoneRuns {
		for _, part := range strings.Split(r.RedoReason, "; ") {
			rules[ruleName(part)]++
		}
		var ratios []float64
		for test, v := range rps[r.RunID] {
			if by, ok := rps[r.ReplacedBy][test]; ok && by > 0 {
				ratios = append(ratios, v/by)
			}
		}
		if len(ratios) > 0 {
			speed[r.Mode] = append(speed[r.Mode], Median(ratios))
		}
	}
	var why []string
	for _, name := range slices.Sorted(maps.Keys(rules)) {
		why = append(why, fmt.Sprintf("%s %d", name, rules[name]))
	}
	fmt.Fprintf(w, "runs measured again: %d (%s)\n", len(d.RedoneRuns), strings.Join(why, ", "))
	for _, mode := range slices.Sorted(maps.Keys(speed)) {
		fmt.Fprintf(w, "  %s mode: a discarded run measured a median %.3f of its replacement's speed (over %d runs; min %.3f, max %.3f)\n",
			mode, Median(speed[mode]), len(speed[mode]), slices.Min(speed[mode]), slices.Max(speed[mode]))
	}
}

// ruleName is the rule of one part of a redo reason: its words before the
// first figure or parenthesis ("host steal 26.9% > 10%" -> "host steal").
func ruleName(part string) string {
	var words []string
	for _, f := range strings.Fields(part) {
		if strings.HasPrefix(f, "(") || strings.ContainsAny(f[:1], "0123456789") {
			break
		}
		words = append(words, f)
	}
	return strings.Join(words, " ")
}

// Machines prints, for each machine with runs, how fast it measured the same
// (cell, mode, test) as the other machines of each hardware class with its CPU
// model and core count (its own class included): per mode, the median, p10 and
// p90 of its median requests/second over theirs, and the share of its figures
// above their best. Machines of one class should measure alike (a median near
// 1, a share near what chance gives: one in n+1 against n repeats); this is what to check before joining a
// machine to a class (run -hardware-class), and how a VM that hides its CPU
// generation behind a shared model name shows.
func Machines(w io.Writer, d *store.Data) {
	type key [3]string // cell, mode, test
	byMachine := map[string]store.Machine{}
	for _, m := range d.Machines {
		byMachine[m.MachineID] = m
	}
	machineOf := map[string]string{}
	for _, r := range d.Runs {
		machineOf[r.RunID] = r.MachineID
	}
	rps := map[string]map[key][]float64{} // machine -> key -> rps of its repeats
	for _, r := range d.Results {
		if r.Status != "ok" || r.RPS == nil || *r.RPS <= 0 {
			continue
		}
		id := machineOf[r.RunID]
		if rps[id] == nil {
			rps[id] = map[key][]float64{}
		}
		k := key{r.CellID, r.Mode, r.Test}
		rps[id][k] = append(rps[id][k], *r.RPS)
	}
	classes := map[string][]string{} // class -> machines with results
	for id := range rps {
		if m, ok := byMachine[id]; ok {
			classes[hwclass.Of(m)] = append(classes[hwclass.Of(m)], id)
		}
	}
	printed := false
	for _, id := range slices.Sorted(maps.Keys(rps)) {
		m, ok := byMachine[id]
		if !ok {
			continue
		}
		for _, class := range slices.Sorted(maps.Keys(classes)) {
			others := map[key][]float64{}
			for _, o := range classes[class] {
				om := byMachine[o]
				if o == id || om.CPUModel != m.CPUModel || om.Cores != m.Cores {
					continue
				}
				for k, v := range rps[o] {
					others[k] = append(others[k], v...)
				}
			}
			ratios, above := map[string][]float64{}, map[string]int{}
			for k, mine := range rps[id] {
				theirs := others[k]
				if len(theirs) == 0 {
					continue
				}
				med := Median(mine)
				ratios[k[1]] = append(ratios[k[1]], med/Median(theirs))
				if med > max(theirs) {
					above[k[1]]++
				}
			}
			for _, mode := range slices.Sorted(maps.Keys(ratios)) {
				r := ratios[mode]
				fmt.Fprintf(w, "machine %s (%s) against the other machines of %s, mode %s: median ratio %.3f (p10-p90 %.3f-%.3f), %.0f%% above their best, over %d (cell, test) pairs\n",
					id, hwclass.Of(m), class, mode, Median(r), Quantile(r, 0.1), Quantile(r, 0.9), 100*float64(above[mode])/float64(len(r)), len(r))
				printed = true
			}
		}
	}
	if !printed {
		fmt.Fprintln(w, "machines: no two machines of one CPU model and core count measured the same (cell, mode, test) yet")
	}
}

// Quantile of xs at q in [0, 1], interpolated between the closest ranks (as
// DuckDB's quantile_cont); 0 for none.
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[lo] + (pos-float64(lo))*(s[lo+1]-s[lo])
}
