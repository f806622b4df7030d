package headline

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/report"
	"github.com/redis-compiler-benchmarks/collector/internal/stats"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// Rounds is the precision protocol's part of the headline, on the headline's
// class: the versions measured in interleaved rounds, each precision mode's
// effects against the baseline, and the reference modes' on the same versions
// (their repeats paired by pass) to compare the intervals with.
type Rounds struct {
	// Modes are the precision modes measured, sorted; Versions the plan's
	// versions whose every configuration has completeRounds rounds in every
	// mode, in plan order; Pending those measured in fewer so far.
	Modes, Versions, Pending []string
	// Precision and Reference are the effects by version and mode.
	Precision, Reference map[string]map[string]report.Effects
}

// completeRounds is how many rounds of every configuration, in every
// precision mode, put a version in the headline (docs/collecting.md measures
// 5): the site shows a version's rounds while they are measured, the README
// once they are all in, so that it states no verdict from two rounds.
var completeRounds = 5

// computeRounds gathers the precision modes' effects on class (the modes of
// runs that carry a round seed) against baseline, by the collector's
// statistics (internal/stats, defaults).
func computeRounds(d *store.Data, class string, p plan, baseline Build) Rounds {
	out := Rounds{Precision: map[string]map[string]report.Effects{}, Reference: map[string]map[string]report.Effects{}}
	for _, r := range d.Runs {
		if r.RoundSeed != nil && !slices.Contains(out.Modes, r.Mode) {
			out.Modes = append(out.Modes, r.Mode)
		}
	}
	if len(out.Modes) == 0 {
		return out
	}
	sort.Strings(out.Modes)
	base := baseline.Compiler + "|" + baseline.FlagSet
	// The bootstrap is the cost: the reference modes only of the versions shown, on class alone.
	gather := func(into map[string]map[string]report.Effects, keep func(version, mode string) bool) {
		for _, e := range report.EffectsOf(d, func(c, v, m string) bool { return c == class && keep(v, m) }, base, stats.DefaultOptions) {
			if into[e.Version] == nil {
				into[e.Version] = map[string]report.Effects{}
			}
			into[e.Version][e.Mode] = e
		}
	}
	gather(out.Precision, func(_, m string) bool { return slices.Contains(out.Modes, m) })
	for _, v := range p.versions {
		if len(out.Precision[v]) == 0 {
			continue
		}
		complete := len(out.Precision[v]) == len(out.Modes)
		for _, e := range out.Precision[v] {
			complete = complete && len(e.Effects) > 0
			for _, x := range e.Effects {
				complete = complete && x.Summary.Rounds >= completeRounds
			}
		}
		if complete {
			out.Versions = append(out.Versions, v)
		} else {
			out.Pending = append(out.Pending, v)
		}
	}
	gather(out.Reference, func(v, m string) bool { return slices.Contains(out.Versions, v) && slices.Contains(p.modes, m) })
	return out
}

