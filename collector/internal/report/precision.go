package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/redis-compiler-benchmarks/collector/internal/stats"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// figures are one (hardware class, version, mode)'s requests per second:
// per cell, per round, per test.
type figures struct {
	class, version, mode string
	cells                map[string]map[int]map[string]float64 // cell id -> round -> test -> rps
	tests                map[string]int32                      // test -> test index
	runs                 map[string]map[int]store.Run          // cell id -> round -> run
	// seconds is how long each test lasted by the client's clock.
	seconds []float64
}

// roundsOf gathers the figures of d per class, version and mode. A precision
// run's round is its repeat number (one per round of every configuration); a
// reference run's is its rank among its cell's repeats on its class (the
// class's n-th repeat), so reference repeats pair as their passes over the
// matrix did.
func roundsOf(d *store.Data) map[[3]string]*figures {
	classOf := ClassOfRun(d)
	round := map[string]int{}
	byCell := map[[2]string][]store.Run{}
	for _, r := range d.Runs {
		k := [2]string{classOf[r.RunID], r.CellID + "\x00" + r.Mode}
		byCell[k] = append(byCell[k], r)
	}
	for _, rs := range byCell {
		sort.Slice(rs, func(i, j int) bool { return rs[i].Repeat < rs[j].Repeat })
		for i, r := range rs {
			round[r.RunID] = i + 1
			if r.RoundSeed != nil {
				round[r.RunID] = int(r.Repeat)
			}
		}
	}
	runs := map[string]store.Run{}
	for _, r := range d.Runs {
		runs[r.RunID] = r
	}
	out := map[[3]string]*figures{}
	for _, res := range d.Results {
		run, ok := runs[res.RunID]
		if !ok || res.Status != "ok" || res.RPS == nil {
			continue
		}
		k := [3]string{classOf[res.RunID], res.Version, res.Mode}
		f := out[k]
		if f == nil {
			f = &figures{class: k[0], version: k[1], mode: k[2], cells: map[string]map[int]map[string]float64{}, tests: map[string]int32{},
				runs: map[string]map[int]store.Run{}}
			out[k] = f
		}
		if f.cells[res.CellID] == nil {
			f.cells[res.CellID] = map[int]map[string]float64{}
		}
		r := round[run.RunID]
		if f.cells[res.CellID][r] == nil {
			f.cells[res.CellID][r] = map[string]float64{}
		}
		if f.runs[res.CellID] == nil {
			f.runs[res.CellID] = map[int]store.Run{}
		}
		f.runs[res.CellID][r] = run
		f.cells[res.CellID][r][res.Test] = *res.RPS
		f.tests[res.Test] = res.TestIndex
		if n := requestsOf(res, run); n > 0 {
			f.seconds = append(f.seconds, float64(n) / *res.RPS)
		}
	}
	return out
}

// requestsOf is the request count of a result: its own (precision modes),
// else the -n of its run's client arguments (0 if none).
func requestsOf(res store.Result, run store.Run) int64 {
	if res.Requests != nil {
		return *res.Requests
	}
	args := strings.Fields(run.ClientArgs)
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "-n" {
			n, _ := strconv.ParseInt(args[i+1], 10, 64)
			return n
		}
	}
	return 0
}

// matrix is cell's figures as [round][test] over rounds and tests, NaN where missing.
func (f *figures) matrix(cell string, rounds []int, tests []string) [][]float64 {
	m := make([][]float64, len(rounds))
	for i, r := range rounds {
		for _, t := range tests {
			v, ok := f.cells[cell][r][t]
			if !ok {
				v = math.NaN()
			}
			m[i] = append(m[i], v)
		}
	}
	return m
}

