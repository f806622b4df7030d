package store

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// rebuildFixture is a small dataset of builds and their counts, one SET
// figure per (build, mode), for the rebuild pairs and bands:
//
//   - 7.4.1 clang -O2 -flto: a1 and a2 (two machines, other code) count
//     instructions 0.5% and estimated cycles 2% apart in data mode, 0.1%
//     and 0% in pipe mode; a3 (another compiler version), a4 (jemalloc for 57
//     address bits) and a5 (the -fcommon retry) are no rebuilds of them.
//   - 7.4.0 gcc -O2: b1 and b2 are one code and count alike (a pair of
//     identical code); b3's only runs are a disturbed pair (repeats
//     differed), b4's were counted under protocol 6, b5's were set aside
//     for jemalloc's address bits: none of the three is compared.
//   - 6.2.15 gcc -O2: c1 and c2 were built from the wrong commit (a stale
//     source): not compared.
//   - 3.2.8 gcc -O2 from a tarball: d1 (no code hash; its runs set aside
//     for that, still its own counts) and d2 (counted again) are a pair by
//     the tarball's digest; their L1 misses are 0 on one side (no ratio) and
//     their last-level misses 0 on both (no difference).
//   - 2.8.24 gcc -O2: e1 and e2 from two different tarballs: no pair.
func rebuildFixture() *Data {
	at := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	s := func(v string) *string { return &v }
	i32 := func(v int32) *int32 { return &v }
	d := &Data{}
	build := func(id, cell, commit, sha, cc string, code *string, lg *int32, compat string) {
		d.Builds = append(d.Builds, Build{BuildID: id, CellID: cell, Status: "ok", SourceCommit: commit, SourceSHA256: sha, CCVersion: cc,
			CodeSHA256: code, JemallocLgVaddr: lg, CompatFlags: compat, StartedAt: at.Add(time.Duration(len(d.Builds)) * time.Hour)})
	}
	build("a1", "7.4.1|clang|-O2 -flto", "c741", "", "clang 19.1.7", s("3d46"), i32(48), "")
	build("a2", "7.4.1|clang|-O2 -flto", "c741", "", "clang 19.1.7", s("5092"), i32(48), "")
	build("a3", "7.4.1|clang|-O2 -flto", "c741", "", "clang 19.1.8", s("7777"), i32(48), "")
	build("a4", "7.4.1|clang|-O2 -flto", "c741", "", "clang 19.1.7", s("5757"), i32(57), "")
	build("a5", "7.4.1|clang|-O2 -flto", "c741", "", "clang 19.1.7", s("fc0m"), i32(48), "-fcommon")
	build("b1", "7.4.0|gcc|-O2", "c740", "", "gcc 12.2.0", s("aaaa"), i32(48), "")
	build("b2", "7.4.0|gcc|-O2", "c740", "", "gcc 12.2.0", s("aaaa"), nil, "")
	build("b3", "7.4.0|gcc|-O2", "c740", "", "gcc 12.2.0", s("bbbb"), i32(48), "")
	build("b4", "7.4.0|gcc|-O2", "c740", "", "gcc 12.2.0", s("cccc"), i32(48), "")
	build("b5", "7.4.0|gcc|-O2", "c740", "", "gcc 12.2.0", s("dddd"), i32(48), "")
	build("c1", "6.2.15|gcc|-O2", "c6214", "", "gcc 12.2.0", s("eeee"), i32(48), "")
	build("c2", "6.2.15|gcc|-O2", "c6214", "", "gcc 12.2.0", s("ffff"), i32(48), "")
	build("d1", "3.2.8|gcc|-O2", "", "sha328", "gcc 12.2.0", nil, i32(0), "")
	build("d2", "3.2.8|gcc|-O2", "", "sha328", "gcc 12.2.0", s("9999"), i32(0), "")
	build("e1", "2.8.24|gcc|-O2", "", "sha2824", "gcc 12.2.0", s("1111"), i32(0), "")
	build("e2", "2.8.24|gcc|-O2", "", "sha2824-other", "gcc 12.2.0", s("2222"), i32(0), "")
	type figures struct{ ir, cycles, l1, ll float64 }
	count := func(superseded bool, protocol int32, redone string, b string, mode string, f figures) {
		// A cell's repeats are numbered across its builds, as collector count numbers them.
		var cell string
		var first int32
		for i, x := range d.Builds {
			if x.BuildID == b {
				cell, first = x.CellID, int32(2*i+1)
			}
		}
		for repeat := first; repeat <= first+1; repeat++ {
			r := CountRun{RunID: fmt.Sprintf("%s-%s-%d", b, mode, repeat), CellID: cell, BuildID: b, Mode: mode, Repeat: repeat, Status: "ok", Protocol: protocol}
			c := Count{RunID: r.RunID, BuildID: b, CellID: cell, Mode: mode, Repeat: repeat, Test: "SET", Status: "ok",
				InstructionsPerRequest: &f.ir, EstCyclesPerRequest: &f.cycles, L1MissesPerRequest: &f.l1, LLMissesPerRequest: &f.ll}
			if redone != "" {
				r.Redone = &redone
			}
			if superseded {
				d.SupersededCountRuns, d.SupersededCounts = append(d.SupersededCountRuns, r), append(d.SupersededCounts, c)
			} else {
				d.CountRuns, d.Counts = append(d.CountRuns, r), append(d.Counts, c)
			}
		}
	}
	current := func(b, mode string, f figures) { count(false, CountProtocol, "", b, mode, f) }
	current("a1", "data", figures{5000, 8000, 20, 0.1})
	current("a2", "data", figures{5025, 8160, 20, 0.1})
	current("a1", "pipe", figures{3000, 4000, 10, 0.1})
	current("a2", "pipe", figures{3003, 4000, 10, 0.1})
	for _, b := range []string{"a3", "a4", "a5"} {
		current(b, "data", figures{6000, 9000, 30, 0.2})
	}
	current("b1", "data", figures{4000, 6000, 15, 0.05})
	current("b2", "data", figures{4000, 6000, 15, 0.05})
	count(true, CountProtocol, RedoneRepeatsDiffered+": SET 0.0412% apart", "b3", "data", figures{4400, 6000, 15, 0.05})
	count(true, 6, "", "b4", "data", figures{4400, 6000, 15, 0.05})
	count(true, CountProtocol, RedoneWrongLgVaddr+" 57-bit virtual addresses (machine m2), not 48", "b5", "data", figures{4400, 6000, 15, 0.05})
	count(true, CountProtocol, RedoneStaleSource+"git 6.2.15 (commit c6214), not the source 6.2.15 resolves to now", "c1", "data", figures{4400, 6000, 15, 0.05})
	count(true, CountProtocol, RedoneStaleSource+"git 6.2.15 (commit c6214), not the source 6.2.15 resolves to now", "c2", "data", figures{4000, 6000, 15, 0.05})
	count(true, CountProtocol, "counted on build d1, recorded without a code hash", "d1", "data", figures{3000, 4500, 0, 0})
	current("d2", "data", figures{3006, 4500, 12, 0})
	current("e1", "data", figures{3000, 4500, 12, 0})
	current("e2", "data", figures{3300, 4500, 12, 0})
	return d
}