// roundsText is the precision modes' paragraph: a table per mode of each
// build against the baseline per version with its interval, then a table of
// how precise each version and mode is, beside the reference protocol's runs
// of the same version.
func (h Headline) roundsText() string {
	r := h.Rounds
	var b strings.Builder
	fmt.Fprintf(&b, "**Interleaved rounds** (the precision modes %s: the reference workload with every test at least\n", quoted(r.Modes))
	fmt.Fprintf(&b, "1.5 s long, and in each round a version's builds measured once each in a random order). Each build\n")
	fmt.Fprintf(&b, "against %s on %s: the geometric mean over rounds and tests of its ratio to %s in\n", h.Baseline, h.Class, h.Baseline)
	fmt.Fprintf(&b, "the same round, with its 95%% bootstrap interval (rounds and tests resampled, expanded for the few\n")
	fmt.Fprintf(&b, "rounds); ▲ ▼ when the interval excludes no change, ≈ when it does not (no change within noise).\n")
	if len(r.Pending) > 0 {
		fmt.Fprintf(&b, "%s\n", h.pendingText())
	}
	for _, m := range r.Modes {
		var versions []string
		head, rule := "| build |", "|---|"
		for _, v := range r.Versions {
			if e, ok := r.Precision[v][m]; ok {
				versions = append(versions, v)
				head += fmt.Sprintf(" %s (%d rounds) |", v, e.Rounds)
				rule += "---|"
			}
		}
		if len(versions) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n`%s`:\n\n%s\n%s\n", m, head, rule)
		for _, bd := range h.Builds {
			row := fmt.Sprintf("| %s |", bd)
			for _, v := range versions {
				row += " " + effectText(r.Precision[v][m], bd) + " |"
			}
			fmt.Fprintln(&b, row)
		}
	}
	if len(r.Versions) == 0 {
		return strings.TrimSuffix(b.String(), "\n")
	}
	fmt.Fprintf(&b, "\nHow precise: the half-width of the intervals above, median over builds, with rounds and tests\n")
	fmt.Fprintf(&b, "resampled and with rounds alone (which leaves out how the effect differs from test to test); the\n")
	fmt.Fprintf(&b, "coefficient of variation of a figure across rounds, median over builds and tests; and where the noise\n")
	fmt.Fprintf(&b, "lies, the standard deviations of ln requests/s over the complete rounds shared by a round, by a run\n")
	fmt.Fprintf(&b, "(all its tests) and left per test. The reference protocol's runs of the same version, repeats paired\n")
	fmt.Fprintf(&b, "by pass, in brackets:\n\n")
	fmt.Fprintln(&b, "| Redis | mode | half-width | rounds alone | coefficient of variation | noise: round / run / test |")
	fmt.Fprintln(&b, "|---|---|---|---|---|---|")
	for _, v := range r.Versions {
		for _, m := range r.Modes {
			e, ok := r.Precision[v][m]
			if !ok {
				continue
			}
			re := r.Reference[v][config.ReferenceOf(m, h.Modes)]
			noise := "–"
			if n := e.Variance; n.Rounds >= 2 {
				noise = fmt.Sprintf("%s / %s / %s", pct(n.Round), pct(n.Run), pct(n.Rest))
			}
			fmt.Fprintf(&b, "| %s | %s (%d rounds) | %s (%s) | %s (%s) | %s (%s) | %s |\n", v, m, e.Rounds,
				pct(medianHalfWidth(e, false)), pct(medianHalfWidth(re, false)),
				pct(medianHalfWidth(e, true)), pct(medianHalfWidth(re, true)),
				pct(medianCV(e)), pct(medianCV(re)), noise)
		}
	}
	fmt.Fprintf(&b, "\nPairing within a round removes the round's part. A run's part is shared by its tests (it drifts from\n")
	fmt.Fprintf(&b, "one test to the next: [method.md](method.md#statistics-of-the-precision-modes)), so averaging over tests\n")
	fmt.Fprintf(&b, "shrinks it little; more rounds do.\n")
	return strings.TrimSuffix(b.String(), "\n")
}

// pendingText says which versions are still being measured in rounds, and
// how far each has got (a build with no round yet counts as 0).
func (h Headline) pendingText() string {
	r := h.Rounds
	var parts []string
	for _, v := range r.Pending {
		var modes []string
		for _, m := range r.Modes {
			lo, hi := -1, 0
			for _, bd := range h.Builds {
				x, _ := effectOf(r.Precision[v][m], bd)
				if lo < 0 || x.Summary.Rounds < lo {
					lo = x.Summary.Rounds
				}
				hi = max(hi, x.Summary.Rounds)
			}
			switch {
			case hi == 0:
				modes = append(modes, fmt.Sprintf("no round of `%s`", m))
			case lo == hi:
				modes = append(modes, fmt.Sprintf("%d of `%s`", lo, m))
			default:
				modes = append(modes, fmt.Sprintf("%d–%d of `%s`", lo, hi, m))
			}
		}
		parts = append(parts, fmt.Sprintf("Redis %s (%s)", v, strings.Join(modes, ", ")))
	}
	return fmt.Sprintf("Still being measured, with fewer than %d rounds of every build so far, and shown on the site only: %s.",
		completeRounds, strings.Join(parts, "; "))
}