// axes are the rounds and tests (in the client's order) f has.
func (f *figures) axes() ([]int, []string) {
	seen := map[int]bool{}
	var rounds []int
	for _, byRound := range f.cells {
		for r := range byRound {
			if !seen[r] {
				seen[r] = true
				rounds = append(rounds, r)
			}
		}
	}
	sort.Ints(rounds)
	var tests []string
	for t := range f.tests {
		tests = append(tests, t)
	}
	sort.Slice(tests, func(i, j int) bool {
		if f.tests[tests[i]] != f.tests[tests[j]] {
			return f.tests[tests[i]] < f.tests[tests[j]]
		}
		return tests[i] < tests[j]
	})
	return rounds, tests
}

// medianCV is the median over tests of the coefficient of variation of
// m[round][test] across rounds, and how many of those are unstable.
func medianCV(m [][]float64, tests int) (float64, int, int) {
	var cvs []float64
	unstable := 0
	for t := 0; t < tests; t++ {
		var col []float64
		for _, row := range m {
			col = append(col, row[t])
		}
		if cv := stats.CV(col); !math.IsNaN(cv) {
			cvs = append(cvs, cv)
			if stats.Unstable(cv) {
				unstable++
			}
		}
	}
	return stats.Median(cvs), unstable, len(cvs)
}

// Precision prints, per hardware class and version that has runs in any of
// the precision modes (or, given versions, per version of those), and for
// each of those modes and then each reference mode: every configuration's effect against baseline (a cell id without its
// version, e.g. "gcc|-O2") as the geometric mean over rounds and tests of
// per-round paired ratios, the half-width of its bootstrap interval (rounds
// and tests resampled, o), the verdict, the median half-width of its
// per-test intervals (rounds resampled), and the median over tests of its
// coefficient of variation across rounds.
func Precision(w io.Writer, d *store.Data, precision, reference, versions []string, baseline string, o stats.Options) {
	all := roundsOf(d)
	var keys [][3]string
	for k := range all {
		if len(versions) > 0 && slices.Contains(versions, k[1]) || len(versions) == 0 && slices.Contains(precision, k[2]) {
			for _, m := range append(append([]string(nil), precision...), reference...) {
				if _, ok := all[[3]string{k[0], k[1], m}]; ok && !slices.Contains(keys, [3]string{k[0], k[1], m}) {
					keys = append(keys, [3]string{k[0], k[1], m})
				}
			}
		}
	}
	modeRank := func(m string) int { return slices.Index(append(append([]string(nil), precision...), reference...), m) }
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a[0] != b[0] || a[1] != b[1] {
			return a[0]+"\x00"+a[1] < b[0]+"\x00"+b[1]
		}
		return modeRank(a[2]) < modeRank(b[2])
	})
	if len(keys) == 0 {
		fmt.Fprintf(w, "no runs in the precision modes (%s) or of the versions asked for\n", strings.Join(precision, ", "))
		return
	}
	for _, k := range keys {
		precisionTable(w, all[k].effects(baseline, o), baseline, slices.Contains(precision, k[2]))
	}
	fmt.Fprintf(w, "effect: geometric mean over rounds and tests of the per-round ratio to %s (requests/s); ± half-width of its %.0f%% bootstrap interval (%d resamples of rounds and tests, seed %d; expanded percentile levels for the number of rounds); a verdict only when the interval excludes no change; rounds only ±: the same interval with rounds resampled alone, every test kept once (the measurement's noise without the effect's spread from test to test); per test ±: median over tests of the half-width of each test's own interval (rounds resampled); CV: median over tests of the coefficient of variation across rounds (unstable above %.0f%%)\n",
		strings.ReplaceAll(baseline, "|", " "), 100*o.Confidence, o.Resamples, o.Seed, 100*stats.UnstableCV)
}

