package headline

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/stats"
)

// Begin and End mark the README's headline block, which Markdown writes;
// the figures behind it are docs/results.md's block, which Details writes
// between the same marks.
const (
	Begin = "<!-- headline: written from public/data by `cd collector && go test ./internal/headline -update`; a test fails when it differs -->"
	End   = "<!-- /headline -->"
)

// ResultsPage is the page with the figures behind the README's headline.
const ResultsPage = "docs/results.md"

// Markdown is the headline as the README shows it, between Begin and End:
// what each instrument decides, and where its figures are.
func Markdown(h Headline) string {
	var b strings.Builder
	fmt.Fprintln(&b, Begin)
	fmt.Fprintf(&b, "%s\n", h.inShort())
	fmt.Fprintf(&b, "Every figure behind these lines, per build and mode, with its interval or noise band and how it was\n")
	fmt.Fprintf(&b, "measured: [%s](%s).\n", ResultsPage, ResultsPage)
	fmt.Fprintln(&b, End)
	return b.String()
}

// Details are the figures behind the headline, as docs/results.md shows them
// between Begin and End: each instrument's table of builds against the
// baseline, and how precise its figures are.
func Details(h Headline) string {
	var b strings.Builder
	fmt.Fprintln(&b, Begin)
	fmt.Fprintf(&b, "**Reference protocol** (the 2014 page's workload, three repeats of each build run hours apart).\n")
	fmt.Fprintf(&b, "Measured on **%s**, the hardware class furthest through the plan (%d of %d\n", h.Class, h.Done, h.Planned)
	fmt.Fprintf(&b, "planned runs). Each build against %s: the geometric mean over the tests of its speed (best\n", h.Baseline)
	fmt.Fprintf(&b, "repeat over best repeat) on the newest release of every minor line from %s to %s; ▲ ▼ beyond\n", h.Oldest, h.Newest)
	fmt.Fprintf(&b, "the noise band of the repeats (±), ≈ within it.\n\n")
	fmt.Fprintf(&b, "| build | %s |\n|---|%s\n", strings.Join(modeNames(h.Modes), " | "), strings.Repeat("---|", len(h.Modes)))
	for _, bd := range h.Builds {
		var cells []string
		for _, m := range h.Modes {
			cells = append(cells, scoreText(h.Scores[bd][m]))
		}
		fmt.Fprintf(&b, "| %s | %s |\n", bd, strings.Join(cells, " | "))
	}
	fmt.Fprintln(&b)
	var fastest, releases, spreads []string
	for _, m := range h.Modes {
		bd, s := h.fastest(m)
		fastest = append(fastest, fmt.Sprintf("%s %s (%s)", m, bd, scoreText(s)))
		releases = append(releases, fmt.Sprintf("%s in %s mode", scoreText(h.Releases[m]), m))
		spreads = append(spreads, fmt.Sprintf("%.1f%% (%s mode)", 100*h.Spread[m], m))
	}
	fmt.Fprintf(&b, "- Fastest build per mode: %s.\n", strings.Join(fastest, "; "))
	fmt.Fprintf(&b, "- Redis %s against %s, both %s: %s.\n", h.Newest, h.Oldest, h.Baseline, strings.Join(releases, ", "))
	fmt.Fprintf(&b, "- The repeats of one build lie a median %s apart, (best − worst) / best.\n", strings.Join(spreads, " and "))
	if len(h.Others) > 0 {
		fmt.Fprintf(&b, "- Other hardware classes, measured apart and never combined: %s.\n", strings.Join(h.Others, "; "))
	}
	if len(h.Rounds.Versions) > 0 || len(h.Rounds.Pending) > 0 {
		fmt.Fprintf(&b, "\n%s\n", h.roundsText())
	}
	if text := h.modelsText(); text != "" {
		fmt.Fprintf(&b, "\n%s\n", text)
	}
	fmt.Fprintf(&b, "\n%s\n", h.countedText())
	if h.Extended.Cells > 0 {
		fmt.Fprintf(&b, "\n%s\n", h.extendedText())
	}
	if len(h.ExtendedRounds) > 0 {
		fmt.Fprintf(&b, "\n%s\n", h.extendedRoundsText())
	}
	fmt.Fprintln(&b, End)
	return b.String()
}

