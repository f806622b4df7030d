package model

import (
	"errors"
	"math"
)

// errSingular is returned when the predictors do not determine the
// coefficients (one is a multiple or sum of others over the points given).
var errSingular = errors.New("model: predictors are collinear over the points")

// leastSquares solves min |X b - y|² by the normal equations X'X b = X'y,
// with no intercept: a build whose counts equal the baseline's is predicted
// to run as fast. x is [point][predictor].
func leastSquares(x [][]float64, y []float64) ([]float64, error) {
	if len(x) == 0 {
		return nil, errSingular
	}
	k := len(x[0])
	if len(x) < k {
		return nil, errSingular
	}
	// The augmented matrix [X'X | X'y].
	a := make([][]float64, k)
	for i := range a {
		a[i] = make([]float64, k+1)
		for n := range x {
			for j := 0; j < k; j++ {
				a[i][j] += x[n][i] * x[n][j]
			}
			a[i][k] += x[n][i] * y[n]
		}
	}
	return solve(a)
}

// solve is Gaussian elimination with partial pivoting of the augmented
// k × (k+1) matrix a (modified in place).
func solve(a [][]float64) ([]float64, error) {
	k := len(a)
	scale := 0.0
	for i := range a {
		scale = math.Max(scale, math.Abs(a[i][i]))
	}
	for col := 0; col < k; col++ {
		pivot := col
		for r := col + 1; r < k; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[pivot][col]) {
				pivot = r
			}
		}
		if math.Abs(a[pivot][col]) <= 1e-12*scale || scale == 0 {
			return nil, errSingular
		}
		a[col], a[pivot] = a[pivot], a[col]
		for r := col + 1; r < k; r++ {
			f := a[r][col] / a[col][col]
			for c := col; c <= k; c++ {
				a[r][c] -= f * a[col][c]
			}
		}
	}
	b := make([]float64, k)
	for i := k - 1; i >= 0; i-- {
		s := a[i][k]
		for j := i + 1; j < k; j++ {
			s -= a[i][j] * b[j]
		}
		b[i] = s / a[i][i]
	}
	return b, nil
}
