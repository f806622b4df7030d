package runner

import (
	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// VersionCounts is how far the counted instrument is with one version's cells.
type VersionCounts struct {
	config.Placed
	// Cells are the version's cells selected; Counted have every counting run
	// (a run whose server failed counts as done), Partial some, Failed a latest
	// build that failed; the rest are pending.
	Cells, Counted, Partial, Failed int
}

// Pending is how many of the version's cells are neither counted nor failed
// nor partial.
func (v VersionCounts) Pending() int { return v.Cells - v.Counted - v.Partial - v.Failed }

// CountStatus is the counted instrument's progress per version of cells, in
// collection order (versions without a cell in cells left out): what collector
// count does next is the first version with cells partial or pending.
func CountStatus(cfg *config.Config, cells []config.Cell, d *store.Data) []VersionCounts {
	modes := map[string]bool{}
	for _, m := range cfg.Count.Modes {
		modes[m.Name] = true
	}
	runs := map[string]int{}
	for _, r := range d.CountRuns {
		if modes[r.Mode] && int(r.Repeat) <= cfg.Count.Repeats {
			runs[r.CellID]++
		}
	}
	latest := LatestBuilds(d)
	planned := cfg.Count.Repeats * len(cfg.Count.Modes)
	by := map[string]*VersionCounts{}
	for _, c := range cells {
		v := by[c.Version]
		if v == nil {
			v = &VersionCounts{}
			by[c.Version] = v
		}
		v.Cells++
		b, built := latest[c.ID()]
		switch n := runs[c.ID()]; {
		case built && b.Status != "ok":
			v.Failed++
		case n >= planned:
			v.Counted++
		case n > 0:
			v.Partial++
		}
	}
	var out []VersionCounts
	for _, p := range cfg.CollectionOrder() {
		if v := by[p.Version]; v != nil {
			v.Placed = p
			out = append(out, *v)
		}
	}
	return out
}
