package headline

import (
	"fmt"
	"strings"
)

// Pair is one build's counted cost against another's than the baseline, on
// the releases where both are counted: the comparisons a reader choosing a
// build asks for (issue: -O3 against -O2, LTO on top of -O3, stock against
// the best build, PGO's gain).
type Pair struct {
	// Label says what the pair answers ("LTO on top of -O3").
	Label string
	Build Build
	// Against is the build compared with, per mode (the cheapest build can
	// differ from mode to mode); Scores the cost ratio per mode.
	Against map[string]Build
	Scores  map[string]Score
}

// stockLabel is the pairs of a stock build and the cheapest build, which
// differs from mode to mode and so is named.
const stockLabel = "stock against the cheapest build"

// computePairs scores (f, the counts as figures), per compiler with the
// builds counted: -O3 -flto against -O3, pgo against the -O2 -flto it is
// built with, and stock against the cheapest build of all (reference and
// extended) in each mode.
func computePairs(f figures, versions, modes []string, ref, ext Counted) []Pair {
	cheapest, lowest := map[string]Build{}, map[string]float64{}
	for _, c := range []Counted{ref, ext} {
		for b, byMode := range c.Scores {
			for m, s := range byMode {
				if r, ok := lowest[m]; !ok || s.Ratio < r {
					cheapest[m], lowest[m] = b, s.Ratio
				}
			}
		}
	}
	var out []Pair
	add := func(label string, b Build, against func(mode string) (Build, bool)) {
		p := Pair{Label: label, Build: b, Against: map[string]Build{}, Scores: map[string]Score{}}
		for _, m := range modes {
			a, ok := against(m)
			if !ok || a == b {
				continue
			}
			if s := f.againstAllVersions(b, a, m, versions); s.Tests > 0 {
				p.Against[m], p.Scores[m] = a, s
			}
		}
		if len(p.Scores) > 0 {
			out = append(out, p)
		}
	}
	compilers := []string{"gcc", "clang"}
	for _, pair := range []struct{ label, build, against string }{
		{"LTO on top of -O3", "-O3 -flto", "-O3"},
		{"PGO over the -O2 -flto it is built with", "pgo", "-O2 -flto"},
	} {
		for _, cc := range compilers {
			add(pair.label, Build{cc, pair.build}, func(string) (Build, bool) { return Build{cc, pair.against}, true })
		}
	}
	for _, cc := range compilers {
		add(stockLabel, Build{cc, "stock"}, func(m string) (Build, bool) { b, ok := cheapest[m]; return b, ok })
	}
	return out
}

// pairsText is the pairs as one sentence: "LTO on top of -O3: gcc −0.86%
// data / −0.87% pipe, clang …; …", each against the build it names.
func (h Headline) pairsText() string {
	var parts []string
	for i := 0; i < len(h.Pairs); {
		label := h.Pairs[i].Label
		var builds []string
		for ; i < len(h.Pairs) && h.Pairs[i].Label == label; i++ {
			p := h.Pairs[i]
			var modes []string
			for _, m := range h.Modes {
				if s, ok := p.Scores[m]; ok {
					against := ""
					if label == stockLabel {
						against = fmt.Sprintf(" (against %s)", p.Against[m])
					}
					modes = append(modes, fmt.Sprintf("%s %s%s", signed(s.Ratio-1, 2), m, against))
				}
			}
			builds = append(builds, fmt.Sprintf("%s %s", p.Build, strings.Join(modes, " / ")))
		}
		parts = append(parts, fmt.Sprintf("%s: %s", label, strings.Join(builds, ", ")))
	}
	return "Between builds, instructions per request on the releases where both are counted: " + strings.Join(parts, "; ") + "."
}
