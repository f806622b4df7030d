// Package headline computes the figures the README leads with from the
// published dataset, by the rules the site's summary uses (docs/site.md, "The
// noise rule" and "Summary"): on the hardware class that has done most of the
// plan, every build's speed against the plan's first build, per mode.
package headline

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/hwclass"
	"github.com/redis-compiler-benchmarks/collector/internal/model"
	"github.com/redis-compiler-benchmarks/collector/internal/report"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// Build is one configuration of the plan: a compiler and a flag set.
type Build struct{ Compiler, FlagSet string }

// String is the build as the site names it, "gcc -O2".
func (b Build) String() string { return b.Compiler + " " + b.FlagSet }

// Score is a ratio B / A with its noise band and verdict.
type Score struct {
	// Ratio is the geometric mean of the per-test ratios (1.05: 5% faster).
	Ratio float64
	// Band is the noise band as a fraction (0.02: 2%); NaN when unknown.
	Band float64
	// Tests is how many per-test ratios the mean is over.
	Tests int
}

// Verdict is "faster", "slower", "tie" (within the band) or "unknown" (no band).
// It is the site's noise rule (src/sql/noise.ts): both pass the cases of
// tests/fixtures/fixture-noise.json.
func (s Score) Verdict() string {
	switch {
	case math.IsNaN(s.Band):
		return "unknown"
	case s.Ratio-1 > s.Band:
		return "faster"
	case 1/s.Ratio-1 > s.Band:
		return "slower"
	}
	return "tie"
}

// Headline is what the README states about the dataset.
type Headline struct {
	// Class is the hardware class the figures are from; Others the other classes.
	Class  string
	Others []string
	// Done and Planned count the class's runs: done up to the planned repeats
	// of each (cell, mode), of planned cells × modes × repeats.
	Done, Planned int
	Modes         []string
	// Baseline is the plan's first build; Scores every other build's score
	// against it over all versions, per mode, in plan order.
	Baseline Build
	Builds   []Build
	Scores   map[Build]map[string]Score
	// Oldest and Newest are the first and last of the plan's versions with
	// measured figures in the class (the plan's when none has); Releases the
	// newest's score against the oldest's, both built as Baseline, per mode.
	Oldest, Newest string
	Releases       map[string]Score
	// Spread is the median spread of repeats per mode, (best − worst) / best
	// over the (cell, test) pairs with two or more repeats, as a fraction.
	Spread map[string]float64
	// Counted is the counted instrument's part; PlannedCells the plan's cells.
	Counted      Counted
	PlannedCells int
	// Rounds is the precision modes' part, on Class.
	Rounds Rounds
	// Models are the counts calibrated against each precision mode's
	// effects in Rounds (internal/model).
	Models []model.Result
	// Extended is the counted instrument's part for the extended flag sets
	// (matrix.toml `extended`: -O3, -O3 -flto, stock), each against Baseline
	// on the releases where both are counted; ExtendedBuilds are those
	// builds in plan order and ExtendedPlanned their planned cells.
	Extended        Counted
	ExtendedBuilds  []Build
	ExtendedPlanned int
	// ExtendedRounds are the precision modes' effects of the extended
	// builds measured in interleaved rounds beside Baseline, on whichever
	// class measured them (computeExtendedRounds).
	ExtendedRounds []report.Effects
	// ExtendedOn are the extended builds' counted scores against Baseline
	// on each release their interleaved rounds measured in full
	// (ExtendedRounds), that release alone: the counts beside the measured
	// speed. A release where no extended build is counted with Baseline is
	// left out.
	ExtendedOn []ReleaseScores
	// Pairs are extended builds against other builds than the baseline
	// (computePairs), in counted cost.
	Pairs []Pair
}

