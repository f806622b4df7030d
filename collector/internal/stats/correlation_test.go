package stats

import (
	"math"
	"testing"
)

func TestCorrelationIsPearsonsOverPairsOfNumbers(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		xs, ys []float64
		want   float64
	}{
		{[]float64{1, 2, 3, nan}, []float64{2, 4, 6, 1}, 1},
		{[]float64{1, 2, 3}, []float64{3, 2, 1}, -1},
		{[]float64{1, 2, 3, 4}, []float64{1, 3, 2, 4}, 0.8},
		{[]float64{1, 2, 3}, []float64{5, 5, 5}, nan},
		{[]float64{1, 2}, []float64{1, 2}, nan},
	} {
		if got := Correlation(c.xs, c.ys); !(math.Abs(got-c.want) < 1e-12 || math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("Correlation(%v, %v) = %v, want %v", c.xs, c.ys, got, c.want)
		}
	}
}
