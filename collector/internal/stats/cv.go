package stats

import (
	"math"
	"sort"
)

// UnstableCV is the coefficient of variation above which a figure is marked
// unstable, as Redis's benchmark specification does.
const UnstableCV = 0.10

// CV is the coefficient of variation of xs: the sample standard deviation
// (n - 1) over the mean; NaN values are left out, and it is NaN with fewer
// than two values.
func CV(xs []float64) float64 {
	var vs []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			vs = append(vs, x)
		}
	}
	if len(vs) < 2 {
		return math.NaN()
	}
	mean := 0.0
	for _, v := range vs {
		mean += v
	}
	mean /= float64(len(vs))
	ss := 0.0
	for _, v := range vs {
		ss += (v - mean) * (v - mean)
	}
	return math.Sqrt(ss/float64(len(vs)-1)) / mean
}

// Unstable reports whether a coefficient of variation is above UnstableCV.
func Unstable(cv float64) bool { return cv > UnstableCV }

// Median is the median of xs, NaN values left out (NaN when none is left).
func Median(xs []float64) float64 {
	var vs []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			vs = append(vs, x)
		}
	}
	if len(vs) == 0 {
		return math.NaN()
	}
	sort.Float64s(vs)
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2]
	}
	return (vs[n/2-1] + vs[n/2]) / 2
}
