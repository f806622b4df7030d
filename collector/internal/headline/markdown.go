package headline

import (
	"fmt"
	"math"
	"strings"
)

// Begin and End mark the README's headline block, which Markdown writes.
const (
	Begin = "<!-- headline: written from public/data by `cd collector && go test ./internal/headline -update`; a test fails when it differs -->"
	End   = "<!-- /headline -->"
)

// Markdown is the headline as the README shows it, between Begin and End.
func Markdown(h Headline) string {
	var b strings.Builder
	fmt.Fprintln(&b, Begin)
	fmt.Fprintf(&b, "%s\n\n", h.beyondNoise())
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
	if len(h.Rounds.Versions) > 0 {
		fmt.Fprintf(&b, "\n%s\n", h.roundsText())
	}
	if h.Counted.Cells > 0 {
		fmt.Fprintf(&b, "\n%s\n", h.countedText())
	}
	fmt.Fprintln(&b, End)
	return b.String()
}

// beyondNoise says which builds differ from the baseline beyond noise.
func (h Headline) beyondNoise() string {
	var beyond []string
	for _, m := range h.Modes {
		for _, bd := range h.Builds {
			if s := h.Scores[bd][m]; s.Verdict() == "faster" || s.Verdict() == "slower" {
				beyond = append(beyond, fmt.Sprintf("%s in %s mode (%s)", bd, m, scoreText(s)))
			}
		}
	}
	if len(beyond) == 0 {
		return fmt.Sprintf("**No build is faster or slower than %s beyond the noise of the repeats, in either mode.**", h.Baseline)
	}
	return fmt.Sprintf("**Beyond the noise of the repeats: %s.**", strings.Join(beyond, ", "))
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
	pct := 100 * (s.Ratio - 1)
	sign := "+"
	if pct < 0 {
		sign = "−"
	}
	if math.IsNaN(s.Band) {
		return fmt.Sprintf("%s%.*f%% %s", sign, d, math.Abs(pct), glyph)
	}
	return fmt.Sprintf("%s%.*f%% %s ±%.*f%%", sign, d, math.Abs(pct), glyph, d, 100*s.Band)
}

// countedText is the counted instrument's paragraph, what has been counted,
// and a table of each counted build against the baseline per mode. A count
// repeats to the hundredth of a percent, so its figures have two decimals.
func (h Headline) countedText() string {
	c := h.Counted
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
		"better): %d of %d cells counted so far, two repeats each, which lie at most %s apart.",
		c.Cells, h.PlannedCells, strings.Join(spreads, " and "))
	if len(rows) == 0 {
		return text + fmt.Sprintf(" No other build is counted yet on a release where %s is.", h.Baseline)
	}
	head, rule := "| build |", "|---|"
	for _, m := range h.Modes {
		head += " " + m + " mode |"
		rule += "---|"
	}
	return text + fmt.Sprintf(" Against %s, on the releases where both are counted (▲ costlier, ▼ cheaper beyond the\n"+
		"repeats' spread, ± the spread):\n\n%s\n%s\n%s", h.Baseline, head, rule, strings.Join(rows, "\n"))
}

// countedScoreText is scoreText with two decimals.
func countedScoreText(s Score) string { return scoreTextDecimals(s, 2) }
