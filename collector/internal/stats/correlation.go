package stats

import "math"

// Correlation is Pearson's r of the pairs where both are numbers (NaN with
// fewer than three, or when either does not vary).
func Correlation(xs, ys []float64) float64 {
	var a, b []float64
	for i := range xs {
		if !math.IsNaN(xs[i]) && !math.IsNaN(ys[i]) {
			a, b = append(a, xs[i]), append(b, ys[i])
		}
	}
	if len(a) < 3 {
		return math.NaN()
	}
	ma, mb := Mean(a), Mean(b)
	var sab, saa, sbb float64
	for i := range a {
		sab += (a[i] - ma) * (b[i] - mb)
		saa += (a[i] - ma) * (a[i] - ma)
		sbb += (b[i] - mb) * (b[i] - mb)
	}
	if saa == 0 || sbb == 0 {
		return math.NaN()
	}
	return sab / math.Sqrt(saa*sbb)
}

// Mean is the arithmetic mean of xs (NaN when empty).
func Mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