func TestRebuildPairsAreTwoCountedBuildsOfOneCellFromTheSameInputs(t *testing.T) {
	var got []string
	d := rebuildFixture()
	for _, p := range rebuildPairs(d.Builds, d.countedBuilds()) {
		got = append(got, fmt.Sprintf("%s %s-%s same code %v", p.A.CellID, p.A.BuildID, p.B.BuildID, p.SameCode()))
	}
	want := []string{
		"3.2.8|gcc|-O2 d1-d2 same code false",
		"7.4.0|gcc|-O2 b1-b2 same code true",
		"7.4.1|clang|-O2 -flto a1-a2 same code false",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("pairs\n%q\nwant\n%q", got, want)
	}
}

func TestRebuildBandsAreTheLargestDifferenceOverThePairs(t *testing.T) {
	bands := map[string]RebuildBand{}
	for _, b := range rebuildFixture().MeasureRebuildBands() {
		bands[b.Metric] = b
	}
	if len(bands) != len(CountedMetrics) {
		t.Fatalf("%d bands, want one per counted metric (%d)", len(bands), len(CountedMetrics))
	}
	near := func(p *float64, want float64) bool { return p != nil && math.Abs(*p-want) < 1e-12 }
	// Instructions: a1-a2 0.5% (data) and 0.1% (pipe), b1-b2 0, d1-d2 0.2%.
	ir := bands["instructions_per_request"]
	if ir.Band != 0.005 || !near(ir.Max, 0.005) || !near(ir.P50, 0.001) || !near(ir.P95, 0.005) {
		t.Errorf("instructions: band %v, p50 %v, p95 %v, max %v; want 0.005, 0.001, 0.005, 0.005", ir.Band, deref64(ir.P50), deref64(ir.P95), deref64(ir.Max))
	}
	// a1 and a2 two runs in each of two modes, b1, b2 and d2 two, d1 two set aside.
	if ir.Pairs != 3 || ir.IdenticalCodePairs != 1 || ir.Cells != 3 || ir.Tests != 4 || ir.Runs != 16 || ir.SupersededRuns != 2 || ir.Protocol != CountProtocol {
		t.Errorf("instructions: %+v; want 3 pairs (1 of identical code) of 3 cells, 4 tests, 16 runs (2 superseded), protocol %d", ir, CountProtocol)
	}
	if c := bands["est_cycles_per_request"]; c.Band != 0.02 {
		t.Errorf("estimated cycles: band %v, want 0.02 (a1-a2 in data mode)", c.Band)
	}
	// d1's L1 misses are 0 and d2's 12: no ratio, so that pair has no L1 figure.
	if l1 := bands["l1_misses_per_request"]; l1.Band != 0 || l1.Pairs != 2 || l1.Tests != 3 {
		t.Errorf("L1 misses: %+v; want band 0 over 2 pairs, 3 tests (d1-d2 has no ratio)", l1)
	}
	// Two zeros are equal: d1-d2's last-level misses count, as no difference.
	if ll := bands["ll_misses_per_request"]; ll.Band != 0 || ll.Pairs != 3 || ll.Tests != 4 {
		t.Errorf("last-level misses: %+v; want band 0 over 3 pairs, 4 tests", ll)
	}
	if br := bands["branch_misses_per_request"]; br.Band != 0 || br.Pairs != 0 || br.P95 != nil {
		t.Errorf("branch mispredictions (not counted in the fixture): %+v; want no pair, band 0, no percentiles", br)
	}
}

func deref64(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// A save that writes counts writes their bands; a directory without the
// table (written before it) loads with none.
func TestSaveWritesTheRebuildBandsAndLoadReadsThemIfThere(t *testing.T) {
	dir := t.TempDir()
	d := rebuildFixture()
	if err := d.Save(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.RebuildBands) != len(CountedMetrics) || RebuildBandOf(got.RebuildBands, "instructions_per_request") != 0.005 {
		t.Errorf("loaded bands %+v; want one per metric, instructions 0.005", got.RebuildBands)
	}
	if err := os.Remove(filepath.Join(dir, RebuildBandsFile)); err != nil {
		t.Fatal(err)
	}
	if got, err = Load(dir); err != nil || got.RebuildBands != nil || RebuildBandOf(got.RebuildBands, "instructions_per_request") != 0 {
		t.Errorf("a directory without %s: %v, bands %+v; want none, floor 0", RebuildBandsFile, err, got.RebuildBands)
	}
}
