package stats

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// fixture is tests/fixtures/fixture-stats.json, shared with src/model/stats.ts.
type fixture struct {
	Options struct {
		Resamples  int     `json:"resamples"`
		Confidence float64 `json:"confidence"`
		Seed       uint32  `json:"seed"`
	} `json:"options"`
	Cases []struct {
		Name     string       `json:"name"`
		Baseline [][]*float64 `json:"baseline"`
		Config   [][]*float64 `json:"config"`
		Want     struct {
			Center            float64
			Lo, Hi, HalfWidth *float64 // null: no interval
			Verdict           string
			Rounds, Tests     int
			CV                []*float64
			Unstable          []bool
		} `json:"want"`
	} `json:"cases"`
	Agreement struct {
		Seed     uint32       `json:"seed"`
		Uint32   []uint32     `json:"uint32"`
		Baseline [][]*float64 `json:"baseline"`
		Config   [][]*float64 `json:"config"`
		Want     struct{ Center, Lo, Hi float64 }
	} `json:"agreement"`
}

func loadFixture(t *testing.T) fixture {
	t.Helper()
	b, err := os.ReadFile("../../../tests/fixtures/fixture-stats.json")
	if err != nil {
		t.Fatal(err)
	}
	var f fixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// matrix turns JSON nulls into NaN.
func matrix(rows [][]*float64) [][]float64 {
	out := make([][]float64, len(rows))
	for r, row := range rows {
		for _, v := range row {
			x := math.NaN()
			if v != nil {
				x = *v
			}
			out[r] = append(out[r], x)
		}
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// nearOrNaN: a JSON null wants NaN.
func nearOrNaN(a float64, b *float64) bool {
	if b == nil {
		return math.IsNaN(a)
	}
	return near(a, *b)
}

func TestHandWorkedCases(t *testing.T) {
	f := loadFixture(t)
	o := Options{Resamples: f.Options.Resamples, Confidence: f.Options.Confidence, Seed: f.Options.Seed}
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			cfg := matrix(c.Config)
			s := Effect(LogRatios(cfg, matrix(c.Baseline)), o)
			w := c.Want
			if !near(s.Center, w.Center) || !nearOrNaN(s.Lo, w.Lo) || !nearOrNaN(s.Hi, w.Hi) || !nearOrNaN(s.HalfWidth(), w.HalfWidth) {
				t.Errorf("effect %.12f [%.12f, %.12f], want %.12f [%v, %v]", s.Center, s.Lo, s.Hi, w.Center, w.Lo, w.Hi)
			}
			if s.Verdict() != w.Verdict || s.Rounds != w.Rounds || s.Tests != w.Tests {
				t.Errorf("verdict %q over %d rounds x %d tests, want %q over %d x %d", s.Verdict(), s.Rounds, s.Tests, w.Verdict, w.Rounds, w.Tests)
			}
			for test, want := range w.CV {
				var col []float64
				for _, row := range cfg {
					col = append(col, row[test])
				}
				got := CV(col)
				if want == nil && !math.IsNaN(got) || want != nil && !near(got, *want) {
					t.Errorf("test %d: CV %v, want %v", test, got, want)
				}
				if Unstable(got) != w.Unstable[test] {
					t.Errorf("test %d: unstable %v, want %v", test, Unstable(got), w.Unstable[test])
				}
			}
		})
	}
}

// The generator and a bootstrap that depends on its draws give the figures
// the fixture records, which the TypeScript module must give too.
func TestAgreementWithTheFixture(t *testing.T) {
	f := loadFixture(t)
	a := f.Agreement
	r := NewRand(a.Seed)
	for i, want := range a.Uint32 {
		if got := r.Uint32(); got != want {
			t.Fatalf("draw %d = %d, want %d", i, got, want)
		}
	}
	o := Options{Resamples: f.Options.Resamples, Confidence: f.Options.Confidence, Seed: f.Options.Seed}
	s := Effect(LogRatios(matrix(a.Config), matrix(a.Baseline)), o)
	if !near(s.Center, a.Want.Center) || !near(s.Lo, a.Want.Lo) || !near(s.Hi, a.Want.Hi) {
		t.Errorf("effect %.15g [%.15g, %.15g], want %.15g [%.15g, %.15g]", s.Center, s.Lo, s.Hi, a.Want.Center, a.Want.Lo, a.Want.Hi)
	}
}

