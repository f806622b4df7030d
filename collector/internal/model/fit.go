package model

import (
	"fmt"
	"math"
	"slices"

	"github.com/redis-compiler-benchmarks/collector/internal/stats"
)

// Spec is a model: the predictors of ln(measured ratio), fitted by least
// squares with no intercept (a build counted like the baseline is predicted
// to run as fast).
type Spec struct {
	Name       string
	Predictors []Predictor
}

// Specs are the models compared: no change at all (the null model the
// intervals are judged against), each one-predictor model, the counts
// together, and the counts with the compiler as an indicator.
var Specs = []Spec{
	{"no change", nil},
	{"instructions", []Predictor{Instructions}},
	{"est. cycles", []Predictor{EstCycles}},
	{"instructions + clang", []Predictor{Instructions, Clang}},
	{"counts", []Predictor{Instructions, L1Misses, LLMisses, BranchMisses}},
	{"counts + clang", []Predictor{Instructions, L1Misses, LLMisses, BranchMisses, Clang}},
	{"instruction mix", []Predictor{Instructions, DataAccesses, Branches}},
	{"instruction mix + clang", []Predictor{Instructions, DataAccesses, Branches, Clang}},
}

// Prediction is a point's effect as predicted by a model fitted without the
// point's version.
type Prediction struct {
	Point
	// Predicted is the predicted ratio (1.05: 5% faster); NaN when the model
	// could not be fitted without the point's version.
	Predicted float64
}

// Error is predicted − measured, in ratio units (0.01: one percentage point).
func (p Prediction) Error() float64 { return p.Predicted - p.Measured.Center }

// Inside says whether the prediction lies within the measured interval.
func (p Prediction) Inside() bool {
	return p.Predicted >= p.Measured.Lo && p.Predicted <= p.Measured.Hi
}

// Fit is a model fitted on every point, and its leave-one-version-out
// validation.
type Fit struct {
	Spec Spec
	// Coef are the coefficients fitted on every point, one per predictor
	// (0.74 for instructions: 1% more instructions, about 0.74% faster —
	// the sign is the data's); Folds the coefficients fitted without each
	// version, by version. Nil when the predictors are collinear or a
	// point lacks one.
	Coef  []float64
	Folds map[string][]float64
	// Predictions are every point's prediction from the fit without its version.
	Predictions []Prediction
	// R is Pearson's r of the predicted and measured ratios over the
	// predictions (NaN for the null model, which does not vary).
	R float64
}

// Evaluate fits s on points and predicts each version's points from a fit
// on the other versions'.
func Evaluate(points []Point, s Spec) Fit {
	f := Fit{Spec: s, Folds: map[string][]float64{}}
	f.Coef, _ = fit(points, s)
	for _, v := range versionsOf(points) {
		var train, test []Point
		for _, p := range points {
			if p.Version == v {
				test = append(test, p)
			} else {
				train = append(train, p)
			}
		}
		b, err := fit(train, s)
		if err == nil {
			f.Folds[v] = b
		}
		for _, p := range test {
			pred := math.NaN()
			if err == nil {
				pred = predict(p, s, b)
			}
			f.Predictions = append(f.Predictions, Prediction{Point: p, Predicted: pred})
		}
	}
	var pred, meas []float64
	for _, p := range f.Predictions {
		pred, meas = append(pred, p.Predicted), append(meas, p.Measured.Center)
	}
	f.R = stats.Correlation(pred, meas)
	return f
}

// fit is s's coefficients on points.
func fit(points []Point, s Spec) ([]float64, error) {
	if len(s.Predictors) == 0 {
		return []float64{}, nil
	}
	var x [][]float64
	var y []float64
	for _, p := range points {
		row := make([]float64, len(s.Predictors))
		for i, pr := range s.Predictors {
			row[i] = p.X[pr]
			if math.IsNaN(row[i]) {
				return nil, fmt.Errorf("model: %s %s has no %s count", p.Version, p.Name(), pr)
			}
		}
		x, y = append(x, row), append(y, math.Log(p.Measured.Center))
	}
	return leastSquares(x, y)
}

// predict is p's predicted ratio under coefficients b of s.
func predict(p Point, s Spec, b []float64) float64 {
	lr := 0.0
	for i, pr := range s.Predictors {
		lr += b[i] * p.X[pr]
	}
	return math.Exp(lr)
}

// versionsOf are the points' versions in the order they first appear.
func versionsOf(points []Point) []string {
	var out []string
	for _, p := range points {
		if !slices.Contains(out, p.Version) {
			out = append(out, p.Version)
		}
	}
	return out
}

// Inside is how many of version's predictions lie within their measured
// intervals, of how many.
func (f Fit) Inside(version string) (int, int) {
	in, n := 0, 0
	for _, p := range f.Predictions {
		if p.Version == version {
			n++
			if p.Inside() {
				in++
			}
		}
	}
	return in, n
}

// MeanAbsError is the mean over the predictions of |predicted − measured|,
// in ratio units.
func (f Fit) MeanAbsError() float64 {
	var xs []float64
	for _, p := range f.Predictions {
		xs = append(xs, math.Abs(p.Error()))
	}
	return stats.Mean(xs)
}

// MeanResidual is the mean of measured − predicted over the predictions of
// compiler's builds, in ratio units: what the model misses of them.
func (f Fit) MeanResidual(compiler string) float64 {
	var xs []float64
	for _, p := range f.Predictions {
		if p.Compiler == compiler {
			xs = append(xs, -p.Error())
		}
	}
	return stats.Mean(xs)
}
