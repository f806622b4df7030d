package shards

import (
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
	order   int
}

// CellSeconds is a cell's estimated time in a job: its counting runs, parallel
// at a time, then its build (conservative: in a job the next cell builds while
// this one is counted).
func CellSeconds(t CellTimes, parallel int) float64 {
	return t.Runs/float64(max(parallel, 1)) + t.Build
}

func newUnit(cells []config.Cell, t Times, parallel, order int) unit {
	u := unit{cells: cells, order: order, seconds: t.Of(cells[0].Version).Deps}
	for _, c := range cells {
		u.seconds += CellSeconds(t.Of(c.Version), parallel)
	}
	return u
}

// Divide makes jobs of cells (in collection order): cells of one version and
// compiler stay together, so they share their dependency build and ccache,
// unless together they exceed the budget; there are as many jobs as can run
// at once, or more when the budget needs it; units are dealt out longest
// first to the least loaded job, and a job over budget means one job more.
// It fails when a single cell exceeds the budget or the jobs would exceed
// MaxJobs.
func Divide(cells []config.Cell, t Times, l Limits) (Plan, error) {
	avail := l.Budget - l.Overhead
	if avail <= 0 {
		return Plan{}, fmt.Errorf("a job's budget (%.1f hours) leaves no time after its overhead (%.1f hours)", l.Budget/3600, l.Overhead/3600)
	}
	var units []unit
	for i := 0; i < len(cells); {
		j := i + 1
		for j < len(cells) && cells[j].Version == cells[i].Version && cells[j].Compiler.Name == cells[i].Compiler.Name {
			j++
		}
		split, err := fit(newUnit(cells[i:j], t, l.Parallel, len(units)), t, l.Parallel, avail)
		if err != nil {
			return Plan{}, err
		}
		for _, u := range split {
			u.order = len(units)
			units = append(units, u)
		}
		i = j
	}
	if len(units) == 0 {
		return Plan{}, nil
	}
	total := 0.0
	for _, u := range units {
		total += u.seconds
	}
	n := max(int(math.Ceil(total/avail)), min(l.Concurrent, len(units)))
	slices.SortStableFunc(units, func(a, b unit) int {
		if a.seconds != b.seconds {
			return cmpDesc(a.seconds, b.seconds)
		}
		return a.order - b.order
	})
	for ; n <= l.MaxJobs; n++ {
		if jobs, ok := deal(units, n, l, avail); ok {
			return Plan{Jobs: jobs, Seconds: total + float64(len(jobs))*l.Overhead, Wall: wall(jobs, l.Concurrent)}, nil
		}
	}
	return Plan{}, fmt.Errorf("%d cells (%.0f runner hours) do not fit %d jobs of %.1f hours", len(cells), total/3600, l.MaxJobs, l.Budget/3600)
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
	a, err := fit(newUnit(u.cells[:h], t, parallel, 0), t, parallel, avail)
	if err != nil {
		return nil, err
	}
	b, err := fit(newUnit(u.cells[h:], t, parallel, 0), t, parallel, avail)
	return append(a, b...), err
}

// deal gives each unit (longest first) to the least loaded of n jobs; ok is
// false when a job ends over avail seconds. Each job's cells come back in
// their units' order, and jobs are numbered by their first unit.
func deal(units []unit, n int, l Limits, avail float64) ([]Job, bool) {
	load := make([]float64, n)
	got := make([][]unit, n)
	for _, u := range units {
		k := 0
		for i := range load {
			if load[i] < load[k] {
				k = i
			}
		}
		load[k] += u.seconds
		got[k] = append(got[k], u)
	}
	var jobs []Job
	for i, us := range got {
		if load[i] > avail {
			return nil, false
		}
		if len(us) == 0 {
			continue
		}
		slices.SortFunc(us, func(a, b unit) int { return a.order - b.order })
		j := Job{Seconds: load[i] + l.Overhead}
		for _, u := range us {
			j.Cells = append(j.Cells, u.cells...)
		}
		jobs = append(jobs, j)
	}
	slices.SortFunc(jobs, func(a, b Job) int { return firstOrder(a, units) - firstOrder(b, units) })
	return jobs, true
}

// firstOrder is the order of the unit j starts with.
func firstOrder(j Job, units []unit) int {
	for _, u := range units {
		if u.cells[0].ID() == j.Cells[0].ID() {
			return u.order
		}
	}
	return 0
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

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}