// effectOf is build bd's effect in e.
func effectOf(e report.Effects, bd Build) (report.Effect, bool) {
	i := slices.IndexFunc(e.Effects, func(x report.Effect) bool { return x.Config == bd.Compiler+"|"+bd.FlagSet })
	if i < 0 {
		return report.Effect{}, false
	}
	return e.Effects[i], true
}

// effectText is build bd's effect in e: "+1.2% ▲ [+0.4%, +2.1%]", with no
// interval from a single round, "not measured" without a figure.
func effectText(e report.Effects, bd Build) string {
	x, ok := effectOf(e, bd)
	s := x.Summary
	switch {
	case !ok || math.IsNaN(s.Center):
		return "not measured"
	case math.IsNaN(s.Lo):
		return signed(s.Center-1, 1) + " ? (one round: no interval)"
	}
	glyph := map[string]string{stats.Faster: "▲", stats.Slower: "▼", stats.NoChange: "≈"}[s.Verdict()]
	return fmt.Sprintf("%s %s [%s, %s]", signed(s.Center-1, 1), glyph, signed(s.Lo-1, 1), signed(s.Hi-1, 1))
}

// medianHalfWidth is the median over e's builds of their intervals'
// half-widths, of rounds and tests resampled or, roundsOnly, of rounds alone.
func medianHalfWidth(e report.Effects, roundsOnly bool) float64 {
	var xs []float64
	for _, x := range e.Effects {
		hw := x.Summary.HalfWidth()
		if roundsOnly {
			hw = x.RoundsOnly
		}
		if !math.IsNaN(hw) {
			xs = append(xs, hw)
		}
	}
	return report.Median(xs)
}

// medianCV is the median of the baseline's and every build's median CV.
func medianCV(e report.Effects) float64 {
	var xs []float64
	for _, x := range append([]report.Effect{e.Baseline}, e.Effects...) {
		if !math.IsNaN(x.MedianCV) && x.Tests > 0 {
			xs = append(xs, x.MedianCV)
		}
	}
	return report.Median(xs)
}

// signed is a fraction as a signed percentage with d decimals: "+1.2%",
// "−0.40%" (an effect measured to a few percent gets one, a count two).
func signed(x float64, d int) string {
	if x < 0 {
		return fmt.Sprintf("−%.*f%%", d, -100*x)
	}
	return fmt.Sprintf("+%.*f%%", d, 100*x)
}

// pct is a fraction as a percentage with two decimals, "–" for NaN.
func pct(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.2f%%", 100*x)
}

