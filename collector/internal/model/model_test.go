package model

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/report"
	"github.com/redis-compiler-benchmarks/collector/internal/stats"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// fixtureSlope is the fixture's law: ln(speed ratio) = fixtureSlope × ln(instructions ratio).
const fixtureSlope = -0.5

// fixtureInstructions are the fixture's counted instruction log-ratios
// against gcc -O2, by version and build.
var fixtureInstructions = map[string]map[string]float64{
	"1.0.0": {"gcc|-Os": 0.10, "clang|-O2": -0.04},
	"2.0.0": {"gcc|-Os": 0.06, "clang|-O2": 0.02},
	"3.0.0": {"gcc|-Os": 0.12, "clang|-O2": -0.08},
}

// modelFixture is a dataset where the answer is known: three versions, gcc
// -O2, gcc -Os and clang -O2 each, four interleaved pipe-long rounds of two
// tests on one machine, and pipe counts. Each build's requests/second are
// exactly exp(fixtureSlope × its instruction log-ratio) times gcc -O2's,
// times e^±0.01 by round (alternating, so the geometric mean over rounds is
// exact and the interval has a width); its other counted figures are the
// baseline's. A count of another build of 1.0.0's gcc -Os (not the one
// measured) is off by 50% and must be ignored; a third test, unsupported
// in the rounds, is counted and must be left out.
func modelFixture() *store.Data {
	d := &store.Data{Machines: []store.Machine{{MachineID: "m", CPUModel: "Fixture CPU", Cores: 2}}}
	f := func(v float64) *float64 { return &v }
	i := func(v int64) *int64 { return &v }
	tests := []string{"SET", "GET", "XADD"}
	for v, builds := range fixtureInstructions {
		for _, cfg := range []string{"gcc|-O2", "gcc|-Os", "clang|-O2"} {
			cell := v + "|" + cfg
			parts := strings.SplitN(cfg, "|", 2)
			x := builds[cfg]
			for round := 1; round <= 4; round++ {
				seed := int64(round)
				id := fmt.Sprintf("%s|%d", cell, round)
				d.Runs = append(d.Runs, store.Run{RunID: id, CellID: cell, Version: v, Compiler: parts[0], FlagSet: parts[1], BuildID: cell + "|b1",
					Mode: "pipe-long", Repeat: int32(round), MachineID: "m", RoundSeed: &seed})
				for ti, t := range tests[:2] {
					rps := 1000 * float64(ti+1) * math.Exp(fixtureSlope*x)
					if cfg != "gcc|-O2" {
						rps *= math.Exp(0.01 * float64(1-2*(round%2)))
					}
					d.Results = append(d.Results, store.Result{RunID: id, CellID: cell, Version: v, Compiler: parts[0], FlagSet: parts[1], Mode: "pipe-long",
						Test: t, TestIndex: int32(ti), Status: "ok", RPS: f(rps)})
				}
				d.Results = append(d.Results, store.Result{RunID: id, CellID: cell, Version: v, Compiler: parts[0], FlagSet: parts[1], Mode: "pipe-long",
					Test: "XADD", TestIndex: 2, Status: "unsupported"})
			}
			count := func(build string, scale float64) {
				for ti, t := range tests {
					base := 5000 * float64(ti+1)
					d.Counts = append(d.Counts, store.Count{CellID: cell, BuildID: build, Version: v, Compiler: parts[0], FlagSet: parts[1], Mode: "pipe", Test: t,
						Status: "ok", InstructionsPerRequest: f(base * math.Exp(x) * scale), EstCyclesPerRequest: f(2 * base), L1MissesPerRequest: f(10),
						LLMissesPerRequest: f(1), BranchMissesPerRequest: f(float64(20 + ti)),
						// Data accesses per request: (Dr + Dw) / requests, (3 + 1) × 1000 × base × scale / 1000; branches the baseline's.
						Requests: i(1000), Dr: i(int64(3000 * base * scale)), Dw: i(int64(1000 * base * scale)), Bc: i(7000)})
				}
			}
			count(cell+"|b1", 1)
			if v == "1.0.0" && cfg == "gcc|-Os" {
				count(cell+"|other", 1.5)
			}
			// XADD costs clang more, which would show were it kept.
			if cfg == "clang|-O2" {
				*d.Counts[len(d.Counts)-1].InstructionsPerRequest *= 3
			}
		}
	}
	return d
}

func calibrateFixture(t *testing.T) Result {
	t.Helper()
	d := modelFixture()
	return Calibrate(d, report.EffectsOf(d, func(_, _, m string) bool { return m == "pipe-long" }, "gcc|-O2", stats.DefaultOptions), "pipe")
}

