package headline

import (
	"math"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/model"
	"github.com/redis-compiler-benchmarks/collector/internal/stats"
)

// calibrated is a calibration of mode over two versions of two builds, whose
// measured effects follow their instruction log-ratios by slope (and noise).
func calibrated(mode string, slope float64, noise []float64) model.Result {
	r := model.Result{Class: "A", Mode: mode, CountMode: strings.TrimSuffix(mode, "-long"), Baseline: "gcc|-O2", Versions: []string{"1.0.0", "2.0.0"}}
	for i, x := range []float64{0.1, -0.05, 0.08, -0.02} {
		c := math.Exp(slope*x + noise[i])
		r.Points = append(r.Points, model.Point{Version: r.Versions[i/2], Config: []string{"gcc|-Os", "clang|-O2"}[i%2], Compiler: []string{"gcc", "clang"}[i%2],
			Measured: stats.Summary{Center: c, Lo: c - 0.01, Hi: c + 0.01}, X: map[model.Predictor]float64{model.Instructions: x}})
	}
	for _, s := range model.Specs {
		r.Fits = append(r.Fits, model.Evaluate(r.Points, s))
	}
	return r
}

func TestModelsTextGivesTheModeWhereCountsTrackSpeedInFullAndTheOthersTable(t *testing.T) {
	h := Headline{Models: []model.Result{
		calibrated("data-long", 0, []float64{0.02, -0.01, -0.02, 0.03}),
		calibrated("pipe-long", -0.7, []float64{0, 0, 0, 0}),
	}}
	text := h.modelsText()
	full := strings.Index(text, "**Counts calibrated against measured speed** (`pipe-long` rounds")
	other := strings.Index(text, "The same models on `data-long` rounds against `data` counts:")
	if full != 0 || other < 0 || strings.Count(text, "Per build, measured") != 1 || strings.Contains(text, "(`data-long` rounds") {
		t.Errorf("pipe-long (r = 1) in full first, data-long's table after it:\n%s", text)
	}
	if (Headline{}).modelsText() != "" {
		t.Error("no calibration, yet a text")
	}
}