// Effect is one configuration's effect against the baseline in one (hardware
// class, version, mode): the geometric mean over rounds and tests of its
// per-round paired ratios with its bootstrap interval, and the median over
// tests of its coefficient of variation across rounds.
type Effect struct {
	// Config is the cell id without its version, e.g. "clang|-O2".
	Config  string
	Summary stats.Summary
	// PerTest is the median over tests of the half-width of each test's own
	// interval (rounds resampled); RoundsOnly the half-width of the summary's
	// interval with rounds resampled alone (every test kept once).
	PerTest, RoundsOnly float64
	// MedianCV is the median over tests of the coefficient of variation across
	// rounds; Unstable of the Tests with one, how many are above stats.UnstableCV.
	MedianCV        float64
	Unstable, Tests int
}

// Effects are one (hardware class, version, mode)'s configurations against
// the baseline.
type Effects struct {
	Class, Version, Mode string
	Rounds, Tests        int
	// Baseline is the baseline's coefficients of variation (no Summary);
	// Effects the other configurations', in cell id order. No effects without
	// the baseline's figures.
	Baseline Effect
	Effects  []Effect
	// Seconds is how long each test lasted by the client's clock.
	Seconds []float64
	// Variance is where the figures' noise lies.
	Variance Variance
}

// EffectsOf computes, for every (hardware class, version, mode) with runs
// that keep accepts, its configurations against baseline (a cell id without
// its version, e.g. "gcc|-O2"), as Precision prints them: precision modes pair
// runs by round, reference modes by their n-th repeat on the class.
func EffectsOf(d *store.Data, keep func(class, version, mode string) bool, baseline string, o stats.Options) []Effects {
	var out []Effects
	for k, f := range roundsOf(d) {
		if keep(k[0], k[1], k[2]) {
			out = append(out, f.effects(baseline, o))
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.Class+"\x00"+a.Version+"\x00"+a.Mode < b.Class+"\x00"+b.Version+"\x00"+b.Mode
	})
	return out
}

// effects is f's configurations against baseline.
func (f *figures) effects(baseline string, o stats.Options) Effects {
	rounds, tests := f.axes()
	out := Effects{Class: f.class, Version: f.version, Mode: f.mode, Rounds: len(rounds), Tests: len(tests), Seconds: f.seconds}
	base := f.version + "|" + baseline
	if _, ok := f.cells[base]; !ok {
		return out
	}
	out.Variance = f.variance(rounds, tests)
	bm := f.matrix(base, rounds, tests)
	out.Baseline = Effect{Config: baseline}
	out.Baseline.MedianCV, out.Baseline.Unstable, out.Baseline.Tests = medianCV(bm, len(tests))
	var cells []string
	for c := range f.cells {
		if c != base {
			cells = append(cells, c)
		}
	}
	sort.Strings(cells)
	for _, c := range cells {
		m := f.matrix(c, rounds, tests)
		logs := stats.LogRatios(m, bm)
		fixed := o
		fixed.FixedTests = true
		e := Effect{Config: strings.TrimPrefix(c, f.version+"|"), Summary: stats.Effect(logs, o), PerTest: perTestHalfWidth(logs, o),
			RoundsOnly: stats.Effect(logs, fixed).HalfWidth()}
		e.MedianCV, e.Unstable, e.Tests = medianCV(m, len(tests))
		out.Effects = append(out.Effects, e)
	}
	return out
}

// Variance splits the figures' noise, as standard deviations of the
// logarithm of requests/s (0.05: about 5%), over the complete rounds (every
// configuration measured every test): x[c][r][t] = m[c][t] + round[r] +
// run[c][r] + rest[c][r][t], where m is each configuration's mean over rounds
// per test, round what a round shares across configurations (pairing removes
// it), run what one run shares across its tests beyond its round (pairing
// keeps it, and averaging over tests does not shrink it), and rest the
// remainder per test. Steal and Probe correlate the run components with the
// runs' host steal and memory-write probe (mean of before and after).
type Variance struct {
	Round, Run, Rest float64
	// Rounds and Configs are how many complete rounds and configurations
	// the split is over (NaN figures with fewer than two rounds).
	Rounds, Configs int
	Steal, Probe    float64
}

