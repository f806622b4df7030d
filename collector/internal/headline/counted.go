package headline

import (
	"math"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// InstructionsColumn is the counts column the counted headline reads.
const InstructionsColumn = "instructions_per_request"

// Counted is the counted instrument's part of the headline: instructions per
// request under Valgrind, one dataset for every machine; lower is better.
type Counted struct {
	// Cells counts the planned cells with a count in any mode; Versions are
	// their versions, in plan order.
	Cells    int
	Versions []string
	// Scores are the builds' instructions per request against the baseline's
	// (ratio < 1: cheaper), per mode, over the versions where both are
	// counted; only builds counted on at least one version are present.
	Scores map[Build]map[string]Score
	// Spread is the largest spread of repeats per mode, (max − min) / min,
	// over the (cell, test) pairs with two or more counts of one build, as a
	// fraction.
	Spread map[string]float64
	// Rebuilt is the number of cells counted from more than one build (a
	// rebuild, e.g. on another machine), and RebuiltSpread, per mode, the
	// largest spread of such a (cell, test)'s counts over all its builds.
	Rebuilt       int
	RebuiltSpread map[string]float64
	// RebuildBand is the floor of every counted band: the rebuild band of
	// instructions per request (store.RebuildBand), 0 where the data has
	// none.
	RebuildBand float64
}

// ReleaseScores are builds' counted scores against the baseline on one
// release alone, per mode.
type ReleaseScores struct {
	Version string
	Scores  map[Build]map[string]Score
}

// countFigures reads the counts out of d as figures: best is the cheapest
// repeat, worst the costliest; the floor of their bands is the rebuild band
// of instructions per request that d holds (0 without the table).
func countFigures(d *store.Data) figures {
	f := figures{of: map[key]figure{}, tests: map[string][]string{}, floor: store.RebuildBandOf(d.RebuildBands, InstructionsColumn)}
	for _, c := range d.Counts {
		if c.Status == "ok" && c.InstructionsPerRequest != nil {
			f.add(key{Build{c.Compiler, c.FlagSet}, c.Version, c.Mode, c.Test}, *c.InstructionsPerRequest, true)
		}
	}
	return f
}

// computeCounted scores every build's counts (f, countFigures of d) against
// the baseline's.
func computeCounted(d *store.Data, f figures, p plan, baseline Build, builds []Build) Counted {
	out := Counted{Spread: map[string]float64{}, RebuiltSpread: map[string]float64{}}
	counted, versions := map[string]bool{}, map[string]bool{}
	// The cells' builds.
	cellBuilds := map[string]map[string]bool{}
	for _, c := range d.Counts {
		if c.Status == "ok" && p.cells[c.CellID] {
			counted[c.CellID], versions[c.Version] = true, true
		}
		if c.Status != "ok" || c.InstructionsPerRequest == nil {
			continue
		}
		if cellBuilds[c.CellID] == nil {
			cellBuilds[c.CellID] = map[string]bool{}
		}
		cellBuilds[c.CellID][c.BuildID] = true
	}
	spans := d.RepeatSpans(func(c store.Count) *float64 { return c.InstructionsPerRequest })
	rebuilt := map[string]bool{}
	for cell, bs := range cellBuilds {
		if len(bs) > 1 && p.cells[cell] {
			rebuilt[cell] = true
		}
	}
	out.Rebuilt = len(rebuilt)
	out.Cells = len(counted)
	for _, v := range p.versions {
		if versions[v] {
			out.Versions = append(out.Versions, v)
		}
	}
	out.RebuildBand = f.floor
	out.Scores = f.scoresOn(p.versions, p.modes, baseline, builds)
	for _, mode := range p.modes {
		for k, sp := range spans {
			if k.Mode == mode && sp.N >= 2 {
				out.Spread[mode] = math.Max(out.Spread[mode], sp.Spread())
			}
		}
		for k, g := range f.of {
			if k.mode == mode && rebuilt[cellID(k)] {
				out.RebuiltSpread[mode] = math.Max(out.RebuiltSpread[mode], g.spread())
			}
		}
	}
	return out
}

// scoresOn is every build's counted score against baseline per mode, over
// versions where both are counted; a build counted on none of them is absent.
func (f figures) scoresOn(versions, modes []string, baseline Build, builds []Build) map[Build]map[string]Score {
	out := map[Build]map[string]Score{}
	for _, mode := range modes {
		for _, b := range builds {
			s := f.againstAllVersions(b, baseline, mode, versions)
			if s.Tests == 0 {
				continue
			}
			if out[b] == nil {
				out[b] = map[string]Score{}
			}
			out[b][mode] = s
		}
	}
	return out
}

// cellID is the cell a key's figures belong to, as the tables name it.
func cellID(k key) string { return k.version + "|" + k.build.Compiler + "|" + k.build.FlagSet }

// withCount is g with one more count: best is the cheapest, worst the costliest.
func (g figure) withCount(v float64) figure {
	if g.repeats == 0 || v < g.best {
		g.best = v
	}
	if g.repeats == 0 || v > g.worst {
		g.worst = v
	}
	g.repeats++
	return g
}