// inShort is the headline's opening list: what each instrument decides
// against the baseline, the deterministic one first.
func (h Headline) inShort() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**In short**, each build against %s:\n\n", h.Baseline)
	fmt.Fprintf(&b, "- %s\n", h.countedShort())
	if h.Extended.Cells > 0 {
		fmt.Fprintf(&b, "- %s\n", h.extendedShort())
	}
	if len(h.ExtendedRounds) > 0 {
		fmt.Fprintf(&b, "- %s\n", h.extendedRoundsShort())
	}
	if len(h.Rounds.Versions) > 0 {
		fmt.Fprintf(&b, "- %s\n", h.roundsShort())
	}
	fmt.Fprintf(&b, "- %s\n", h.referenceShort())
	return b.String()
}

// referenceShort is what the reference protocol decides: the builds beyond
// the noise of the repeats, or none.
func (h Headline) referenceShort() string {
	var beyond, spreads []string
	for _, m := range h.Modes {
		for _, bd := range h.Builds {
			if s := h.Scores[bd][m]; s.Verdict() == "faster" || s.Verdict() == "slower" {
				beyond = append(beyond, fmt.Sprintf("%s in %s mode (%s)", bd, m, scoreText(s)))
			}
		}
		spreads = append(spreads, fmt.Sprintf("%.1f%% in %s mode", 100*h.Spread[m], m))
	}
	text := fmt.Sprintf("**Requests/second, reference protocol** (%s to %s, on %s): ", h.Oldest, h.Newest, h.Class)
	if len(beyond) == 0 {
		return text + fmt.Sprintf("no build is faster or slower beyond the noise of the repeats, which lie a median %s apart.",
			strings.Join(spreads, " and "))
	}
	return text + fmt.Sprintf("beyond the noise of the repeats: %s.", strings.Join(beyond, ", "))
}

// countedShort is what the counted instrument decides, per mode: the
// cheapest and the costliest build and how many are either beyond the
// repeats' spread.
func (h Headline) countedShort() string {
	c := h.Counted
	if c.Cells == 0 {
		return fmt.Sprintf("**Instructions per request** (counted under Valgrind): none of the %d cells counted yet.", h.PlannedCells)
	}
	var modes, spreads []string
	for _, m := range h.Modes {
		spreads = append(spreads, fmt.Sprintf("%.2f%%", 100*c.Spread[m]))
		var cheapest, costliest Build
		var lo, hi Score
		cheaper, costlier, counted := 0, 0, 0
		for _, bd := range h.Builds {
			s, ok := c.Scores[bd][m]
			if !ok {
				continue
			}
			counted++
			if cheapest == (Build{}) || s.Ratio < lo.Ratio {
				cheapest, lo = bd, s
			}
			if costliest == (Build{}) || s.Ratio > hi.Ratio {
				costliest, hi = bd, s
			}
			switch s.Verdict() {
			case "slower": // a lower count: cheaper
				cheaper++
			case "faster":
				costlier++
			}
		}
		if cheapest == (Build{}) {
			continue
		}
		modes = append(modes, fmt.Sprintf("%s mode cheapest %s (%s), costliest %s (%s), %d of %s cheaper and %d costlier beyond %s",
			m, cheapest, signed(lo.Ratio-1, 2), costliest, signed(hi.Ratio-1, 2), cheaper, plural(counted, "build"), costlier, c.beyond()))
	}
	slices.Sort(spreads)
	text := fmt.Sprintf("**Instructions per request** (counted under Valgrind, two repeats of a build at most %s apart%s; %s, %s): ",
		strings.Join(slices.Compact(spreads), " / "), c.rebuiltText(" / ", false), cellsSoFar(c.Cells, h.PlannedCells, ""), releasesText(c.Versions))
	if len(modes) == 0 {
		return text + fmt.Sprintf("no other build is counted yet on a release where %s is.", h.Baseline)
	}
	return text + strings.Join(modes, "; ") + "."
}

// cellsSoFar is "3 of 4 cells<done> so far" while cells are left, and "all 4
// cells<done>" once every planned cell has its count.
func cellsSoFar(cells, planned int, done string) string {
	if cells >= planned {
		return fmt.Sprintf("all %d cells%s", planned, done)
	}
	return fmt.Sprintf("%d of %d cells%s so far", cells, planned, done)
}