// variance is f's Variance over rounds and tests.
func (f *figures) variance(rounds []int, tests []string) Variance {
	v := Variance{Round: math.NaN(), Run: math.NaN(), Rest: math.NaN(), Steal: math.NaN(), Probe: math.NaN()}
	var cells []string
	for c := range f.cells {
		cells = append(cells, c)
	}
	sort.Strings(cells)
	// Complete rounds: every configuration has every test.
	var full []int
	for _, r := range rounds {
		ok := true
		for _, c := range cells {
			for _, t := range tests {
				if x, has := f.cells[c][r][t]; !has || x <= 0 {
					ok = false
				}
			}
		}
		if ok {
			full = append(full, r)
		}
	}
	v.Rounds, v.Configs = len(full), len(cells)
	if len(full) < 2 || len(cells) == 0 || len(tests) == 0 {
		return v
	}
	nR, nC, nT := len(full), len(cells), len(tests)
	x := make([][][]float64, nC)
	for ci, c := range cells {
		x[ci] = make([][]float64, nR)
		for ri, r := range full {
			for _, t := range tests {
				x[ci][ri] = append(x[ci][ri], math.Log(f.cells[c][r][t]))
			}
		}
		// Less each test's mean over rounds.
		for ti := 0; ti < nT; ti++ {
			mean := 0.0
			for ri := 0; ri < nR; ri++ {
				mean += x[ci][ri][ti] / float64(nR)
			}
			for ri := 0; ri < nR; ri++ {
				x[ci][ri][ti] -= mean
			}
		}
	}
	round := make([]float64, nR)
	for ri := range round {
		for ci := 0; ci < nC; ci++ {
			for ti := 0; ti < nT; ti++ {
				round[ri] += x[ci][ri][ti] / float64(nC*nT)
			}
		}
	}
	var runs, rest, steal, probe []float64
	var ssRound, ssRun, ssRest float64
	for ri := range round {
		ssRound += round[ri] * round[ri]
	}
	for ci, c := range cells {
		for ri, r := range full {
			run := -round[ri]
			for ti := 0; ti < nT; ti++ {
				run += x[ci][ri][ti] / float64(nT)
			}
			ssRun += run * run
			for ti := 0; ti < nT; ti++ {
				e := x[ci][ri][ti] - round[ri] - run
				ssRest += e * e
				rest = append(rest, e)
			}
			meta := f.runs[c][r]
			runs = append(runs, run)
			steal = append(steal, value(meta.StealPct))
			probe = append(probe, (value(meta.MemWriteBefore)+value(meta.MemWriteAfter))/2)
		}
	}
	// Degrees of freedom of a two-way layout (configuration x test means
	// fitted first): rounds nR-1; runs (nC-1)(nR-1); rest nC(nR-1)(nT-1).
	v.Round = math.Sqrt(ssRound / float64(nR-1))
	v.Run = math.Sqrt(ssRun / float64((nC-1)*(nR-1)))
	if nC == 1 {
		v.Run = math.NaN()
	}
	if nT > 1 {
		v.Rest = math.Sqrt(ssRest / float64(nC*(nR-1)*(nT-1)))
	}
	v.Steal, v.Probe = stats.Correlation(runs, steal), stats.Correlation(runs, probe)
	return v
}

