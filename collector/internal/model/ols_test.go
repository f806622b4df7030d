package model

import (
	"math"
	"testing"
)

func TestLeastSquaresRecoversExactCoefficients(t *testing.T) {
	// y = 2 x1 - 0.5 x2, exactly, on four points.
	x := [][]float64{{1, 0}, {0, 1}, {1, 1}, {2, -1}}
	var y []float64
	for _, p := range x {
		y = append(y, 2*p[0]-0.5*p[1])
	}
	b, err := leastSquares(x, y)
	if err != nil || math.Abs(b[0]-2) > 1e-12 || math.Abs(b[1]+0.5) > 1e-12 {
		t.Errorf("b = %v, %v; want [2 -0.5]", b, err)
	}
}

func TestLeastSquaresThroughTheOriginMinimisesTheSquaredError(t *testing.T) {
	// One predictor, no intercept: b = Σxy / Σx² = (1·1 + 2·3) / (1 + 4) = 1.4.
	b, err := leastSquares([][]float64{{1}, {2}}, []float64{1, 3})
	if err != nil || math.Abs(b[0]-1.4) > 1e-12 {
		t.Errorf("b = %v, %v; want [1.4]", b, err)
	}
}

func TestLeastSquaresRefusesCollinearPredictors(t *testing.T) {
	if _, err := leastSquares([][]float64{{1, 2}, {2, 4}, {3, 6}}, []float64{1, 2, 3}); err == nil {
		t.Error("collinear predictors gave coefficients")
	}
	if _, err := leastSquares([][]float64{{1, 2}}, []float64{1}); err == nil {
		t.Error("fewer points than predictors gave coefficients")
	}
}
