package headline

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// noiseFixture is tests/fixtures/fixture-noise.json, the noise rule's cases
// that the site's src/sql/noise.ts passes too (tests/unit/noiseRule.test.ts).
type noiseFixture struct {
	Tolerance float64 `json:"tolerance"`
	Pairs     []struct {
		Name    string
		Lower   bool
		A, B    []float64
		SpreadA *float64 `json:"spread_a"`
		SpreadB *float64 `json:"spread_b"`
		// Floor is the least band (a counted metric's rebuild band), 0 when absent.
		Floor       float64
		Band, Ratio *float64
		Verdict     string
	}
	Geomeans []struct {
		Name  string
		Items []struct {
			Ratio float64
			Band  *float64
		}
		Ratio   float64
		Band    *float64
		Verdict string
	}
}

func readNoiseFixture(t *testing.T) (f noiseFixture) {
	t.Helper()
	b, err := os.ReadFile("../../../tests/fixtures/fixture-noise.json")
	if err == nil {
		err = json.Unmarshal(b, &f)
	}
	if err != nil || len(f.Pairs) == 0 || len(f.Geomeans) == 0 {
		t.Fatalf("fixture-noise.json: %v, or no cases", err)
	}
	return f
}

// orNaN is the fixture's null as the headline's unknown (NaN).
func orNaN(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}

func agrees(got, want, tol float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return math.Abs(got-want) <= tol
}

// siteVerdict is a Score's verdict in the site's words: Score judges the
// ratio B / A, so for a cost (lower is better) a ratio above the band is
// costlier, which the site calls slower, and the README's counted table reads
// Score's "slower" as cheaper.
func siteVerdict(s Score, lower bool) string {
	v := s.Verdict()
	if lower {
		v = map[string]string{"faster": "slower", "slower": "faster"}[v]
		if v == "" {
			v = s.Verdict()
		}
	}
	return v
}

// repeatsFigure is the figure of a configuration's repeats: of rates, or of
// costs (lower), as the headline reads results and counts.
func repeatsFigure(values []float64, lower bool) figure {
	f := figures{of: map[key]figure{}, tests: map[string][]string{}}
	for _, v := range values {
		f.add(key{}, v, lower)
	}
	return f.of[key{}]
}

func TestTheNoiseRuleOnTheSharedFixture(t *testing.T) {
	f := readNoiseFixture(t)
	for _, c := range f.Pairs {
		a, b := repeatsFigure(c.A, c.Lower), repeatsFigure(c.B, c.Lower)
		ratio, band := item(b, a, c.Floor)
		got := Score{Ratio: ratio, Band: band}
		if !agrees(a.spread(), orNaN(c.SpreadA), f.Tolerance) || !agrees(b.spread(), orNaN(c.SpreadB), f.Tolerance) ||
			!agrees(band, orNaN(c.Band), f.Tolerance) || !agrees(ratio, orNaN(c.Ratio), f.Tolerance) || siteVerdict(got, c.Lower) != c.Verdict {
			t.Errorf("%s: spreads %v %v, band %v, ratio %v, %s; want %v %v, %v, %v, %s", c.Name,
				a.spread(), b.spread(), band, ratio, siteVerdict(got, c.Lower), orNaN(c.SpreadA), orNaN(c.SpreadB), orNaN(c.Band), orNaN(c.Ratio), c.Verdict)
		}
	}
	for _, c := range f.Geomeans {
		var ratios, bands []float64
		for _, it := range c.Items {
			ratios, bands = append(ratios, it.Ratio), append(bands, orNaN(it.Band))
		}
		s := geomean(ratios, bands)
		if !agrees(s.Ratio, c.Ratio, f.Tolerance) || !agrees(s.Band, orNaN(c.Band), f.Tolerance) || s.Verdict() != c.Verdict {
			t.Errorf("%s: %+v %s; want ratio %v, band %v, %s", c.Name, s, s.Verdict(), c.Ratio, orNaN(c.Band), c.Verdict)
		}
	}
}