// quoted is the modes as `a` and `b`.
func quoted(modes []string) string {
	q := make([]string, len(modes))
	for i, m := range modes {
		q[i] = "`" + m + "`"
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// computeExtendedRounds gathers, on every hardware class, the precision
// modes' effects (modes, against baseline) of the versions whose extended
// builds (ext) were measured in interleaved rounds beside the baseline:
// one Effects per (class, version, mode), keeping only the extended builds'
// effects, in class, version and mode order.
func computeExtendedRounds(d *store.Data, modes []string, ext []Build, baseline Build) []report.Effects {
	if len(modes) == 0 || len(ext) == 0 {
		return nil
	}
	var out []report.Effects
	keep := func(_, _, m string) bool { return slices.Contains(modes, m) }
	for _, e := range report.EffectsOf(d, keep, baseline.Compiler+"|"+baseline.FlagSet, stats.DefaultOptions) {
		e.Effects = slices.DeleteFunc(e.Effects, func(x report.Effect) bool {
			return !slices.ContainsFunc(ext, func(bd Build) bool { return x.Config == bd.Compiler+"|"+bd.FlagSet })
		})
		if len(e.Effects) > 0 {
			out = append(out, e)
		}
	}
	return out
}

// extendedRoundsShort is what the extended builds' interleaved rounds decide:
// per class and version with completeRounds rounds of every mode, each
// build's effect on requests/second per mode with its interval; those with
// fewer rounds are named as still being measured.
func (h Headline) extendedRoundsShort() string {
	var done, pending []string
	for _, g := range groupRounds(h.ExtendedRounds) {
		if !g.complete() {
			pending = append(pending, fmt.Sprintf("Redis %s on %s (%d of %d rounds)", g.version, g.class, g.rounds, completeRounds))
			continue
		}
		var builds []string
		for _, bd := range h.ExtendedBuilds {
			var modes []string
			for _, e := range g.effects {
				if _, ok := effectOf(e, bd); ok {
					modes = append(modes, effectText(e, bd)+" "+e.Mode)
				}
			}
			if len(modes) > 0 {
				builds = append(builds, fmt.Sprintf("%s %s", bd, strings.Join(modes, ", ")))
			}
		}
		done = append(done, fmt.Sprintf("Redis %s, %d rounds on %s: %s", g.version, g.rounds, g.class, strings.Join(builds, "; ")))
	}
	text := fmt.Sprintf("**Extended builds, requests/second in interleaved rounds** (each against %s in the same round, 95%% interval; ▲ ▼ beyond it, ≈ no change within noise): ", h.Baseline)
	switch {
	case len(done) == 0:
		text += "none complete yet"
	default:
		text += strings.Join(done, ". ")
	}
	if len(pending) > 0 {
		text += fmt.Sprintf(" (still being measured: %s)", strings.Join(pending, "; "))
	}
	return text + ". For comparison, " + IntelStudy + "."
}

// roundsGroup is one (class, version)'s precision modes and their fewest rounds.
type roundsGroup struct {
	class, version string
	rounds         int
	effects        []report.Effects
}

// complete is whether every mode of g has completeRounds rounds.
func (g roundsGroup) complete() bool { return g.rounds >= completeRounds }

// completeVersions are the versions of effects with a complete (class,
// version) group, once each, in their order.
func completeVersions(effects []report.Effects) []string {
	var out []string
	for _, g := range groupRounds(effects) {
		if g.complete() && !slices.Contains(out, g.version) {
			out = append(out, g.version)
		}
	}
	return out
}

// groupRounds groups effects, in their order, by (class, version).
func groupRounds(effects []report.Effects) []roundsGroup {
	var out []roundsGroup
	for _, e := range effects {
		if k := len(out) - 1; k >= 0 && out[k].class == e.Class && out[k].version == e.Version {
			out[k].effects = append(out[k].effects, e)
			out[k].rounds = min(out[k].rounds, e.Rounds)
			continue
		}
		out = append(out, roundsGroup{class: e.Class, version: e.Version, rounds: e.Rounds, effects: []report.Effects{e}})
	}
	return out
}

// extendedRoundsText is the extended builds' interleaved rounds as tables,
// one per class and version: each build's effect on requests/second against
// the baseline per precision mode, with the mode's rounds.
func (h Headline) extendedRoundsText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Extended builds in interleaved rounds**: requests/second against %s measured in the same rounds, as\n", h.Baseline)
	fmt.Fprintf(&b, "in the table of interleaved rounds above (▲ faster, ▼ slower beyond the 95%% interval, ≈ no change\n")
	fmt.Fprintf(&b, "within noise); %s.\n", IntelStudy)
	for _, g := range groupRounds(h.ExtendedRounds) {
		head, rule := "| build |", "|---|"
		for _, e := range g.effects {
			head += fmt.Sprintf(" `%s` (%d rounds) |", e.Mode, e.Rounds)
			rule += "---|"
		}
		fmt.Fprintf(&b, "\nRedis %s on %s:\n\n%s\n%s\n", g.version, g.class, head, rule)
		for _, bd := range h.ExtendedBuilds {
			row, any := fmt.Sprintf("| %s |", bd), false
			for _, e := range g.effects {
				_, ok := effectOf(e, bd)
				any = any || ok
				row += " " + effectText(e, bd) + " |"
			}
			if any {
				fmt.Fprintln(&b, row)
			}
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
