package store

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/stats"
)

// RebuildBandsFile holds the rebuild band of every counted metric
// (MeasureRebuildBands), derived from the counting tables and written with them.
const RebuildBandsFile = "rebuild_bands.parquet"

// RebuildBand is how far one counted metric moves when a cell is built
// again from the same inputs (same source, compiler version, jemalloc
// address bits, compatibility flags and profile) on another machine or in
// another set-up: one binary's counts repeat exactly, another build of the
// cell can be other code (clang's LTO) or the same code laid out elsewhere,
// and its counts differ. Band is the noise floor of the metric's verdicts.
type RebuildBand struct {
	// Metric is the counts column the band is of (instructions_per_request, ...).
	Metric string `parquet:"metric"`
	// Band is the largest |relative difference| of the metric between the
	// two builds of a rebuild pair over every pair, mode and test, as a
	// fraction; 0 when there is no pair.
	Band float64 `parquet:"band"`
	// P50, P95 and Max are the median, 95th percentile (nearest rank) and
	// largest such difference; null when there is no pair.
	P50 *float64 `parquet:"p50,optional"`
	P95 *float64 `parquet:"p95,optional"`
	Max *float64 `parquet:"max,optional"`
	// Pairs are the rebuild pairs compared, IdenticalCodePairs those whose
	// builds have one code hash, Cells the cells they are of, Tests the
	// (pair, mode, test) differences the figures are over.
	Pairs              int32 `parquet:"pairs"`
	IdenticalCodePairs int32 `parquet:"identical_code_pairs"`
	Cells              int32 `parquet:"cells"`
	Tests              int32 `parquet:"tests"`
	// Runs are the counting runs whose counts were compared, SupersededRuns
	// those of them kept in count_runs_superseded, and Protocol the counting
	// protocol they all followed.
	Runs           int32 `parquet:"runs"`
	SupersededRuns int32 `parquet:"superseded_runs"`
	Protocol       int32 `parquet:"protocol"`
}

// CountedMetric is one per-request figure of counts.
type CountedMetric struct {
	Column string
	Of     func(Count) *float64
}

// CountedMetrics are the per-request figures of counts, in the schema's order.
var CountedMetrics = []CountedMetric{
	{"instructions_per_request", func(c Count) *float64 { return c.InstructionsPerRequest }},
	{"l1_misses_per_request", func(c Count) *float64 { return c.L1MissesPerRequest }},
	{"ll_misses_per_request", func(c Count) *float64 { return c.LLMissesPerRequest }},
	{"branch_misses_per_request", func(c Count) *float64 { return c.BranchMissesPerRequest }},
	{"est_cycles_per_request", func(c Count) *float64 { return c.EstCyclesPerRequest }},
}

// The beginnings of count_runs_superseded.redone whose runs do not count a
// rebuild of their cell: a disturbed run (its own build's repeats differed),
// a build whose jemalloc took the build host's address bits (a change of
// configuration), a build from a source that is not its release's, an -O3
// build that its release's Makefile gave -flto (another configuration).
const (
	RedoneRepeatsDiffered = "repeats differed"
	RedoneWrongLgVaddr    = "built with jemalloc configured for the build host's"
	RedoneStaleSource     = "built from "
	// RedoneMakefileLTO begins the reason of the runs of a build whose
	// release's Makefile added -flto to the -O3 it was given (7.2).
	RedoneMakefileLTO = "-O3 build "
)

// comparesRebuilds says whether run r's counts may stand for its build in a
// rebuild pair: a run of the current protocol, not set aside for one of the
// reasons above (set aside because its build had no code hash or its cell's
// runs spanned builds of other code, its counts are its build's own).
func comparesRebuilds(r CountRun) bool {
	if ProtocolOf(r) != CountProtocol {
		return false
	}
	if r.Redone == nil {
		return true
	}
	for _, p := range []string{RedoneRepeatsDiffered, RedoneWrongLgVaddr, RedoneStaleSource, RedoneMakefileLTO} {
		if strings.HasPrefix(*r.Redone, p) {
			return false
		}
	}
	return true
}

