package report

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/count"
	"github.com/redis-compiler-benchmarks/collector/internal/hwclass"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// maxApartListed is how many (cell, test) beyond 0.1% GuestCPUs lists per
// group of counters.
const maxApartListed = 10

// counter is who counted a run: a machine and the guest CPU it showed under
// Valgrind ("" when not recorded: "unrecorded").
type counter struct{ machine, guest string }

func (c counter) String() string { return c.machine + " (guest CPU " + guestName(c.guest) + ")" }

func guestName(sig string) string {
	if sig == "" {
		return "unrecorded"
	}
	return count.ShortHash(sig)
}

func counterOf(r store.CountRun) counter {
	c := counter{machine: r.MachineID}
	if r.GuestCPU != nil {
		c.guest = *r.GuestCPU
	}
	return c
}

// GuestCPUs prints the CPUs the counted servers saw under Valgrind
// (count_runs.guest_cpu): per signature, its runs and the machines that
// counted them with their host CPU and hardware class, and the signature
// itself. Then, per mode and group of counters (machine, guest CPU) that
// counted the same (cell, test), how far apart their counts of instructions
// per request are: (max - min) / min of each counter's median.
func GuestCPUs(w io.Writer, d *store.Data) {
	if len(d.CountRuns) == 0 {
		return
	}
	runs := map[string]int{}
	machines := map[string]map[string]bool{}
	for _, r := range d.CountRuns {
		c := counterOf(r)
		runs[c.guest]++
		if machines[c.guest] == nil {
			machines[c.guest] = map[string]bool{}
		}
		machines[c.guest][c.machine] = true
	}
	described := map[string]store.Machine{}
	for _, m := range d.Machines {
		described[m.MachineID] = m
	}
	sigs := slices.SortedFunc(maps.Keys(runs), func(a, b string) int {
		// Recorded ones first, most runs first.
		return cmp.Or(cmp.Compare(b2i(a == ""), b2i(b == "")), cmp.Compare(runs[b], runs[a]), strings.Compare(a, b))
	})
	for _, sig := range sigs {
		name := guestName(sig)
		if sig != "" {
			name += " (" + count.GuestCPUSummary(sig) + ")"
		}
		var on []string
		for _, id := range slices.Sorted(maps.Keys(machines[sig])) {
			on = append(on, describeMachine(id, described))
		}
		fmt.Fprintf(w, "counts, guest CPU %s: %s on %s: %s\n", name, plural(runs[sig], "run"), plural(len(on), "machine"), strings.Join(on, "; "))
		if sig != "" {
			fmt.Fprintf(w, "counts, guest CPU %s = %s\n", count.ShortHash(sig), sig)
		}
	}
	acrossCounters(w, d)
}

