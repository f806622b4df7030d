package headline

import (
	"math"
	"slices"

	"github.com/redis-compiler-benchmarks/collector/internal/hwclass"
	"github.com/redis-compiler-benchmarks/collector/internal/report"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// key is one build's figure for one version, mode and test.
type key struct {
	build               Build
	version, mode, test string
}

// figure is the best and the worst of a key's measured repeats (requests/s).
type figure struct {
	best, worst float64
	repeats     int
}

// spread is |best − worst| / best, NaN with fewer than two repeats (for a
// cost, best is the lowest repeat).
func (f figure) spread() float64 {
	if f.repeats < 2 {
		return math.NaN()
	}
	return math.Abs(f.best-f.worst) / f.best
}

// figures are one class's figures, and the tests measured in each mode.
type figures struct {
	of    map[key]figure
	tests map[string][]string
	// floor is the least band of any item: for a counted metric its rebuild
	// band (store.RebuildBand), 0 for requests/second.
	floor float64
}

// bestFigures reads the measured repeats of class's machines out of d.
func bestFigures(d *store.Data, class string) figures {
	of := hwclass.ByMachine(d)
	inClass := map[string]bool{}
	for _, r := range d.Runs {
		if of[r.MachineID] == class {
			inClass[r.RunID] = true
		}
	}
	f := figures{of: map[key]figure{}, tests: map[string][]string{}}
	for _, r := range d.Results {
		if inClass[r.RunID] && r.Status == "ok" && r.RPS != nil {
			f.add(key{Build{r.Compiler, r.FlagSet}, r.Version, r.Mode, r.Test}, *r.RPS, false)
		}
	}
	return f
}

// add records one repeat's value of k, a rate or, with cost, a cost (whose
// best is the lowest), and k's test among its mode's.
func (f figures) add(k key, v float64, cost bool) {
	if cost {
		f.of[k] = f.of[k].withCount(v)
	} else {
		f.of[k] = f.of[k].withRate(v)
	}
	if !slices.Contains(f.tests[k.mode], k.test) {
		f.tests[k.mode] = append(f.tests[k.mode], k.test)
	}
}

// withRate is g with one more rate (requests/s): best is the highest, worst
// the lowest.
func (g figure) withRate(v float64) figure {
	if g.repeats == 0 || v > g.best {
		g.best = v
	}
	if g.repeats == 0 || v < g.worst {
		g.worst = v
	}
	g.repeats++
	return g
}

// item is one test's ratio of two figures with its band: the larger of the
// two spreads and the floor, NaN when either spread is unknown.
func item(b, a figure, floor float64) (ratio, band float64) {
	return b.best / a.best, math.Max(math.Max(b.spread(), a.spread()), floor) // Max is NaN if either is
}

// geomean is the score of items: the geometric mean of their ratios, and of
// 1 + their known bands, minus 1 (NaN when no band is known).
func geomean(ratios, bands []float64) Score {
	s := Score{Tests: len(ratios), Band: math.NaN()}
	if len(ratios) == 0 {
		s.Ratio = math.NaN()
		return s
	}
	var lr, lb float64
	known := 0
	for i, r := range ratios {
		lr += math.Log(r)
		if !math.IsNaN(bands[i]) {
			lb += math.Log1p(bands[i])
			known++
		}
	}
	s.Ratio = math.Exp(lr / float64(len(ratios)))
	if known > 0 {
		s.Band = math.Expm1(lb / float64(known))
	}
	return s
}

// againstAllVersions is b's score against base in mode over all versions: per
// test, the geometric mean of its ratios on every version where both measured
// it; then the geometric mean over the tests (each test weighs the same).
func (f figures) againstAllVersions(b, base Build, mode string, versions []string) Score {
	var ratios, bands []float64
	for _, test := range f.tests[mode] {
		var rs, bs []float64
		for _, v := range versions {
			x, okX := f.of[key{b, v, mode, test}]
			y, okY := f.of[key{base, v, mode, test}]
			if okX && okY {
				r, band := item(x, y, f.floor)
				rs, bs = append(rs, r), append(bs, band)
			}
		}
		if len(rs) > 0 {
			t := geomean(rs, bs)
			ratios, bands = append(ratios, t.Ratio), append(bands, t.Band)
		}
	}
	return geomean(ratios, bands)
}

// releases is version newer's score against older, both built as b, in mode,
// over the tests both measured.
func (f figures) releases(b Build, newer, older, mode string) Score {
	var ratios, bands []float64
	for _, test := range f.tests[mode] {
		x, okX := f.of[key{b, newer, mode, test}]
		y, okY := f.of[key{b, older, mode, test}]
		if okX && okY {
			r, band := item(x, y, f.floor)
			ratios, bands = append(ratios, r), append(bands, band)
		}
	}
	return geomean(ratios, bands)
}

// versions are those of versions (in their order) that have a figure.
func (f figures) versions(versions []string) []string {
	has := map[string]bool{}
	for k := range f.of {
		has[k.version] = true
	}
	var out []string
	for _, v := range versions {
		if has[v] {
			out = append(out, v)
		}
	}
	return out
}

// medianSpread is the median spread of repeats in mode over the figures with
// two or more repeats (0 when there are none), as collector stats prints it.
func (f figures) medianSpread(mode string) float64 {
	var s []float64
	for k, g := range f.of {
		if k.mode == mode && g.repeats >= 2 && g.best > 0 {
			s = append(s, g.spread())
		}
	}
	return report.Median(s)
}
