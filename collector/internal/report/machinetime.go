package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// StretchGap is the default pause that separates two stretches of collection.
const StretchGap = 20 * time.Minute

// activity is one thing a machine did: a build, a benchmark run or a counting run.
type activity struct {
	machine, cell string
	kind          string // "build", "failed build", "run" or "count"
	start, end    time.Time
}

// activities are every build, run (redone ones too) and counting run of d.
func activities(d *store.Data) []activity {
	var out []activity
	for _, b := range d.Builds {
		kind := "build"
		if b.Status != "ok" {
			kind = "failed build"
		}
		out = append(out, activity{b.MachineID, b.CellID, kind, b.StartedAt, b.FinishedAt})
	}
	for _, r := range d.Runs {
		out = append(out, activity{r.MachineID, r.CellID, "run", r.StartedAt, r.FinishedAt})
	}
	for _, r := range d.RedoneRuns {
		out = append(out, activity{r.MachineID, r.CellID, "run", r.StartedAt, r.FinishedAt})
	}
	for _, r := range d.CountRuns {
		out = append(out, activity{r.MachineID, r.CellID, "count", r.StartedAt, r.FinishedAt})
	}
	return out
}

// Stretch is one machine's stretch of collection: activities each starting
// less than the gap after the end of all before it.
type Stretch struct {
	Machine    string
	Start, End time.Time
	// Busy is the time something ran (the union of the activities); the rest
	// of End - Start is the collector's own time and pauses shorter than the gap.
	Busy time.Duration
	// Builds and FailedBuilds count the builds made; CellsBuilt the cells with
	// a successful one; Runs the benchmark runs; CountRuns the counting runs
	// and CellsCounted the cells they counted.
	Builds, FailedBuilds, CellsBuilt, Runs, CountRuns, CellsCounted int
}

// Stretches splits each machine's activities into stretches separated by
// pauses of gap or more, in order of start (then machine).
func Stretches(d *store.Data, gap time.Duration) []Stretch {
	byMachine := map[string][]activity{}
	for _, a := range activities(d) {
		byMachine[a.machine] = append(byMachine[a.machine], a)
	}
	var out []Stretch
	for _, m := range slices.Sorted(maps.Keys(byMachine)) {
		as := byMachine[m]
		sort.SliceStable(as, func(i, j int) bool { return as[i].start.Before(as[j].start) })
		for i := 0; i < len(as); {
			j, end := i+1, as[i].end
			for j < len(as) && as[j].start.Sub(end) < gap {
				if as[j].end.After(end) {
					end = as[j].end
				}
				j++
			}
			out = append(out, stretchOf(as[i:j]))
			i = j
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

// stretchOf sums up one stretch's activities, sorted by start.
func stretchOf(as []activity) Stretch {
	s := Stretch{Machine: as[0].machine, Start: as[0].start, End: as[0].end}
	built, counted := map[string]bool{}, map[string]bool{}
	busyTo := as[0].start
	for _, a := range as {
		if a.end.After(s.End) {
			s.End = a.end
		}
		// The union of the intervals, in start order.
		if a.end.After(busyTo) {
			from := a.start
			if busyTo.After(from) {
				from = busyTo
			}
			s.Busy += a.end.Sub(from)
			busyTo = a.end
		}
		switch a.kind {
		case "build":
			s.Builds++
			built[a.cell] = true
		case "failed build":
			s.Builds++
			s.FailedBuilds++
		case "run":
			s.Runs++
		case "count":
			s.CountRuns++
			counted[a.cell] = true
		}
	}
	s.CellsBuilt, s.CellsCounted = len(built), len(counted)
	return s
}

// PrintStretches prints the stretches of collection of d, one line each, and
// their sum.
func PrintStretches(w io.Writer, d *store.Data, gap time.Duration) {
	ss := Stretches(d, gap)
	var wall, busy time.Duration
	for i, s := range ss {
		fmt.Fprintf(w, "stretch %d, machine %s: %s to %s, %.2f h (%.2f h busy): %d cells built (%d builds, %d failed), %d runs, %d cells counted (%d counting runs)\n",
			i+1, s.Machine, s.Start.UTC().Format("2006-01-02 15:04"), s.End.UTC().Format("2006-01-02 15:04 UTC"),
			s.End.Sub(s.Start).Hours(), s.Busy.Hours(), s.CellsBuilt, s.Builds, s.FailedBuilds, s.Runs, s.CellsCounted, s.CountRuns)
		wall += s.End.Sub(s.Start)
		busy += s.Busy
	}
	fmt.Fprintf(w, "%d stretches of collection (pauses of %s or more between them): %.2f h of machine time, %.2f h busy\n",
		len(ss), gap, wall.Hours(), busy.Hours())
}