// roundsShort is what the interleaved rounds decide, per version: the builds
// faster and slower beyond noise, and how many effects are within it.
func (h Headline) roundsShort() string {
	r := h.Rounds
	var widths []float64
	var versions []string
	rounds := map[int]bool{}
	for _, v := range r.Versions {
		var faster, slower []string
		within, all := 0, 0
		for _, m := range r.Modes {
			e, ok := r.Precision[v][m]
			if !ok {
				continue
			}
			rounds[e.Rounds] = true
			widths = append(widths, medianHalfWidth(e, false))
			for _, bd := range h.Builds {
				x, ok := effectOf(e, bd)
				if !ok || math.IsNaN(x.Summary.Lo) {
					continue
				}
				s := x.Summary
				all++
				switch s.Verdict() {
				case stats.Faster:
					faster = append(faster, fmt.Sprintf("%s (%s %s)", bd, signed(s.Center-1, 1), m))
				case stats.Slower:
					slower = append(slower, fmt.Sprintf("%s (%s %s)", bd, signed(s.Center-1, 1), m))
				default:
					within++
				}
			}
		}
		var parts []string
		if len(faster) > 0 {
			parts = append(parts, "faster "+strings.Join(faster, ", "))
		}
		if len(slower) > 0 {
			parts = append(parts, "slower "+strings.Join(slower, ", "))
		}
		parts = append(parts, fmt.Sprintf("%d of %d no change within noise", within, all))
		versions = append(versions, fmt.Sprintf("Redis %s: %s", v, strings.Join(parts, "; ")))
	}
	var counts []string
	for _, n := range slices.Sorted(maps.Keys(rounds)) {
		counts = append(counts, fmt.Sprint(n))
	}
	pending := ""
	if len(r.Pending) > 0 {
		pending = fmt.Sprintf(" (%s: still being measured)", joinAnd(r.Pending))
	}
	return fmt.Sprintf("**Requests/second in interleaved rounds** (%s rounds of %s, on %s; the 95%% intervals' half-width, median over builds, %s): %s%s.",
		strings.Join(counts, " or "), quoted(r.Modes), h.Class, rangeText(widths), strings.Join(versions, ". "), pending)
}

// releasesText names the releases, or their count and range when more than four.
func releasesText(versions []string) string {
	switch {
	case len(versions) == 0:
		return "on no release"
	case len(versions) <= 4:
		return "on Redis " + joinAnd(versions)
	}
	return fmt.Sprintf("on %d releases from %s to %s", len(versions), versions[0], versions[len(versions)-1])
}

