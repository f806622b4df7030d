// Package stats compares configurations measured in interleaved rounds: the
// effect of a configuration against a baseline as the geometric mean of
// per-round paired ratios, with a bootstrap confidence interval that
// resamples whole rounds (and tests, for a summary over tests); a verdict
// only when the interval excludes no change; and the coefficient of
// variation of every figure. It is modelled on golang/perf's benchmath
// (a Summary is a center with an interval), and src/model/stats.ts computes
// the same figures in the site: tests/fixtures/fixture-stats.json holds the
// hand-worked cases both must pass.
package stats

import (
	"math"
	"sort"
)

// MinRounds is the fewest rounds an interval is computed from.
const MinRounds = 2

// Options configure a bootstrap.
type Options struct {
	// Resamples is the number of bootstrap resamples.
	Resamples int
	// Confidence is the interval's level in (0, 1), e.g. 0.95.
	Confidence float64
	// Seed seeds the resampling, so an interval is reproducible.
	Seed uint32
	// FixedTests resamples rounds alone, every test kept once: the interval
	// of the mean over these tests, the measurement's noise without the
	// spread of the effect from test to test.
	FixedTests bool
}

// DefaultOptions are 2000 resamples for a 95% interval, seed 1.
var DefaultOptions = Options{Resamples: 2000, Confidence: 0.95, Seed: 1}

// Summary is a ratio (configuration / baseline, of requests per second) and
// its confidence interval [Lo, Hi].
type Summary struct {
	Center, Lo, Hi float64
	// Confidence is the interval's level, e.g. 0.95.
	Confidence float64
	// Rounds and Tests are how many rounds and tests had a ratio.
	Rounds, Tests int
}

// HalfWidth is half the interval's width, as a fraction of a ratio of 1
// (0.01 is one percent).
func (s Summary) HalfWidth() float64 { return (s.Hi - s.Lo) / 2 }

// Verdicts of a comparison.
const (
	Faster   = "faster"
	Slower   = "slower"
	NoChange = "no change within noise"
)

// Verdict is Faster when the whole interval lies above 1, Slower when it lies
// below 1, else NoChange.
func (s Summary) Verdict() string {
	switch {
	case s.Lo > 1:
		return Faster
	case s.Hi < 1:
		return Slower
	}
	return NoChange
}

// LogRatios are the per-round paired ratios of a configuration against a
// baseline, as natural logarithms: out[r][t] = ln(x[r][t] / base[r][t]) for
// round r and test t, NaN where either figure is missing (NaN) or not
// positive. x and base are requests per second, [round][test].
func LogRatios(x, base [][]float64) [][]float64 {
	out := make([][]float64, len(x))
	for r := range x {
		out[r] = make([]float64, len(x[r]))
		for t := range x[r] {
			out[r][t] = math.NaN()
			if r < len(base) && t < len(base[r]) && x[r][t] > 0 && base[r][t] > 0 {
				out[r][t] = math.Log(x[r][t] / base[r][t])
			}
		}
	}
	return out
}

// Effect is the geometric mean of the ratios whose logarithms are
// logRatios[round][test] (NaN: missing), with a bootstrap interval: each
// resample draws as many rounds as there are, with replacement, then as many
// tests, and takes the mean of the logarithms over every drawn (round, test)
// pair. Rounds and tests with no ratio at all are left out first. Over one
// test, this is the geometric mean over rounds of its per-round ratios. With
// fewer than MinRounds rounds there is no interval (Lo and Hi are NaN), so no
// verdict: resampling tests alone would measure how tests differ, not noise.
func Effect(logRatios [][]float64, o Options) Summary {
	m := dropEmpty(logRatios)
	s := Summary{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: o.Confidence}
	if len(m) == 0 {
		return s
	}
	s.Rounds, s.Tests = len(m), len(m[0])
	all := make([]int, s.Rounds)
	for i := range all {
		all[i] = i
	}
	tests := make([]int, s.Tests)
	for i := range tests {
		tests[i] = i
	}
	s.Center = math.Exp(meanOver(m, all, tests))
	if s.Rounds < MinRounds {
		return s
	}
	rng := NewRand(o.Seed)
	var boot []float64
	rounds := make([]int, s.Rounds)
	for b := 0; b < o.Resamples; b++ {
		for i := range rounds {
			rounds[i] = rng.Intn(s.Rounds)
		}
		for i := range tests {
			if !o.FixedTests {
				tests[i] = rng.Intn(s.Tests)
			}
		}
		if v := meanOver(m, rounds, tests); !math.IsNaN(v) {
			boot = append(boot, v)
		}
	}
	if len(boot) == 0 {
		return s
	}
	sort.Float64s(boot)
	alpha := ExpandedAlpha(1-o.Confidence, s.Rounds)
	s.Lo = math.Exp(NearestRank(boot, alpha/2))
	s.Hi = math.Exp(NearestRank(boot, 1-alpha/2))
	return s
}