// value is *p, NaN for nil.
func value(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// precisionTable prints one (class, version, mode)'s configurations.
func precisionTable(w io.Writer, e Effects, baseline string, isPrecision bool) {
	kind := "precision, interleaved rounds"
	if !isPrecision {
		kind = "reference, repeats paired by pass"
	}
	fmt.Fprintf(w, "\n%s %s (%s) on %s: %d rounds, %d tests\n", e.Version, e.Mode, kind, e.Class, e.Rounds, e.Tests)
	if len(e.Seconds) > 0 {
		shortest := slices.Min(e.Seconds)
		fmt.Fprintf(w, "  a test lasts %.3f s at the shortest, %.3f s at the median (client's clock): one millisecond is at most %.2f%% of a figure\n",
			shortest, stats.Median(e.Seconds), 100*0.001/shortest)
	}
	if e.Baseline.Config == "" {
		fmt.Fprintf(w, "  no figures of the baseline %s\n", strings.ReplaceAll(e.Version+"|"+baseline, "|", " "))
		return
	}
	name := func(config string) string { return strings.ReplaceAll(config, "|", " ") }
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  configuration\teffect\t± half-width\tverdict\trounds only ±\tper test ±\tmedian CV\tunstable\t")
	rows := append([]Effect{e.Baseline}, e.Effects...)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Config < rows[j].Config })
	var halfWidths, roundsOnly, testHalfWidths []float64
	for _, x := range rows {
		if x.Config == e.Baseline.Config {
			fmt.Fprintf(tw, "  %s\tbaseline\t\t\t\t\t%s\t%d/%d\t\n", name(x.Config), percent(x.MedianCV, "%.2f%%"), x.Unstable, x.Tests)
			continue
		}
		s := x.Summary
		halfWidths, testHalfWidths = append(halfWidths, s.HalfWidth()), append(testHalfWidths, x.PerTest)
		roundsOnly = append(roundsOnly, x.RoundsOnly)
		verdict := s.Verdict()
		if s.Rounds < stats.MinRounds {
			verdict = "one round: no interval"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%d/%d\t\n", name(x.Config), percent(s.Center-1, "%+.2f%%"), percent(s.HalfWidth(), "%.2f%%"),
			verdict, percent(x.RoundsOnly, "%.2f%%"), percent(x.PerTest, "%.2f%%"), percent(x.MedianCV, "%.2f%%"), x.Unstable, x.Tests)
	}
	tw.Flush()
	fmt.Fprintf(w, "  median half-width %s, largest %s; rounds only: median %s; per test: median %s\n", percent(stats.Median(halfWidths), "%.2f%%"),
		percent(largest(halfWidths), "%.2f%%"), percent(stats.Median(roundsOnly), "%.2f%%"), percent(stats.Median(testHalfWidths), "%.2f%%"))
	if v := e.Variance; v.Rounds >= 2 {
		fmt.Fprintf(w, "  noise over %d complete rounds of %d configurations (SD of ln requests/s): round %s (shared by a round; pairing removes it), run %s (shared by a run's tests; pairing keeps it), test %s; run component against host steal r = %s, against the memory-write probe r = %s\n",
			v.Rounds, v.Configs, percent(v.Round, "%.2f%%"), percent(v.Run, "%.2f%%"), percent(v.Rest, "%.2f%%"), corr(v.Steal), corr(v.Probe))
	}
}

// perTestHalfWidth is the median over tests of the half-width of each test's
// own interval (rounds resampled): the measurement's precision, without the
// spread of the effect across tests that the summary's interval includes.
func perTestHalfWidth(logs [][]float64, o stats.Options) float64 {
	var hws []float64
	for t := range logs[0] {
		col := make([][]float64, len(logs))
		for r := range logs {
			col[r] = []float64{logs[r][t]}
		}
		hws = append(hws, stats.Effect(col, o).HalfWidth())
	}
	return stats.Median(hws)
}

// corr formats a correlation, "–" for NaN.
func corr(r float64) string {
	if math.IsNaN(r) {
		return "–"
	}
	return fmt.Sprintf("%+.2f", r)
}

// percent formats a fraction as a percentage with format, "–" for NaN (no figure).
func percent(x float64, format string) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf(format, 100*x)
}

// largest is the largest of xs, NaN values left out (NaN when none is left).
func largest(xs []float64) float64 {
	out := math.NaN()
	for _, x := range xs {
		if !math.IsNaN(x) && (math.IsNaN(out) || x > out) {
			out = x
		}
	}
	return out
}
