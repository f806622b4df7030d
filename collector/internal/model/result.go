package model

import (
	"github.com/redis-compiler-benchmarks/collector/internal/report"
	"github.com/redis-compiler-benchmarks/collector/internal/stats"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// Result is the calibration of one hardware class and precision mode: its
// points and every model of Specs fitted and validated on them.
type Result struct {
	// Class and Mode are the measured effects' hardware class and precision
	// mode; CountMode the counted mode paired with it; Baseline the build
	// the effects are against ("gcc|-O2").
	Class, Mode, CountMode, Baseline string
	// Versions are the points' versions, each left out in turn; Rounds how
	// many rounds each version's effects are over.
	Versions []string
	Rounds   map[string]int
	Points   []Point
	Fits     []Fit
}

// Calibrate fits every model of Specs on effects (one hardware class and
// precision mode, one report.Effects per version) against the counts of
// countMode.
func Calibrate(d *store.Data, effects []report.Effects, countMode string) Result {
	r := Result{CountMode: countMode, Rounds: map[string]int{}}
	for _, e := range effects {
		r.Class, r.Mode, r.Baseline = e.Class, e.Mode, e.Baseline.Config
		r.Rounds[e.Version] = e.Rounds
	}
	r.Points = Points(d, effects, countMode)
	r.Versions = versionsOf(r.Points)
	if len(r.Versions) < 2 {
		return r
	}
	for _, s := range Specs {
		r.Fits = append(r.Fits, Evaluate(r.Points, s))
	}
	return r
}

// Mean is the mean over points of compiler's builds of predictor's value.
func (r Result) Mean(compiler string, p Predictor) float64 {
	var xs []float64
	for _, pt := range r.Points {
		if pt.Compiler == compiler {
			xs = append(xs, pt.X[p])
		}
	}
	return stats.Mean(xs)
}