// ExpandedAlpha is the level at which the bootstrap distribution is cut for
// a 1 − alpha interval from n rounds: the expanded percentile interval
// (Hesterberg, "What Teachers Should Know About the Bootstrap", 2015). With
// few samples the bootstrap distribution of a mean is too narrow (its
// spread is the sample's with divisor n, not n − 1) and normal where the
// mean's is Student's t, so the plain percentile interval covers far less
// than it says (docs/evidence/noise-structure.md). The expanded
// interval takes the quantiles alpha'/2 and 1 − alpha'/2 with
// alpha' = 2 Φ(−√(n/(n−1)) · t(1 − alpha/2, n − 1)): from 5 rounds the
// 0.1% and 99.9% quantiles, from 2 or 3 the smallest and largest resample.
// NaN for n < 2.
func ExpandedAlpha(alpha float64, n int) float64 {
	if n < 2 {
		return math.NaN()
	}
	t := StudentQuantile(1-alpha/2, n-1)
	return 2 * NormalCDF(-math.Sqrt(float64(n)/float64(n-1))*t)
}

// NormalCDF is the standard normal distribution function, from the
// complementary error function of Numerical Recipes (erfcc: a Chebyshev
// fit, fractional error below 1.2e-7), written so that src/model/stats.ts
// computes the same numbers operation for operation.
func NormalCDF(x float64) float64 {
	z := math.Abs(x / math.Sqrt2)
	t := 1 / (1 + 0.5*z)
	erfc := t * math.Exp(-z*z-1.26551223+t*(1.00002368+t*(0.37409196+t*(0.09678418+t*(-0.18628806+
		t*(0.27886807+t*(-1.13520398+t*(1.48851587+t*(-0.82215223+t*0.17087277)))))))))
	if x < 0 {
		return erfc / 2
	}
	return 1 - erfc/2
}

// StudentCDF is the distribution function of Student's t with df (≥ 1)
// degrees of freedom, by the finite series of Abramowitz and Stegun 26.7.3
// (odd df) and 26.7.4 (even df).
func StudentCDF(t float64, df int) float64 {
	theta := math.Atan(math.Abs(t) / math.Sqrt(float64(df)))
	c2 := math.Cos(theta) * math.Cos(theta)
	var a float64 // P(|T| < |t|)
	if df%2 == 1 {
		sum, term := 0.0, 1.0
		if df > 1 {
			sum = 1
			for k := 3; k <= df-2; k += 2 {
				term *= c2 * float64(k-1) / float64(k)
				sum += term
			}
		}
		a = 2 / math.Pi * (theta + math.Sin(theta)*math.Cos(theta)*sum)
	} else {
		sum, term := 1.0, 1.0
		for k := 2; k <= df-2; k += 2 {
			term *= c2 * float64(k-1) / float64(k)
			sum += term
		}
		a = math.Sin(theta) * sum
	}
	if t < 0 {
		return (1 - a) / 2
	}
	return (1 + a) / 2
}

// StudentQuantile is the p-quantile (0.5 ≤ p < 1) of Student's t with df
// degrees of freedom, by bisection on StudentCDF.
func StudentQuantile(p float64, df int) float64 {
	lo, hi := 0.0, 1.0
	for StudentCDF(hi, df) < p {
		lo, hi = hi, 2*hi
	}
	for range 200 {
		mid := (lo + hi) / 2
		if StudentCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// meanOver is the mean of m[r][t] over every r in rounds and t in tests,
// NaN entries skipped (NaN when all are).
func meanOver(m [][]float64, rounds, tests []int) float64 {
	sum, n := 0.0, 0
	for _, r := range rounds {
		for _, t := range tests {
			if v := m[r][t]; !math.IsNaN(v) {
				sum += v
				n++
			}
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// dropEmpty leaves out the rows (rounds) and columns (tests) of m that hold
// no number, so that a test no round has (unsupported) is not drawn.
func dropEmpty(m [][]float64) [][]float64 {
	width := 0
	for _, row := range m {
		width = max(width, len(row))
	}
	keepCol := make([]bool, width)
	var rows [][]float64
	for _, row := range m {
		has := false
		for t, v := range row {
			if !math.IsNaN(v) {
				has, keepCol[t] = true, true
			}
		}
		if has {
			rows = append(rows, row)
		}
	}
	var out [][]float64
	for _, row := range rows {
		var kept []float64
		for t, keep := range keepCol {
			if keep {
				v := math.NaN()
				if t < len(row) {
					v = row[t]
				}
				kept = append(kept, v)
			}
		}
		out = append(out, kept)
	}
	return out
}

// NearestRank is the p-quantile of sorted values by the nearest-rank rule:
// the ceil(p·n)-th smallest (the smallest for p = 0).
func NearestRank(sorted []float64, p float64) float64 {
	k := int(math.Ceil(p*float64(len(sorted)) - 1e-9))
	return sorted[min(max(k, 1), len(sorted))-1]
}
