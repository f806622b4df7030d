package model

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Aim is the calibration's goal (issue 59): r of predicted against
// measured effects at least AimR (|r| of counted against measured; a
// prediction's r is positive when it is right), and at least AimInside of AimOf of a
// version's builds (that share) predicted within their measured intervals,
// in every version.
const (
	AimR      = 0.9
	AimInside = 9
	AimOf     = 11
)

// Met says whether f reaches the aim.
func (f Fit) Met(versions []string) bool {
	if math.IsNaN(f.R) || f.R < AimR {
		return false
	}
	for _, v := range versions {
		if in, n := f.Inside(v); in*AimOf < AimInside*n {
			return false
		}
	}
	return true
}

// Best is the fit with the largest r (the first fit when none has one).
func (r Result) Best() Fit {
	best := r.Fits[0]
	for _, f := range r.Fits {
		if !math.IsNaN(f.R) && (math.IsNaN(best.R) || f.R > best.R) {
			best = f
		}
	}
	return best
}

// Markdown is r as docs/results.md and collector stats -model show it: the
// models' leave-one-version-out figures and coefficients, whether any meets
// the aim, every build's predictions, and what the counts say of where
// counted and measured disagree.
func Markdown(r Result) string {
	var b strings.Builder
	base := name(r.Baseline)
	fmt.Fprintf(&b, "**Counts calibrated against measured speed** (`%s` rounds on %s against `%s` counts).\n", r.Mode, r.Class, r.CountMode)
	fmt.Fprintf(&b, "Each build's measured effect against %s (ln of the rounds' geometric mean, as `collector stats\n", base)
	fmt.Fprintf(&b, "-precision` prints it) fitted by least squares, with no intercept, on its counted effects against\n")
	fmt.Fprintf(&b, "%s: ln of the ratio of the geometric means per request over the same tests (those where both are\n", base)
	fmt.Fprintf(&b, "above zero) of instructions, data accesses (reads and writes), conditional branches, estimated\n")
	fmt.Fprintf(&b, "cycles (L1 hits + 5 × LL hits + 35 × memory accesses, from the simulated caches), simulated L1 and\n")
	fmt.Fprintf(&b, "last-level misses and branch mispredictions; *clang* is a compiler indicator, not a count.\n")
	fmt.Fprintf(&b, "Validated by leaving one version out: each version's builds predicted from a fit on the others'. r\n")
	fmt.Fprintf(&b, "is Pearson's over those %d predictions; the error is predicted − measured, in percentage points;\n", len(r.Points))
	fmt.Fprintf(&b, "coefficients are fitted on every version (in brackets, their range over the fits without one).\n")
	if len(r.Fits) == 0 {
		fmt.Fprintf(&b, "\nFewer than two versions have both rounds and counts: nothing to validate yet.\n")
		return strings.TrimSuffix(b.String(), "\n")
	}
	fmt.Fprintf(&b, "\n%s\n", Summary(r))
	fmt.Fprintf(&b, "\n%s\n", buildsTable(r))
	fmt.Fprintf(&b, "\n%s\n", disagreementText(r))
	return strings.TrimSuffix(b.String(), "\n")
}