// Compute reads the headline out of d (its plan, runs, results and machines):
// requests/second on the plan's current versions (its default set, with the
// repeats a noise band needs), the counted cost on every planned version.
func Compute(d *store.Data) Headline {
	p := readPlan(d, true)
	h := Headline{Modes: p.modes, Scores: map[Build]map[string]Score{}, Releases: map[string]Score{}, Spread: map[string]float64{}}
	if len(p.builds) == 0 {
		return h
	}
	h.Class, h.Done = mostDone(d, p)
	for _, n := range p.repeats {
		h.Planned += n * len(p.modes)
	}
	for _, c := range hwclass.Known(d) {
		if c != h.Class {
			h.Others = append(h.Others, c)
		}
	}
	f := bestFigures(d, h.Class)
	h.Baseline, h.Builds = p.builds[0], p.builds[1:]
	// The measured figures' span: the plan's versions the class has figures
	// of (a current version not measured yet, e.g. a new release, is left out).
	measured := f.versions(p.versions)
	if len(measured) == 0 {
		measured = p.versions
	}
	h.Oldest, h.Newest = measured[0], measured[len(measured)-1]
	for _, mode := range p.modes {
		for _, b := range h.Builds {
			if h.Scores[b] == nil {
				h.Scores[b] = map[string]Score{}
			}
			h.Scores[b][mode] = f.againstAllVersions(b, h.Baseline, mode, p.versions)
		}
		h.Releases[mode] = f.releases(h.Baseline, h.Newest, h.Oldest, mode)
		h.Spread[mode] = f.medianSpread(mode)
	}
	h.Rounds = computeRounds(d, h.Class, p, h.Baseline)
	h.Models = computeModels(d, h.Rounds, h.Modes)
	all := readPlan(d, false)
	counts := countFigures(d)
	h.Counted, h.PlannedCells = computeCounted(d, counts, all, h.Baseline, h.Builds), len(all.cells)
	if ext := readPlanOf(d, false, true); len(ext.builds) > 0 {
		h.ExtendedBuilds, h.ExtendedPlanned = ext.builds, len(ext.cells)
		h.Extended = computeCounted(d, counts, ext, h.Baseline, ext.builds)
		h.ExtendedRounds = computeExtendedRounds(d, h.Rounds.Modes, ext.builds, h.Baseline)
		for _, v := range completeVersions(h.ExtendedRounds) {
			if s := counts.scoresOn([]string{v}, h.Modes, h.Baseline, ext.builds); len(s) > 0 {
				h.ExtendedOn = append(h.ExtendedOn, ReleaseScores{Version: v, Scores: s})
			}
		}
		h.Pairs = computePairs(counts, ext.versions, h.Modes, h.Counted, h.Extended)
	}
	return h
}

// plan is the planned matrix in plan order.
type plan struct {
	versions []string
	builds   []Build
	modes    []string
	cells    map[string]bool
	// repeats are the runs planned per mode, by cell id.
	repeats map[string]int
}

// readPlan is d's plan, or with currentOnly its current versions' part (a
// plan written before plan.current held only current versions).
func readPlan(d *store.Data, currentOnly bool) plan { return readPlanOf(d, currentOnly, false) }

// readPlanOf is readPlan of the reference flag sets, or with extended of the
// extended ones alone.
func readPlanOf(d *store.Data, currentOnly, extended bool) plan {
	rows := slices.Clone(d.Plan)
	slices.SortFunc(rows, func(a, b store.Plan) int {
		return cmp.Or(cmp.Compare(a.CompilerIndex, b.CompilerIndex), cmp.Compare(a.FlagIndex, b.FlagIndex), cmp.Compare(a.VersionIndex, b.VersionIndex))
	})
	p := plan{cells: map[string]bool{}, repeats: map[string]int{}}
	versions := map[string]int32{}
	for _, r := range rows {
		if currentOnly && r.Current != nil && !*r.Current {
			continue
		}
		// The headline's figures are the reference configurations'; the
		// extended ones have lines of their own.
		if (r.Extended != nil && *r.Extended) != extended {
			continue
		}
		p.cells[r.CellID], p.repeats[r.CellID] = true, int(r.Repeats)
		versions[r.Version] = r.VersionIndex
		if b := (Build{r.Compiler, r.FlagSet}); !slices.Contains(p.builds, b) {
			p.builds = append(p.builds, b)
		}
		p.modes = strings.Split(r.Modes, ",")
	}
	for v := range versions {
		p.versions = append(p.versions, v)
	}
	slices.SortFunc(p.versions, func(a, b string) int { return cmp.Compare(versions[a], versions[b]) })
	return p
}

// mostDone is the class with the most planned runs done, as collector plan
// counts them, and that count; ties go to the class of the earliest run.
func mostDone(d *store.Data, p plan) (string, int) {
	class := hwclass.ByMachine(d)
	type slot struct{ class, cell, mode string }
	runs := map[slot]int{}
	first := map[string]int64{}
	for _, r := range d.Runs {
		c := class[r.MachineID]
		if t, ok := first[c]; !ok || r.StartedAt.UnixMilli() < t {
			first[c] = r.StartedAt.UnixMilli()
		}
		if p.cells[r.CellID] && slices.Contains(p.modes, r.Mode) {
			runs[slot{c, r.CellID, r.Mode}]++
		}
	}
	done := map[string]int{}
	for s, n := range runs {
		done[s.class] += min(n, p.repeats[s.cell])
	}
	best := ""
	for c := range first {
		if best == "" || done[c] > done[best] || done[c] == done[best] && first[c] < first[best] {
			best = c
		}
	}
	return best, done[best]
}