// describeMachine is "id (CPU model, family F model M stepping S; class C)".
func describeMachine(id string, described map[string]store.Machine) string {
	m, ok := described[id]
	if !ok {
		return id + " (not described)"
	}
	cpu := m.CPUModel
	if m.CPUID != nil && *m.CPUID != "" {
		cpu += ", " + *m.CPUID
	}
	return fmt.Sprintf("%s (%s; class %q)", id, cpu, hwclass.Of(m))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// countKey is a (mode, cell, test).
type countKey struct{ mode, cell, test string }

// counterGroup is a mode and the counters, named, that counted its (cell, test)s.
type counterGroup struct{ mode, counters string }

// acrossCounters prints, per mode and group of counters, the spread between
// the counters of each (cell, test) that two or more of them counted.
func acrossCounters(w io.Writer, d *store.Data) {
	values, codes := countsByCounter(d)
	spreads, medians := spreadsByGroup(values, codes)
	if len(spreads) == 0 {
		fmt.Fprintln(w, "counts across machines: no (cell, test) counted on two machines or under two guest CPUs")
		return
	}
	groups := slices.SortedFunc(maps.Keys(spreads), func(a, b counterGroup) int {
		return cmp.Or(strings.Compare(a.mode, b.mode), strings.Compare(a.counters, b.counters))
	})
	for _, g := range groups {
		printGroup(w, g, spreads[g], medians)
	}
}

// countsByCounter is each (mode, cell, test)'s instructions per request, by
// counter, and the code hashes of the builds counted (builds.code_sha256, ""
// where not recorded).
func countsByCounter(d *store.Data) (map[countKey]map[counter][]float64, map[countKey]map[string]bool) {
	counterOfRun := map[string]counter{}
	for _, r := range d.CountRuns {
		counterOfRun[r.RunID] = counterOf(r)
	}
	codeOf := map[string]string{}
	for _, b := range d.Builds {
		if b.CodeSHA256 != nil {
			codeOf[b.BuildID] = *b.CodeSHA256
		}
	}
	values := map[countKey]map[counter][]float64{}
	codes := map[countKey]map[string]bool{}
	for _, c := range d.Counts {
		who, ok := counterOfRun[c.RunID]
		if !ok || c.Status != "ok" || c.InstructionsPerRequest == nil || *c.InstructionsPerRequest <= 0 {
			continue
		}
		k := countKey{c.Mode, c.CellID, c.Test}
		if values[k] == nil {
			values[k], codes[k] = map[counter][]float64{}, map[string]bool{}
		}
		values[k][who] = append(values[k][who], *c.InstructionsPerRequest)
		codes[k][codeOf[c.BuildID]] = true
	}
	return values, codes
}

// spreadsByGroup is, for each (mode, cell, test) of two or more counters, in
// its group, the spread of the counters' medians in percent, (max - min) /
// min; and each one's medians, "machine/guest median, ...". A group names
// its counters, whether they showed one guest CPU, and whether they counted
// one code (codes: the code hashes of the builds they counted).
func spreadsByGroup(values map[countKey]map[counter][]float64, codes map[countKey]map[string]bool) (map[counterGroup]map[countKey]float64, map[countKey]string) {
	spreads := map[counterGroup]map[countKey]float64{}
	medians := map[countKey]string{}
	for k, by := range values {
		if len(by) < 2 {
			continue
		}
		who := slices.SortedFunc(maps.Keys(by), func(a, b counter) int {
			return cmp.Or(strings.Compare(a.machine, b.machine), strings.Compare(a.guest, b.guest))
		})
		lo, hi := math.Inf(1), math.Inf(-1)
		var names, figures []string
		for _, c := range who {
			m := Median(by[c])
			lo, hi = math.Min(lo, m), math.Max(hi, m)
			names = append(names, c.String())
			figures = append(figures, fmt.Sprintf("%s/%s %.1f", c.machine, guestName(c.guest), m))
		}
		g := counterGroup{k.mode, strings.Join(names, " vs ") + sameOrNot(who) + sameCode(codes[k])}
		if spreads[g] == nil {
			spreads[g] = map[countKey]float64{}
		}
		spreads[g][k] = 100 * (hi - lo) / lo
		medians[k] = strings.Join(figures, ", ")
	}
	return spreads, medians
}

// printGroup prints a group's spreads and its (cell, test)s beyond 0.1%,
// widest first, at most maxApartListed.
func printGroup(w io.Writer, g counterGroup, spreads map[countKey]float64, medians map[countKey]string) {
	s := slices.Collect(maps.Values(spreads))
	within := 0
	for _, v := range s {
		if v <= 0.1 {
			within++
		}
	}
	fmt.Fprintf(w, "counts across machines, mode %s, %s: %d (cell, test) counted by each; instructions per request apart median %.4f%%, p99 %.4f%%, max %.4f%%; %d of %d within 0.1%%\n",
		g.mode, g.counters, len(s), Median(s), Quantile(s, 0.99), max(s), within, len(s))
	apart := slices.SortedFunc(maps.Keys(spreads), func(a, b countKey) int {
		return cmp.Or(cmp.Compare(spreads[b], spreads[a]), strings.Compare(a.cell, b.cell), strings.Compare(a.test, b.test))
	})
	for i, k := range apart[:len(s)-within] {
		if i == maxApartListed {
			fmt.Fprintf(w, "counts across machines, mode %s: ... and %d more beyond 0.1%%\n", g.mode, len(s)-within-i)
			break
		}
		fmt.Fprintf(w, "counts across machines, mode %s: %s %s: %s: %.4f%% apart (> 0.1%%)\n", g.mode, k.cell, k.test, medians[k], spreads[k])
	}
}

// sameOrNot says whether counters showed the same guest CPU.
func sameOrNot(who []counter) string {
	for _, c := range who {
		if c.guest == "" {
			return ""
		}
		if c.guest != who[0].guest {
			return ", different guest CPUs"
		}
	}
	return ", same guest CPU"
}

// sameCode says whether the builds counted had one code hash: the same
// binary to the instruction (a rebuild of a reproducible build, or one
// binary counted twice), or different code (a rebuild that was not); nothing
// when a build's hash was not recorded.
func sameCode(codes map[string]bool) string {
	switch {
	case len(codes) == 0 || codes[""]:
		return ""
	case len(codes) == 1:
		return ", same code"
	default:
		return ", different code"
	}
}