func TestSameSeedSameIntervalOtherSeedOther(t *testing.T) {
	m := LogRatios([][]float64{{101, 99}, {104, 100}, {99, 103}, {102, 98}, {105, 101}}, [][]float64{{100, 100}, {100, 100}, {100, 100}, {100, 100}, {100, 100}})
	a, b := Effect(m, DefaultOptions), Effect(m, DefaultOptions)
	if a != b {
		t.Errorf("same seed: %+v then %+v", a, b)
	}
	o := DefaultOptions
	o.Seed = 2
	if c := Effect(m, o); c.Lo == a.Lo && c.Hi == a.Hi {
		t.Errorf("seed 2 gave the interval of seed 1: %+v", c)
	}
	if !(a.Lo < a.Center && a.Center < a.Hi) {
		t.Errorf("center %v outside [%v, %v]", a.Center, a.Lo, a.Hi)
	}
}

func TestNoRatioAtAllIsNaNAndNoVerdict(t *testing.T) {
	s := Effect(LogRatios([][]float64{{math.NaN()}}, [][]float64{{100}}), DefaultOptions)
	if !math.IsNaN(s.Center) || s.Verdict() != NoChange || s.Rounds != 0 {
		t.Errorf("%+v, verdict %q", s, s.Verdict())
	}
}

func TestMedianAndNearestRank(t *testing.T) {
	if m := Median([]float64{3, math.NaN(), 1, 2}); m != 2 {
		t.Errorf("median %v, want 2", m)
	}
	if m := Median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median %v, want 2.5", m)
	}
	xs := make([]float64, 2000)
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	// The 50th and 1950th smallest of 2000: ranks ceil(0.025*2000) and ceil(0.975*2000).
	if lo, hi := NearestRank(xs, 0.025), NearestRank(xs, 0.975); lo != 50 || hi != 1950 {
		t.Errorf("nearest ranks %v, %v, want 50, 1950", lo, hi)
	}
}

// FixedTests resamples rounds alone: with SET's ratios 1.04, 1.06 and GET's
// 0.96, 0.96, a resample's mean is round 1's, round 2's or both rounds', so
// the interval runs from round 1's geometric mean to round 2's; resampling
// tests too reaches GET alone (0.96) and SET alone.
func TestFixedTestsResamplesRoundsAlone(t *testing.T) {
	m := [][]float64{{math.Log(1.04), math.Log(0.96)}, {math.Log(1.06), math.Log(0.96)}}
	o := DefaultOptions
	o.FixedTests = true
	s := Effect(m, o)
	lo, hi := math.Sqrt(1.04*0.96), math.Sqrt(1.06*0.96)
	if math.Abs(s.Lo-lo) > 1e-12 || math.Abs(s.Hi-hi) > 1e-12 {
		t.Errorf("rounds only: [%.6f, %.6f], want [%.6f, %.6f]", s.Lo, s.Hi, lo, hi)
	}
	if all := Effect(m, DefaultOptions); all.Lo > 0.96+1e-12 || all.Hi < 1.05-1e-12 {
		t.Errorf("rounds and tests: [%.6f, %.6f], want it to reach GET's 0.96 and SET's 1.05", all.Lo, all.Hi)
	}
}

// Student's t quantiles and the normal distribution function against
// published tables, and the expanded levels they give.
func TestExpandedAlphaFromStudentAndNormal(t *testing.T) {
	for _, c := range []struct {
		df   int
		want float64
	}{{1, 12.7062}, {2, 4.3027}, {3, 3.1824}, {4, 2.7764}, {9, 2.2622}, {30, 2.0423}} {
		if got := StudentQuantile(0.975, c.df); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("t(0.975, %d) = %.5f, want %.4f", c.df, got, c.want)
		}
	}
	for _, c := range []struct{ x, want float64 }{{0, 0.5}, {1.959964, 0.975}, {-1.959964, 0.025}, {-3, 0.0013499}} {
		if got := NormalCDF(c.x); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("Φ(%g) = %.7f, want %.7f", c.x, got, c.want)
		}
	}
	// 5 rounds: 2 Φ(−√(5/4) · 2.7764) = 2 Φ(−3.1041) ≈ 0.00191, the 0.095% and 99.905% quantiles.
	if a := ExpandedAlpha(0.05, 5); math.Abs(a-0.00191) > 0.00002 {
		t.Errorf("expanded alpha for 5 rounds = %.5f, want 0.00191", a)
	}
	// Many rounds: close to the plain level.
	if a := ExpandedAlpha(0.05, 1000); math.Abs(a-0.05) > 0.001 {
		t.Errorf("expanded alpha for 1000 rounds = %.4f, want about 0.05", a)
	}
	if !math.IsNaN(ExpandedAlpha(0.05, 1)) {
		t.Error("one round has an expanded level")
	}
}