// rangeText is "4.77%" or "4.77–5.28%", the smallest and largest of xs.
func rangeText(xs []float64) string {
	if len(xs) == 0 {
		return "–"
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	if fmt.Sprintf("%.2f", 100*lo) == fmt.Sprintf("%.2f", 100*hi) {
		return pct(lo)
	}
	return fmt.Sprintf("%.2f–%s", 100*lo, pct(hi))
}

// plural is "1 build", "2 builds".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// joinAnd is "a", "a and b", "a, b and c".
func joinAnd(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// fastest is the build with the highest score in mode (the baseline itself
// when no build beats it).
func (h Headline) fastest(mode string) (Build, Score) {
	best, score := h.Baseline, Score{Ratio: 1, Band: 0}
	for _, bd := range h.Builds {
		if s := h.Scores[bd][mode]; s.Ratio > score.Ratio {
			best, score = bd, s
		}
	}
	return best, score
}

func modeNames(modes []string) []string {
	out := make([]string, len(modes))
	for i, m := range modes {
		out[i] = m + " mode"
	}
	return out
}

// scoreText is a score with its verdict glyph and band: "+1.5% ▲ ±0.9%",
// "−3.0% ≈ ±4.1%" ("?" and no band when the band is unknown).
func scoreText(s Score) string { return scoreTextDecimals(s, 1) }

// scoreTextDecimals formats a score with its percentages to d decimals.
func scoreTextDecimals(s Score, d int) string {
	if math.IsNaN(s.Ratio) {
		return "not measured"
	}
	glyph := map[string]string{"faster": "▲", "slower": "▼", "tie": "≈", "unknown": "?"}[s.Verdict()]
	if math.IsNaN(s.Band) {
		return fmt.Sprintf("%s %s", signed(s.Ratio-1, d), glyph)
	}
	return fmt.Sprintf("%s %s ±%.*f%%", signed(s.Ratio-1, d), glyph, d, 100*s.Band)
}

// countedText is the counted instrument's paragraph, what has been counted,
// and a table of each counted build against the baseline per mode. A count
// repeats to the hundredth of a percent, so its figures have two decimals.
func (h Headline) countedText() string {
	c := h.Counted
	if c.Cells == 0 {
		return fmt.Sprintf("**Counted cost** (instructions the server executes per request, under Valgrind; lower is\n"+
			"better): none of the %d cells counted yet.", h.PlannedCells)
	}
	var spreads []string
	for _, m := range h.Modes {
		spreads = append(spreads, fmt.Sprintf("%.2f%% (%s mode)", 100*c.Spread[m], m))
	}
	var rows []string
	for _, bd := range h.Builds {
		if c.Scores[bd] == nil {
			continue
		}
		row := fmt.Sprintf("| %s |", bd)
		for _, m := range h.Modes {
			s, ok := c.Scores[bd][m]
			if !ok {
				row += " not counted |"
				continue
			}
			row += " " + countedScoreText(s) + " |"
		}
		rows = append(rows, row)
	}
	text := fmt.Sprintf("**Counted cost** (instructions the server executes per request, under Valgrind; lower is\n"+
		"better): %s, two repeats of a build each, which lie at most %s apart%s.",
		cellsSoFar(c.Cells, h.PlannedCells, " counted"), strings.Join(spreads, " and "), c.rebuiltText(" and ", true))
	if len(rows) == 0 {
		return text + fmt.Sprintf(" No other build is counted yet on a release where %s is.", h.Baseline)
	}
	head, rule := "| build |", "|---|"
	for _, m := range h.Modes {
		head += " " + m + " mode |"
		rule += "---|"
	}
	return text + fmt.Sprintf(" Against %s, on the releases where both are counted (▲ costlier, ▼ cheaper beyond\n"+
		"%s):\n\n%s\n%s\n%s", h.Baseline, c.bandText(), head, rule, strings.Join(rows, "\n"))
}

// bandText names what a counted verdict must exceed and what ± gives: the
// repeats' spread, or the rebuild band when the data has one and it is
// larger (docs/method.md, "Rebuild bands").
func (c Counted) bandText() string {
	if c.RebuildBand == 0 {
		return c.beyond() + ", ± the spread"
	}
	return c.beyond() + ", ± the band"
}

// beyond is what a counted verdict must exceed: "the repeats' spread", with
// the rebuild band when the data has one.
func (c Counted) beyond() string {
	if c.RebuildBand == 0 {
		return "the repeats' spread"
	}
	return fmt.Sprintf("the repeats' spread or the rebuild band (%.2f%%), whichever is larger", 100*c.RebuildBand)
}

// countedScoreText is scoreText with two decimals.
func countedScoreText(s Score) string { return scoreTextDecimals(s, 2) }

// rebuiltText is ", N cells counted again from a rebuild at most X / Y apart"
// (the spread per mode joined by sep, each followed by its mode when
// labelled), or "" when no cell was rebuilt.
func (c Counted) rebuiltText(sep string, labelled bool) string {
	if c.Rebuilt == 0 {
		return ""
	}
	var spreads []string
	for _, m := range slices.Sorted(maps.Keys(c.RebuiltSpread)) {
		t := fmt.Sprintf("%.2f%%", 100*c.RebuiltSpread[m])
		if labelled {
			t += " (" + m + " mode)"
		}
		spreads = append(spreads, t)
	}
	return fmt.Sprintf(", %s counted again from a rebuild at most %s apart", plural(c.Rebuilt, "cell"), strings.Join(spreads, sep))
}

// IntelStudy is the Redis/Intel compiler study's figure that Redis acted on
// (PR #11207): -O3 -flto 5.13% faster than -O2, geometric mean over 50 tests,
// gcc 9.4 on a Xeon 8360Y.
const IntelStudy = "the Redis/Intel study measured gcc -O3 -flto 5.13% faster than -O2 (gcc 9.4, Xeon 8360Y)"

// extendedShort is the extended builds' counted cost against the baseline,
// per mode, each on the releases where both are counted, then on each
// release their interleaved rounds measured (ExtendedOn) alone, beside the
// study's figure.
func (h Headline) extendedShort() string {
	e := h.Extended
	text := fmt.Sprintf("**Extended builds, instructions per request** (%s, %s; each against %s on the releases where both are counted): ",
		cellsSoFar(e.Cells, h.ExtendedPlanned, ""), releasesText(e.Versions), h.Baseline)
	all := h.extendedScoresText(e.Scores)
	if all == "" {
		return text + "none counted yet on a release where the baseline is."
	}
	text += all + "."
	for _, r := range h.ExtendedOn {
		text += fmt.Sprintf(" On Redis %s alone, the release measured in interleaved rounds: %s.", r.Version, h.extendedScoresText(r.Scores))
	}
	text += " For comparison, " + IntelStudy + ", in speed, not instructions."
	if len(h.Pairs) > 0 {
		text += " " + h.pairsText()
	}
	return text
}

// extendedScoresText is the extended builds' counted scores, bare as the
// README's lines give counts, each marked where it is within noise: "gcc -O3
// −2.43% data / +0.10% pipe (no change within noise); clang …" ("" when no
// build has a score).
func (h Headline) extendedScoresText(scores map[Build]map[string]Score) string {
	var parts []string
	for _, bd := range h.ExtendedBuilds {
		var modes []string
		for _, m := range h.Modes {
			s, ok := scores[bd][m]
			if !ok {
				continue
			}
			t := fmt.Sprintf("%s %s", signed(s.Ratio-1, 2), m)
			if s.Verdict() == "tie" {
				t += " (no change within noise)"
			}
			modes = append(modes, t)
		}
		if len(modes) > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", bd, strings.Join(modes, " / ")))
		}
	}
	return strings.Join(parts, "; ")
}

// extendedText is the extended builds' table, as countedText's, with a
// column per mode of each release in ExtendedOn, that release alone.
func (h Headline) extendedText() string {
	e := h.Extended
	head, rule := "| build |", "|---|"
	for _, m := range h.Modes {
		head += " " + m + " mode |"
		rule += "---|"
	}
	var releases []string
	for _, r := range h.ExtendedOn {
		releases = append(releases, r.Version)
		for _, m := range h.Modes {
			head += fmt.Sprintf(" %s mode, %s alone |", m, r.Version)
			rule += "---|"
		}
	}
	var rows []string
	for _, bd := range h.ExtendedBuilds {
		row := fmt.Sprintf("| %s |", bd) + h.countedCells(e.Scores[bd])
		for _, r := range h.ExtendedOn {
			row += h.countedCells(r.Scores[bd])
		}
		rows = append(rows, row)
	}
	alone := ""
	if len(releases) > 0 {
		alone = fmt.Sprintf(" and, in the last columns, on Redis %s alone (measured in interleaved rounds below)", joinAnd(releases))
	}
	return fmt.Sprintf("**Extended builds, counted cost** (matrix.toml's extended flag sets: -O3, -O3 -flto, stock, the\n"+
		"release's own Makefile defaults, and pgo, profile-guided -O2 -flto): %s, %s. Against %s, on the releases where both are counted%s\n"+
		"(▲ costlier, ▼ cheaper beyond %s); %s:\n\n%s\n%s\n%s",
		cellsSoFar(e.Cells, h.ExtendedPlanned, " counted"), releasesText(e.Versions), h.Baseline, alone, e.bandText(), IntelStudy, head, rule, strings.Join(rows, "\n"))
}

// countedCells are a build's counted scores as table cells, one per mode:
// " −2.43% ▼ ±0.49% | not counted |".
func (h Headline) countedCells(scores map[string]Score) string {
	var b strings.Builder
	for _, m := range h.Modes {
		if s, ok := scores[m]; ok {
			b.WriteString(" " + countedScoreText(s) + " |")
		} else {
			b.WriteString(" not counted |")
		}
	}
	return b.String()
}