func TestPointsPairEachMeasuredEffectWithTheMeasuredBuildsCountsOverTheMeasuredTests(t *testing.T) {
	r := calibrateFixture(t)
	if len(r.Points) != 6 || len(r.Versions) != 3 || r.Class != "Fixture CPU, 2 cores" || r.Mode != "pipe-long" || r.Baseline != "gcc|-O2" {
		t.Fatalf("%d points, versions %q, class %q, mode %q, baseline %q", len(r.Points), r.Versions, r.Class, r.Mode, r.Baseline)
	}
	for _, p := range r.Points {
		x := fixtureInstructions[p.Version][p.Config]
		if math.Abs(p.X[Instructions]-x) > 1e-12 || p.Tests != 2 {
			t.Errorf("%s %s: instructions %v over %d tests, want %v over 2", p.Version, p.Config, p.X[Instructions], p.Tests, x)
		}
		if math.Abs(math.Log(p.Measured.Center)-fixtureSlope*x) > 1e-12 || !(p.Measured.Lo < p.Measured.Center && p.Measured.Center < p.Measured.Hi) {
			t.Errorf("%s %s: measured %+v, want center exp(%v) inside a proper interval", p.Version, p.Config, p.Measured, fixtureSlope*x)
		}
		if p.X[L1Misses] != 0 || p.X[EstCycles] != 0 || p.X[Branches] != 0 || (p.X[Clang] == 1) != (p.Compiler == "clang") {
			t.Errorf("%s %s: %v", p.Version, p.Config, p.X)
		}
		// The measured build's data accesses are the baseline's: only the other build of 1.0.0 gcc -Os has more.
		if math.Abs(p.X[DataAccesses]) > 1e-12 {
			t.Errorf("%s %s: data accesses %v, want 0", p.Version, p.Config, p.X[DataAccesses])
		}
	}
}

func TestLeavingOneVersionOutRecoversTheFixturesLaw(t *testing.T) {
	r := calibrateFixture(t)
	ins := r.fitNamed("instructions")
	if len(ins.Coef) != 1 || math.Abs(ins.Coef[0]-fixtureSlope) > 1e-9 || len(ins.Folds) != 3 {
		t.Fatalf("instructions fit: %+v", ins)
	}
	for _, p := range ins.Predictions {
		if math.Abs(p.Error()) > 1e-9 || !p.Inside() {
			t.Errorf("%s %s predicted %v, measured %+v", p.Version, p.Config, p.Predicted, p.Measured)
		}
	}
	if math.Abs(ins.R-1) > 1e-9 || ins.MeanAbsError() > 1e-9 || !ins.Met(r.Versions) {
		t.Errorf("r = %v, mean |error| %v, met %v", ins.R, ins.MeanAbsError(), ins.Met(r.Versions))
	}
	// The null model predicts no change: its errors are the measured effects.
	null := r.fitNamed("no change")
	if !math.IsNaN(null.R) || math.Abs(null.Predictions[0].Error()+(null.Predictions[0].Measured.Center-1)) > 1e-12 || null.Met(r.Versions) {
		t.Errorf("null model: r %v, first %+v", null.R, null.Predictions[0])
	}
	// Estimated cycles and the misses do not vary here: those models are collinear, and say so.
	if cyc := r.fitNamed("est. cycles"); cyc.Coef != nil || !math.IsNaN(cyc.Predictions[0].Predicted) {
		t.Errorf("est. cycles fitted a constant: %+v", cyc.Coef)
	}
}

func TestMarkdownSaysWhetherTheAimIsMetAndShowsEveryBuild(t *testing.T) {
	md := Markdown(calibrateFixture(t))
	for _, want := range []string{
		"| instructions | instructions −0.50 [−0.50, −0.50] | +1.00 | 0.00 | 2 of 2 | 2 of 2 | 2 of 2 |",
		"| est. cycles | not fitted (collinear, or a count missing) | – |",
		"The instructions model misses clang's and gcc's builds alike (within a point).",
		"Met by: instructions, instructions + clang.",
		"| 3.0.0 | gcc -Os | −5.8% [",
		"| +12.7% | −5.8% ✓ (+0.0) |",
		"Predicting no change at all puts 1 of 6 builds inside their intervals.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("lacks %q:\n%s", want, md)
		}
	}
}

func TestOneVersionIsNothingToValidate(t *testing.T) {
	d := modelFixture()
	r := Calibrate(d, report.EffectsOf(d, func(_, v, m string) bool { return m == "pipe-long" && v == "1.0.0" }, "gcc|-O2", stats.DefaultOptions), "pipe")
	if len(r.Fits) != 0 || !strings.Contains(Markdown(r), "Fewer than two versions") {
		t.Errorf("fits %d:\n%s", len(r.Fits), Markdown(r))
	}
}
