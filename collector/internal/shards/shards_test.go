package shards

import (
	"fmt"
	"math"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// fixtureData has, for each version, cells of gcc -O2 and -Os: four counting
// runs of runs/4 seconds each, a build of build seconds, a dependency build of
// deps seconds.
func fixtureData(times map[string][3]float64) *store.Data {
	d := &store.Data{}
	for v, t := range times {
		for _, fl := range []string{"-O2", "-Os"} {
			cell := v + "|gcc|" + fl
			d.Builds = append(d.Builds, store.Build{BuildID: cell + "#1", CellID: cell, Version: v, Status: "ok", BuildSeconds: t[1], DepsSeconds: t[2]})
			for r := 0; r < 4; r++ {
				d.CountRuns = append(d.CountRuns, store.CountRun{CellID: cell, BuildID: cell + "#1", Version: v, Status: "ok", DurationSeconds: t[0] / 4})
			}
		}
	}
	return d
}

func TestMeasureUsesTheVersionElseItsLineElseAll(t *testing.T) {
	tm := Measure(fixtureData(map[string][3]float64{"7.2.4": {100, 40, 20}, "7.2.6": {200, 60, 30}, "2.6.0": {60, 20, 10}}))
	for _, c := range []struct {
		v    string
		want CellTimes
	}{
		{"7.2.4", CellTimes{100, 40, 20, "7.2.4"}},
		{"7.2.7", CellTimes{200, 60, 30, "7.2.6"}}, // the line's newest
		{"8.0.0", CellTimes{100, 40, 20, "all"}},   // medians of all
	} {
		if got := tm.Of(c.v); got != c.want {
			t.Errorf("Of(%s) = %+v, want %+v", c.v, got, c.want)
		}
	}
}

// cellsOf are n versions x 2 compilers x 6 flag sets, in matrix order.
func cellsOf(n int) []config.Cell {
	cfg := &config.Config{Compilers: []config.Compiler{{Name: "gcc"}, {Name: "clang"}}}
	for _, f := range []string{"-O2", "-Os", "-Ofast", "-O2 -flto", "-Os -flto", "-Ofast -flto"} {
		cfg.FlagSets = append(cfg.FlagSets, config.FlagSet{Name: f})
	}
	for i := 0; i < n; i++ {
		cfg.Versions = append(cfg.Versions, fmt.Sprintf("1.%d.0", i))
	}
	return cfg.Cells()
}

func TestDivideKeepsEveryJobInBudgetAndEveryCellOnce(t *testing.T) {
	tm := Measure(fixtureData(map[string][3]float64{"1.0.0": {136, 60, 30}}))
	for _, c := range []struct {
		versions int
		l        Limits
	}{
		{158, GitHubFree},
		{158, Limits{Budget: 3600, MaxJobs: 256, Concurrent: 20, Overhead: 600, Parallel: 2}}, // more jobs than run at once
		{30, Limits{Budget: 1200, MaxJobs: 256, Concurrent: 20, Overhead: 600, Parallel: 2}},  // a version and compiler split
	} {
		cells, l := cellsOf(c.versions), c.l
		p, err := Divide(cells, tm, l)
		if err != nil {
			t.Fatalf("budget %.0f s: %v", l.Budget, err)
		}
		seen := map[string]int{}
		sum, last := 0.0, -1
		for _, j := range p.Jobs {
			// Neighbouring versions share a job: each job's versions follow the last job's.
			for _, c := range j.Cells {
				if c.VersionIndex < last {
					t.Errorf("budget %.0f s: %s after version %d", l.Budget, c.ID(), last)
				}
				last = c.VersionIndex
			}
			if j.Seconds > l.Budget {
				t.Errorf("budget %.0f s: a job of %.0f s", l.Budget, j.Seconds)
			}
			for _, c := range j.Cells {
				seen[c.ID()]++
			}
			sum += j.Seconds
		}
		if len(seen) != len(cells) {
			t.Errorf("budget %.0f s: %d cells dealt, want %d", l.Budget, len(seen), len(cells))
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("budget %.0f s: %s in %d jobs", l.Budget, id, n)
			}
		}
		if math.Abs(sum-p.Seconds) > 1e-6 || len(p.Jobs) > l.MaxJobs || len(p.Jobs) < l.Concurrent || (l.Budget < 3600*5 && len(p.Jobs) <= l.Concurrent) {
			t.Errorf("budget %.0f s: %d jobs, %.0f s summed, plan says %.0f", l.Budget, len(p.Jobs), sum, p.Seconds)
		}
		if p.Wall < p.Seconds/float64(l.Concurrent) || p.Wall > p.Seconds {
			t.Errorf("budget %.0f s: wall %.0f s for %.0f s of jobs", l.Budget, p.Wall, p.Seconds)
		}
	}
}

func TestDivideKeepsAVersionAndCompilerTogetherWithinBudget(t *testing.T) {
	tm := Measure(fixtureData(map[string][3]float64{"1.0.0": {136, 60, 30}}))
	p, err := Divide(cellsOf(1), tm, GitHubFree)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Jobs) != 2 {
		t.Fatalf("%d jobs for one version, want 2 (gcc, clang)", len(p.Jobs))
	}
	for _, j := range p.Jobs {
		for _, c := range j.Cells {
			if c.Compiler.Name != j.Cells[0].Compiler.Name {
				t.Errorf("job mixes %s and %s", c.ID(), j.Cells[0].ID())
			}
		}
		// 600 overhead + 30 deps + 6 x (136/2 + 60)
		if want := 600 + 30 + 6*128.0; math.Abs(j.Seconds-want) > 1e-6 {
			t.Errorf("job of %d cells: %.0f s, want %.0f", len(j.Cells), j.Seconds, want)
		}
	}
}

func TestDivideRefusesWhatCannotFit(t *testing.T) {
	tm := Measure(fixtureData(map[string][3]float64{"1.0.0": {136, 60, 30}}))
	l := GitHubFree
	l.Budget = 700 // 100 s after the overhead: less than one cell
	if _, err := Divide(cellsOf(1), tm, l); err == nil {
		t.Error("a cell over the budget: no error")
	}
	l = GitHubFree
	l.MaxJobs = 2
	if _, err := Divide(cellsOf(158), tm, l); err == nil {
		t.Error("158 versions in 2 jobs of 5 hours: no error")
	}
}
