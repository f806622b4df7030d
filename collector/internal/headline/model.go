package headline

import (
	"fmt"
	"math"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/model"
	"github.com/redis-compiler-benchmarks/collector/internal/report"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// computeModels calibrates the counts against each precision mode's
// effects on the versions with complete rounds, each mode against the
// counts of the reference mode it lengthens.
func computeModels(d *store.Data, r Rounds, reference []string) []model.Result {
	var out []model.Result
	for _, m := range r.Modes {
		var effects []report.Effects
		for _, v := range r.Versions {
			if e, ok := r.Precision[v][m]; ok {
				effects = append(effects, e)
			}
		}
		if len(effects) > 0 {
			out = append(out, model.Calibrate(d, effects, config.ReferenceOf(m, reference)))
		}
	}
	return out
}

// modelsText is the calibration's part of docs/results.md: in full for the
// mode whose counts track measured speed best (the largest r of any
// model), the models' table alone for the others.
func (h Headline) modelsText() string {
	if len(h.Models) == 0 {
		return ""
	}
	full := 0
	for i, r := range h.Models {
		if len(r.Fits) > 0 && (len(h.Models[full].Fits) == 0 || bestR(r) > bestR(h.Models[full])) {
			full = i
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", model.Markdown(h.Models[full]))
	for i, r := range h.Models {
		if i == full || len(r.Fits) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\nThe same models on `%s` rounds against `%s` counts:\n\n%s\n", r.Mode, r.CountMode, model.Summary(r))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// bestR is the largest r of r's fits (−Inf without one).
func bestR(r model.Result) float64 {
	if len(r.Fits) == 0 || math.IsNaN(r.Best().R) {
		return math.Inf(-1)
	}
	return r.Best().R
}