// sameInputs says whether a and b are builds of one cell from the same
// inputs: one source (git commit, or tarball SHA-256), one compiler version,
// one jemalloc address width where both are known, the same compatibility
// flags and the same PGO profile (none, or one digest).
func sameInputs(a, b Build) bool {
	sameSource := (a.SourceCommit != "" && a.SourceCommit == b.SourceCommit) ||
		(a.SourceSHA256 != "" && a.SourceSHA256 == b.SourceSHA256)
	sameVaddr := a.JemallocLgVaddr == nil || b.JemallocLgVaddr == nil || *a.JemallocLgVaddr == *b.JemallocLgVaddr
	return a.CellID == b.CellID && sameSource && a.CCVersion == b.CCVersion && sameVaddr &&
		a.CompatFlags == b.CompatFlags && deref(a.PGOProfileSHA256) == deref(b.PGOProfileSHA256)
}

// rebuildPair is two builds of one cell from the same inputs, both counted.
type rebuildPair struct{ A, B Build }

// SameCode says whether both builds have one known code hash.
func (p rebuildPair) SameCode() bool {
	return deref(p.A.CodeSHA256) != "" && deref(p.A.CodeSHA256) == deref(p.B.CodeSHA256)
}

// buildFigures are one build's counts: per (mode, test) and metric column,
// the mean over its runs (which repeat exactly).
type buildFigures map[[2]string]map[string]float64

// countedBuilds reads the counts of the runs comparesRebuilds admits, per
// build, current and superseded.
func (d *Data) countedBuilds() map[string]buildFigures {
	type acc struct {
		sum float64
		n   int
	}
	sums := map[string]map[[2]string]map[string]*acc{}
	add := func(rs []CountRun, cs []Count) {
		admitted := map[string]bool{}
		for _, r := range rs {
			if comparesRebuilds(r) {
				admitted[r.RunID] = true
			}
		}
		for _, c := range cs {
			if !admitted[c.RunID] || c.Status != "ok" {
				continue
			}
			if sums[c.BuildID] == nil {
				sums[c.BuildID] = map[[2]string]map[string]*acc{}
			}
			k := [2]string{c.Mode, c.Test}
			if sums[c.BuildID][k] == nil {
				sums[c.BuildID][k] = map[string]*acc{}
			}
			for _, m := range CountedMetrics {
				if v := m.Of(c); v != nil {
					a := sums[c.BuildID][k][m.Column]
					if a == nil {
						a = &acc{}
						sums[c.BuildID][k][m.Column] = a
					}
					a.sum, a.n = a.sum+*v, a.n+1
				}
			}
		}
	}
	add(d.CountRuns, d.Counts)
	add(d.SupersededCountRuns, d.SupersededCounts)
	figs := map[string]buildFigures{}
	for build, byTest := range sums {
		figs[build] = buildFigures{}
		for k, byMetric := range byTest {
			figs[build][k] = map[string]float64{}
			for m, a := range byMetric {
				figs[build][k][m] = a.sum / float64(a.n)
			}
		}
	}
	return figs
}

