package shards

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
)

// Limits are what a hosted runner platform allows and what a job costs
// besides its cells. GitHub's, on the free plan: 256 jobs per matrix, 20
// running at once, 6 hours per job.
type Limits struct {
	// Budget is the most a job may be estimated to take, in seconds: below
	// the platform's limit per job, with room for an estimate that is short.
	Budget float64
	// MaxJobs is the most jobs one matrix may start.
	MaxJobs int
	// Concurrent is how many jobs run at once.
	Concurrent int
	// Overhead is a job's time besides its cells, in seconds: container,
	// packages, checkouts, the collector, the client and the preload.
	Overhead float64
	// Parallel is how many counting runs a job runs at once (count.parallel).
	Parallel int
}

// GitHubFree are GitHub-hosted runners' limits on the free plan, a job's
// budget 5 of its 6 hours and 10 minutes of set-up.
var GitHubFree = Limits{Budget: 5 * 3600, MaxJobs: 256, Concurrent: 20, Overhead: 600, Parallel: 2}

// Job is one runner's share: cells in collection order and its estimated
// seconds, overhead included.
type Job struct {
	Cells   []config.Cell
	Seconds float64
}

// Plan is the jobs for a set of cells.
type Plan struct {
	Jobs []Job
	// Seconds is every job's time summed (runner time); Wall the time from
	// the first job's start to the last one's end with Limits.Concurrent
	// running at once.
	Seconds, Wall float64
}

// unit is cells of one version and compiler, which share a dependency build.
type unit struct {
	cells   []config.Cell
	seconds float64
}

// CellSeconds is a cell's estimated time in a job: its counting runs, parallel
// at a time, then its build (conservative: in a job the next cell builds while
// this one is counted).
func CellSeconds(t CellTimes, parallel int) float64 {
	return t.Runs/float64(max(parallel, 1)) + t.Build
}

func newUnit(cells []config.Cell, t Times, parallel int) unit {
	u := unit{cells: cells, seconds: t.Of(cells[0].Version).Deps}
	for _, c := range cells {
		u.seconds += CellSeconds(t.Of(c.Version), parallel)
	}
	return u
}

// Divide makes jobs of cells: cells of one version and compiler stay
// together, so they share their dependency build, unless together they exceed
// the budget; jobs take neighbouring versions (release order), so a job's
// ccache serves the files a release did not change; there are as many jobs
// as run at once, or more when the budget needs it, each as long as the
// longest needs to be. It fails when a single cell exceeds the budget or the
// jobs would exceed MaxJobs.
func Divide(cells []config.Cell, t Times, l Limits) (Plan, error) {
	avail := l.Budget - l.Overhead
	if avail <= 0 {
		return Plan{}, fmt.Errorf("a job's budget (%.1f hours) leaves no time after its overhead (%.1f hours)", l.Budget/3600, l.Overhead/3600)
	}
	cells = slices.Clone(cells)
	slices.SortStableFunc(cells, func(a, b config.Cell) int {
		return cmp.Or(a.VersionIndex-b.VersionIndex, a.CompilerIndex-b.CompilerIndex, a.FlagIndex-b.FlagIndex)
	})
	var units []unit
	for i := 0; i < len(cells); {
		j := i + 1
		for j < len(cells) && cells[j].Version == cells[i].Version && cells[j].Compiler.Name == cells[i].Compiler.Name {
			j++
		}
		split, err := fit(newUnit(cells[i:j], t, l.Parallel), t, l.Parallel, avail)
		if err != nil {
			return Plan{}, err
		}
		units = append(units, split...)
		i = j
	}
	if len(units) == 0 {
		return Plan{}, nil
	}
	total, longest := 0.0, 0.0
	for _, u := range units {
		total += u.seconds
		longest = max(longest, u.seconds)
	}
	n := max(int(math.Ceil(total/avail)), min(l.Concurrent, len(units)))
	// The least job length that deals the units to n jobs, found by
	// bisection; never over the budget (then there are more jobs).
	lo, hi := max(longest, total/float64(n)), total
	for k := 0; k < 60 && hi-lo > 1; k++ {
		if mid := (lo + hi) / 2; len(deal(units, mid)) <= n {
			hi = mid
		} else {
			lo = mid
		}
	}
	groups := deal(units, min(hi, avail))
	if len(groups) > l.MaxJobs {
		return Plan{}, fmt.Errorf("%d cells (%.0f runner hours) do not fit %d jobs of %.1f hours", len(cells), total/3600, l.MaxJobs, l.Budget/3600)
	}
	var p Plan
	for _, g := range groups {
		j := Job{Seconds: l.Overhead}
		for _, u := range g {
			j.Cells = append(j.Cells, u.cells...)
			j.Seconds += u.seconds
		}
		p.Jobs = append(p.Jobs, j)
		p.Seconds += j.Seconds
	}
	p.Wall = wall(p.Jobs, l.Concurrent)
	return p, nil
}

// deal cuts units, in order, into runs of at most length seconds each.
func deal(units []unit, length float64) [][]unit {
	var out [][]unit
	load := 0.0
	for i, u := range units {
		if i == 0 || load+u.seconds > length {
			out = append(out, nil)
			load = 0
		}
		out[len(out)-1] = append(out[len(out)-1], u)
		load += u.seconds
	}
	return out
}

// fit splits u in halves until each part fits avail seconds.
func fit(u unit, t Times, parallel int, avail float64) ([]unit, error) {
	if u.seconds <= avail {
		return []unit{u}, nil
	}
	if len(u.cells) == 1 {
		return nil, fmt.Errorf("cell %s alone is estimated at %.1f hours, over a job's budget", u.cells[0].ID(), u.seconds/3600)
	}
	h := len(u.cells) / 2
	a, err := fit(newUnit(u.cells[:h], t, parallel), t, parallel, avail)
	if err != nil {
		return nil, err
	}
	b, err := fit(newUnit(u.cells[h:], t, parallel), t, parallel, avail)
	return append(a, b...), err
}

// wall is the time jobs take with concurrent running at once, each started
// as soon as a slot frees, in their order.
func wall(jobs []Job, concurrent int) float64 {
	slots := make([]float64, max(concurrent, 1))
	end := 0.0
	for _, j := range jobs {
		k := slices.Index(slots, slices.Min(slots))
		slots[k] += j.Seconds
		end = max(end, slots[k])
	}
	return end
}