// Summary is r's models table and whether any meets the aim.
func Summary(r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| model | coefficients | r | mean \\|error\\| | %s |\n", strings.Join(insideHeads(r.Versions), " | "))
	fmt.Fprintf(&b, "|---|---|---|---|%s\n", strings.Repeat("---|", len(r.Versions)))
	for _, f := range r.Fits {
		var ins []string
		for _, v := range r.Versions {
			in, n := f.Inside(v)
			ins = append(ins, fmt.Sprintf("%d of %d", in, n))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", f.Spec.Name, coefText(f, r.Versions), rText(f.R), decimals(100*f.MeanAbsError()), strings.Join(ins, " | "))
	}
	fmt.Fprintf(&b, "\n%s", verdictText(r))
	return b.String()
}

// insideHeads are the in-interval columns' heads, one per version.
func insideHeads(versions []string) []string {
	var out []string
	for _, v := range versions {
		out = append(out, "inside, "+v)
	}
	return out
}

// coefText is f's coefficients with their range over the folds.
func coefText(f Fit, versions []string) string {
	if len(f.Spec.Predictors) == 0 {
		return "–"
	}
	if f.Coef == nil {
		return "not fitted (collinear, or a count missing)"
	}
	var parts []string
	for i, p := range f.Spec.Predictors {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range versions {
			if c, ok := f.Folds[v]; ok {
				lo, hi = math.Min(lo, c[i]), math.Max(hi, c[i])
			}
		}
		parts = append(parts, fmt.Sprintf("%s %s [%s, %s]", p, num(f.Coef[i]), num(lo), num(hi)))
	}
	return strings.Join(parts, "; ")
}

// verdictText says plainly whether any model meets the aim, and what the
// in-interval count is worth beside the null model's.
func verdictText(r Result) string {
	var met []string
	for _, f := range r.Fits {
		if f.Met(r.Versions) {
			met = append(met, f.Spec.Name)
		}
	}
	best := r.Best()
	var ins []string
	for _, v := range r.Versions {
		in, n := best.Inside(v)
		ins = append(ins, fmt.Sprintf("%d of %d (%s)", in, n, v))
	}
	text := fmt.Sprintf("Aim: r ≥ %.1f and at least %d of %d builds of every version predicted inside their measured\ninterval. ", AimR, AimInside, AimOf)
	if len(met) == 0 {
		text += "**No model meets it.** "
	} else {
		text += fmt.Sprintf("Met by: %s. ", strings.Join(met, ", "))
	}
	text += fmt.Sprintf("The best by r, %s, has r = %s\nwith %s inside.", best.Spec.Name, rText(best.R), strings.Join(ins, ", "))
	null := r.Fits[slices.IndexFunc(r.Fits, func(f Fit) bool { return len(f.Spec.Predictors) == 0 })]
	in, n := 0, 0
	for _, v := range r.Versions {
		a, b := null.Inside(v)
		in, n = in+a, n+b
	}
	if in*AimOf >= AimInside*n {
		text += fmt.Sprintf("\nThe intervals are wide: predicting no change at all puts %d of %d builds inside them, so how many\n", in, n)
		text += "fall inside decides little, and r more."
	} else {
		text += fmt.Sprintf("\nPredicting no change at all puts %d of %d builds inside their intervals.", in, n)
	}
	return text
}

// buildsTable is every build's measured effect and each model's prediction.
func buildsTable(r Result) string {
	var b strings.Builder
	var models []Fit
	for _, f := range r.Fits {
		if len(f.Spec.Predictors) > 0 && !slices.Contains(f.Spec.Predictors, Clang) {
			models = append(models, f)
		}
	}
	fmt.Fprintf(&b, "Per build, measured with its 95%% interval and predicted without its version by each model of counts\n")
	fmt.Fprintf(&b, "alone (✓ inside the interval, ✗ outside; the error in percentage points in brackets):\n\n")
	head := "| Redis | build | measured | counted instructions |"
	rule := "|---|---|---|---|"
	for _, f := range models {
		head += " " + f.Spec.Name + " |"
		rule += "---|"
	}
	fmt.Fprintf(&b, "%s\n%s\n", head, rule)
	for i, p := range models[0].Predictions {
		s := p.Measured
		row := fmt.Sprintf("| %s | %s | %s [%s, %s] | %s |", p.Version, p.Name(), signed(s.Center-1), signed(s.Lo-1), signed(s.Hi-1), signed(math.Exp(p.X[Instructions])-1))
		for _, f := range models {
			row += " " + predictionText(f.Predictions[i]) + " |"
		}
		fmt.Fprintln(&b, row)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// predictionText is "+1.2% ✓ (+0.4)", "–" without a prediction.
func predictionText(p Prediction) string {
	if math.IsNaN(p.Predicted) {
		return "–"
	}
	mark := "✗"
	if p.Inside() {
		mark = "✓"
	}
	return fmt.Sprintf("%s %s (%s)", signed(p.Predicted-1), mark, strings.TrimSuffix(points(p.Error()), " points"))
}

// disagreementText is where counted and measured disagree: what the
// instructions model misses of each compiler's builds, the clang
// indicator's coefficient, and the compilers' simulated misses that would
// have to explain it.
func disagreementText(r Result) string {
	var counted, indicator []Fit
	for _, f := range r.Fits {
		switch {
		case len(f.Spec.Predictors) == 0 || f.Coef == nil:
		case slices.Contains(f.Spec.Predictors, Clang):
			indicator = append(indicator, f)
		default:
			counted = append(counted, f)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Where counted and measured disagree.** Measured − predicted, mean over the clang builds (over the\n")
	fmt.Fprintf(&b, "gcc builds in brackets), by model:\n")
	var parts []string
	least := math.Inf(1)
	for _, f := range counted {
		parts = append(parts, fmt.Sprintf("%s %s (%s)", f.Spec.Name, points(f.MeanResidual("clang")), points(f.MeanResidual("gcc"))))
		least = math.Min(least, math.Abs(f.MeanResidual("clang")))
	}
	fmt.Fprintf(&b, "%s.", strings.Join(parts, "; "))
	if len(indicator) > 0 {
		parts = nil
		for _, f := range indicator {
			i := slices.Index(f.Spec.Predictors, Clang)
			parts = append(parts, fmt.Sprintf("%s at the same %s", signed(math.Exp(f.Coef[i])-1), strings.TrimSuffix(f.Spec.Name, " + clang")))
		}
		fmt.Fprintf(&b, "\nFitted with the clang indicator, a clang build runs, against a gcc build, %s.", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "\nEach compiler's builds' mean counted effect against %s:\n\n", name(r.Baseline))
	fmt.Fprintf(&b, "| builds | %s |\n|---|%s\n", strings.Join(predictorNames(), " | "), strings.Repeat("---|", len(Counted)))
	for _, c := range []string{"gcc", "clang"} {
		var cells []string
		for _, p := range Counted {
			cells = append(cells, signed(math.Exp(r.Mean(c, p.Predictor))-1))
		}
		fmt.Fprintf(&b, "| %s (%d) | %s |\n", c, r.count(c), strings.Join(cells, " | "))
	}
	ins, counts := r.fitNamed("instructions"), r.fitNamed("counts")
	gap := ins.MeanResidual("clang") - ins.MeanResidual("gcc")
	switch {
	case math.IsNaN(gap) || math.Abs(gap) < 0.01:
		fmt.Fprintf(&b, "\nThe instructions model misses clang's and gcc's builds alike (within a point).")
	default:
		way := "faster"
		if gap < 0 {
			way = "slower"
		}
		explain := "no model of counts alone explains it: the difference is not in\nthe simulated figures, so it lies in what Valgrind does not model (this host's caches, branch\npredictor and front end)"
		if least < math.Abs(ins.MeanResidual("clang"))/2 {
			explain = "the counts explain part of it"
		}
		fmt.Fprintf(&b, "\nclang's builds run %s than their instruction counts predict, by %.1f points more than gcc's, and\n%s.", way, 100*math.Abs(gap), explain)
	}
	if counts.Coef != nil && counts.R < ins.R {
		fmt.Fprintf(&b, "\nAdding the simulated misses lowers r from %s to %s: their effects move from version to\nversion (the builds' range against %s: %s),\nso a fit on two versions carries them badly to the third.",
			rText(ins.R), rText(counts.R), name(r.Baseline), r.rangesText(BranchMisses, L1Misses))
	}
	return b.String()
}

// joinWith is the names joined with the conjunction, "–" when there are none.
func joinWith(xs []string, conjunction string) string {
	if len(xs) == 0 {
		return "–"
	}
	return strings.Join(xs, " "+conjunction+" ")
}

// rangesText is, per version, the range of each predictor over its builds.
func (r Result) rangesText(ps ...Predictor) string {
	var parts []string
	for _, v := range r.Versions {
		var each []string
		for _, p := range ps {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, pt := range r.Points {
				if pt.Version == v {
					lo, hi = math.Min(lo, pt.X[p]), math.Max(hi, pt.X[p])
				}
			}
			each = append(each, fmt.Sprintf("%s %s to %s", p, signed(math.Exp(lo)-1), signed(math.Exp(hi)-1)))
		}
		parts = append(parts, fmt.Sprintf("%s %s", v, strings.Join(each, ", ")))
	}
	return strings.Join(parts, "; ")
}

// fitNamed is the fit of the spec named n (a zero Fit if none).
func (r Result) fitNamed(n string) Fit {
	for _, f := range r.Fits {
		if f.Spec.Name == n {
			return f
		}
	}
	return Fit{}
}

// count is how many points are of compiler's builds.
func (r Result) count(compiler string) int {
	n := 0
	for _, p := range r.Points {
		if p.Compiler == compiler {
			n++
		}
	}
	return n
}

func predictorNames() []string {
	var out []string
	for _, c := range Counted {
		out = append(out, string(c.Predictor))
	}
	return out
}

// name is a cell id without its version as the site names it, "gcc -O2".
func name(config string) string { return strings.ReplaceAll(config, "|", " ") }

// signed is a fraction as a signed percentage with one decimal, "–" for NaN.
func signed(x float64) string {
	switch {
	case math.IsNaN(x):
		return "–"
	case x < 0:
		return fmt.Sprintf("−%.1f%%", -100*x)
	}
	return fmt.Sprintf("+%.1f%%", 100*x)
}

// points is a ratio difference in signed percentage points, "+1.2 points".
func points(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	v := math.Round(1000*x) / 10
	if v == 0 {
		v = 0 // no "−0.0"
	}
	return strings.Replace(fmt.Sprintf("%+.1f points", v), "-", "−", 1)
}

// num is a coefficient with two decimals and a typographic minus.
func num(x float64) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return "–"
	}
	return strings.Replace(fmt.Sprintf("%.2f", x), "-", "−", 1)
}

// decimals is x with two decimals, "–" for NaN.
func decimals(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.2f", x)
}

// rText is r with two decimals, "–" for NaN.
func rText(r float64) string {
	if math.IsNaN(r) {
		return "–"
	}
	return strings.Replace(fmt.Sprintf("%+.2f", r), "-", "−", 1)
}