// rebuildPairs are every two builds of one cell from the same inputs
// (sameInputs) that figs has counts of, ordered by cell and build id. A
// build identified by its counts (CodeIdentifiedBy) is left out: its code
// hash was given because its counts agree with a rebuild's, so pairing it
// would only measure that agreement.
func rebuildPairs(builds []Build, figs map[string]buildFigures) []rebuildPair {
	byCell := map[string][]Build{}
	for _, b := range builds {
		if b.Status == "ok" && b.CodeIdentifiedBy == nil && len(figs[b.BuildID]) > 0 {
			byCell[b.CellID] = append(byCell[b.CellID], b)
		}
	}
	var out []rebuildPair
	for _, bs := range byCell {
		sort.Slice(bs, func(i, j int) bool { return bs[i].BuildID < bs[j].BuildID })
		for i := range bs {
			for j := i + 1; j < len(bs); j++ {
				if sameInputs(bs[i], bs[j]) {
					out = append(out, rebuildPair{bs[i], bs[j]})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].A.CellID != out[j].A.CellID {
			return out[i].A.CellID < out[j].A.CellID
		}
		if out[i].A.BuildID != out[j].A.BuildID {
			return out[i].A.BuildID < out[j].A.BuildID
		}
		return out[i].B.BuildID < out[j].B.BuildID
	})
	return out
}

// relativeDifference is |a − b| / min(a, b), as the noise rule's spread of
// a cost; 0 for two zeros, and not defined (false) for one zero.
func relativeDifference(a, b float64) (float64, bool) {
	switch {
	case a == b:
		return 0, true
	case a <= 0 || b <= 0:
		return 0, false
	}
	return math.Abs(a-b) / math.Min(a, b), true
}

// MeasureRebuildBands measures, per counted metric, how far its figures move
// between the two builds of every rebuild pair (rebuildPairs): the
// |relative difference| of each (mode, test) both builds counted, each
// build's figure the mean of its runs. Runs of an earlier protocol, runs of
// a build whose own repeats differed, and runs set aside for jemalloc's
// address bits or a stale source are left out (comparesRebuilds). One row
// per metric of CountedMetrics, with a band of 0 where there is no pair.
func (d *Data) MeasureRebuildBands() []RebuildBand {
	figs := d.countedBuilds()
	pairs := rebuildPairs(d.Builds, figs)
	var out []RebuildBand
	for _, m := range CountedMetrics {
		band := RebuildBand{Metric: m.Column, Protocol: CountProtocol}
		var diffs []float64
		cells, used := map[string]bool{}, map[string]bool{}
		for _, p := range pairs {
			n := 0
			for k, va := range figs[p.A.BuildID] {
				a, okA := va[m.Column]
				b, okB := figs[p.B.BuildID][k][m.Column]
				if !okA || !okB {
					continue
				}
				if diff, ok := relativeDifference(a, b); ok {
					diffs, n = append(diffs, diff), n+1
				}
			}
			if n == 0 {
				continue
			}
			band.Pairs++
			if p.SameCode() {
				band.IdenticalCodePairs++
			}
			cells[p.A.CellID], used[p.A.BuildID], used[p.B.BuildID] = true, true, true
		}
		band.Cells, band.Tests = int32(len(cells)), int32(len(diffs))
		band.Runs, band.SupersededRuns = d.runsOf(used)
		if len(diffs) > 0 {
			sort.Float64s(diffs)
			p50, p95, top := stats.NearestRank(diffs, 0.5), stats.NearestRank(diffs, 0.95), diffs[len(diffs)-1]
			band.Band, band.P50, band.P95, band.Max = top, &p50, &p95, &top
		}
		out = append(out, band)
	}
	return out
}

// runsOf counts the admitted counting runs (comparesRebuilds) of the builds
// in used: all of them, and those in the superseded table.
func (d *Data) runsOf(used map[string]bool) (all, superseded int32) {
	for _, r := range d.CountRuns {
		if used[r.BuildID] && comparesRebuilds(r) {
			all++
		}
	}
	for _, r := range d.SupersededCountRuns {
		if used[r.BuildID] && comparesRebuilds(r) {
			all++
			superseded++
		}
	}
	return all, superseded
}

// RebuildBandOf is the band of metric column in bands, 0 when it has none
// (a data directory written before the table).
func RebuildBandOf(bands []RebuildBand, column string) float64 {
	for _, b := range bands {
		if b.Metric == column {
			return b.Band
		}
	}
	return 0
}

// String is the band as collector stats prints it.
func (b RebuildBand) String() string {
	if b.Pairs == 0 {
		return fmt.Sprintf("%s: no rebuild pair yet, band 0", b.Metric)
	}
	return fmt.Sprintf("%s: band %.4f%% (p50 %.4f%%, p95 %.4f%%) over %d pairs (%d of identical code) of %d cells, %d tests, from %d counting runs (%d superseded)",
		b.Metric, 100*b.Band, 100**b.P50, 100**b.P95, b.Pairs, b.IdenticalCodePairs, b.Cells, b.Tests, b.Runs, b.SupersededRuns)
}
