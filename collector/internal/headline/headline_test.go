package headline

import (
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

var update = flag.Bool("update", false, "rewrite the README's headline block from public/data")

// A dataset of two versions × gcc and clang -O2, data mode, two repeats, on
// class A, plus one faster run on class B that must not count anywhere.
func handMade() *store.Data {
	a, b := "A CPU, 2 cores", "B CPU, 2 cores"
	d := &store.Data{Machines: []store.Machine{{MachineID: "a", HardwareClass: &a}, {MachineID: "b", HardwareClass: &b}}}
	for vi, v := range []string{"1.0.0", "2.0.0"} {
		for ci, c := range []string{"gcc", "clang"} {
			d.Plan = append(d.Plan, store.Plan{CellID: v + "|" + c + "|-O2", Version: v, VersionIndex: int32(vi), Compiler: c,
				CompilerIndex: int32(ci), FlagSet: "-O2", Modes: "data", Repeats: 2})
		}
	}
	// SET's requests/s per repeat: gcc 1.0.0 100 and 90 (spread 10%), clang 1.0.0 120 and 118;
	// gcc 2.0.0 100 twice (spread 0), clang 2.0.0 100 and 95 (5%).
	rps := map[string][]float64{"1.0.0|gcc": {100, 90}, "1.0.0|clang": {120, 118}, "2.0.0|gcc": {100, 100}, "2.0.0|clang": {100, 95}}
	add := func(machine, v, c string, repeat int, x float64) {
		id := fmt.Sprintf("%s|%s|%s|%d", machine, v, c, repeat)
		d.Runs = append(d.Runs, store.Run{RunID: id, CellID: v + "|" + c + "|-O2", Mode: "data", Repeat: int32(repeat), MachineID: machine})
		d.Results = append(d.Results, store.Result{RunID: id, Version: v, Compiler: c, FlagSet: "-O2", Mode: "data", Test: "SET", Status: "ok", RPS: &x})
	}
	for k, xs := range rps {
		v, c, _ := strings.Cut(k, "|")
		for i, x := range xs {
			add("a", v, c, i+1, x)
		}
	}
	add("b", "2.0.0", "gcc", 3, 1000)
	return d
}

// both is all the headline writes: the README's block and the results page's.
func both(h Headline) string { return Markdown(h) + Details(h) }

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// containsAll fails the test for each of wants that md lacks.
func containsAll(t *testing.T, md string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(md, want) {
			t.Errorf("headline lacks %q:\n%s", want, md)
		}
	}
}

func TestComputeScoresEveryBuildAgainstThePlansFirstOnTheMostDoneClass(t *testing.T) {
	h := Compute(handMade())
	if h.Class != "A CPU, 2 cores" || h.Done != 8 || h.Planned != 8 || len(h.Others) != 1 || h.Others[0] != "B CPU, 2 cores" {
		t.Errorf("class %q, %d of %d runs, others %q", h.Class, h.Done, h.Planned, h.Others)
	}
	if h.Baseline != (Build{"gcc", "-O2"}) || len(h.Builds) != 1 || h.Oldest != "1.0.0" || h.Newest != "2.0.0" {
		t.Fatalf("baseline %v, builds %v, versions %s..%s", h.Baseline, h.Builds, h.Oldest, h.Newest)
	}
	// SET: 120/100 on 1.0.0 (band 10%), 100/100 on 2.0.0 (band 5%): the geometric means.
	s := h.Scores[Build{"clang", "-O2"}]["data"]
	if !near(s.Ratio, math.Sqrt(1.2)) || !near(s.Band, math.Sqrt(1.1*1.05)-1) || s.Tests != 1 || s.Verdict() != "faster" {
		t.Errorf("clang -O2 = %+v, %s; want ratio %.4f, band %.4f, faster", s, s.Verdict(), math.Sqrt(1.2), math.Sqrt(1.1*1.05)-1)
	}
	// gcc 2.0.0 against 1.0.0: 100/100 within gcc 1.0.0's 10% spread, whatever class B measured.
	if r := h.Releases["data"]; !near(r.Ratio, 1) || !near(r.Band, 0.1) || r.Verdict() != "tie" {
		t.Errorf("releases = %+v", r)
	}
	// Spreads 10%, 1.67%, 0, 5%: the median is halfway between 1.67% and 5%.
	if want := (2.0/120 + 0.05) / 2; !near(h.Spread["data"], want) {
		t.Errorf("median spread %.4f, want %.4f", h.Spread["data"], want)
	}
}

func TestVerdictIsTheSitesNoiseRule(t *testing.T) {
	for _, c := range []struct {
		s    Score
		want string
	}{
		{Score{Ratio: 1.03, Band: 0.02}, "faster"},
		{Score{Ratio: 1.015, Band: 0.02}, "tie"},
		{Score{Ratio: 0.92, Band: 0.022}, "slower"}, // 1/0.92 − 1 = 8.7% > 2.2%
		{Score{Ratio: 1.5, Band: math.NaN()}, "unknown"},
	} {
		if got := c.s.Verdict(); got != c.want {
			t.Errorf("%+v: %s, want %s", c.s, got, c.want)
		}
	}
}

func TestScoreTextHasSignGlyphAndBand(t *testing.T) {
	for s, want := range map[Score]string{
		{Ratio: 1.064, Band: 0.181}:     "+6.4% ≈ ±18.1%",
		{Ratio: 0.9, Band: 0.01}:        "−10.0% ▼ ±1.0%",
		{Ratio: 1.2, Band: math.NaN()}:  "+20.0% ?",
		{Ratio: math.NaN(), Band: 0.01}: "not measured",
	} {
		if got := scoreText(s); got != want {
			t.Errorf("scoreText(%+v) = %q, want %q", s, got, want)
		}
	}
}

// The README's headline block is what public/data gives: a dataset commit
// that changes the figures fails here until the block is written again
// (go test ./internal/headline -update).
func TestREADMEHeadlineIsThePublishedData(t *testing.T) {
	const root, data = "../../../", "../../../public/data"
	d, err := store.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	h := Compute(d)
	for file, want := range map[string]string{"README.md": Markdown(h), ResultsPage: Details(h)} {
		text, err := os.ReadFile(root + file)
		if err != nil {
			t.Fatal(err)
		}
		before, rest, ok1 := strings.Cut(string(text), Begin)
		_, after, ok2 := strings.Cut(rest, End+"\n")
		if !ok1 || !ok2 {
			t.Fatalf("%s has no headline block (%q ... %q)", file, Begin, End)
		}
		got := Begin + rest[:len(rest)-len(after)]
		if *update {
			if err := os.WriteFile(root+file, []byte(before+want+after), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got != want {
			t.Errorf("%s's headline block differs from public/data; run `cd collector && go test ./internal/headline -update`. Want:\n%s", file, want)
		}
	}
}

func TestCountedScoresCostAgainstTheBaselineWhereBothAreCounted(t *testing.T) {
	d := handMade()
	f := func(v float64) *float64 { return &v }
	// Instructions per request: gcc 1.0.0 1000 and 1001, clang 1.0.0 900 twice;
	// clang 2.0.0 is counted, gcc 2.0.0 is not, so 2.0.0 does not count.
	for _, c := range []struct {
		v, cc string
		ir    float64
	}{{"1.0.0", "gcc", 1000}, {"1.0.0", "gcc", 1001}, {"1.0.0", "clang", 900}, {"1.0.0", "clang", 900}, {"2.0.0", "clang", 500}} {
		d.Counts = append(d.Counts, store.Count{CellID: c.v + "|" + c.cc + "|-O2", BuildID: c.v + "|" + c.cc + "|-O2|b1", Version: c.v, Compiler: c.cc, FlagSet: "-O2",
			Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: f(c.ir)})
	}
	h := Compute(d)
	s, ok := h.Counted.Scores[Build{"clang", "-O2"}]["data"]
	if !ok || !near(s.Ratio, 0.9) || !near(s.Band, 0.001) || s.Verdict() != "slower" {
		t.Fatalf("clang -O2 counted = %+v (%s), want ratio 0.9, band 0.1%%, cheaper beyond it", s, s.Verdict())
	}
	if h.Counted.Cells != 3 || !near(h.Counted.Spread["data"], 0.001) {
		t.Errorf("%d cells counted, spread %v; want 3, 0.1%%", h.Counted.Cells, h.Counted.Spread)
	}
	md := both(h)
	for _, want := range []string{"3 of 4 cells counted so far", "| clang -O2 | −10.00% ▼ ±0.10% |",
		"- **Instructions per request** (counted under Valgrind, two repeats of a build at most 0.10% apart; 3 of 4 cells so far, on Redis 1.0.0 and 2.0.0): " +
			"data mode cheapest clang -O2 (−10.00%), costliest clang -O2 (−10.00%), 1 of 1 build cheaper and 0 costlier beyond the repeats' spread.\n",
		// clang's 120 and 100 against gcc's 100 and 100 on SET beyond the 10% and 5% spreads.
		"- **Requests/second, reference protocol** (1.0.0 to 2.0.0, on A CPU, 2 cores): beyond the noise of the repeats: clang -O2 in data mode (+9.5% ▲ ±7.5%).\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("headline lacks %q:\n%s", want, md)
		}
	}
}

// Once every planned cell is counted the headline says "all", not "N of N so far".
func TestCellsSoFarSaysAllWhenComplete(t *testing.T) {
	for _, c := range []struct {
		cells, planned int
		done, want     string
	}{{3, 4, "", "3 of 4 cells so far"}, {3, 4, " counted", "3 of 4 cells counted so far"}, {1896, 1896, "", "all 1896 cells"}, {4, 4, " counted", "all 4 cells counted"}} {
		if got := cellsSoFar(c.cells, c.planned, c.done); got != c.want {
			t.Errorf("cellsSoFar(%d, %d, %q) = %q, want %q", c.cells, c.planned, c.done, got, c.want)
		}
	}
}

// A cell counted again from a rebuild (another binary: clang's LTO builds
// differ) is not a repeat: the repeats' spread is within one build, and the
// rebuilt cells and their spread are given apart.
func TestCountsOfARebuildAreNotRepeats(t *testing.T) {
	d := handMade()
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		v, cc, build string
		ir           float64
	}{{"1.0.0", "gcc", "b1", 1000}, {"1.0.0", "gcc", "b1", 1001}, {"1.0.0", "clang", "b1", 900}, {"1.0.0", "clang", "b1", 900}, {"1.0.0", "clang", "b2", 909}} {
		d.Counts = append(d.Counts, store.Count{CellID: c.v + "|" + c.cc + "|-O2", BuildID: c.v + "|" + c.cc + "|-O2|" + c.build, Version: c.v, Compiler: c.cc, FlagSet: "-O2",
			Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: f(c.ir)})
	}
	c := Compute(d).Counted
	if !near(c.Spread["data"], 0.001) || c.Rebuilt != 1 || !near(c.RebuiltSpread["data"], 0.01) {
		t.Fatalf("spread %v, %d cells rebuilt, their spread %v; want 0.1%%, 1, 1%%", c.Spread, c.Rebuilt, c.RebuiltSpread)
	}
	md := both(Compute(d))
	for _, want := range []string{"two repeats of a build at most 0.10% apart, 1 cell counted again from a rebuild at most 1.00% apart;",
		"two repeats of a build each, which lie at most 0.10% (data mode) apart, 1 cell counted again from a rebuild at most 1.00% (data mode) apart."} {
		if !strings.Contains(md, want) {
			t.Errorf("headline lacks %q:\n%s", want, md)
		}
	}
}

func TestNothingCountedYetIsSaid(t *testing.T) {
	md := both(Compute(handMade()))
	for _, want := range []string{"- **Instructions per request** (counted under Valgrind): none of the 4 cells counted yet.\n",
		"better): none of the 4 cells counted yet.\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("headline lacks %q:\n%s", want, md)
		}
	}
}

func TestThroughputIsOnTheCurrentVersionsAndCostOnEveryPlannedOne(t *testing.T) {
	d := handMade()
	yes, no := true, false
	for i := range d.Plan {
		d.Plan[i].Current = &yes
	}
	// 1.5.0, between the two current versions: one repeat planned, measured
	// much faster on clang, and counted.
	for ci, c := range []string{"gcc", "clang"} {
		d.Plan = append(d.Plan, store.Plan{CellID: "1.5.0|" + c + "|-O2", Version: "1.5.0", VersionIndex: 5, Compiler: c,
			CompilerIndex: int32(ci), FlagSet: "-O2", Modes: "data", Repeats: 1, Current: &no})
		x := map[string]float64{"gcc": 100, "clang": 1000}[c]
		id := "a|1.5.0|" + c
		d.Runs = append(d.Runs, store.Run{RunID: id, CellID: "1.5.0|" + c + "|-O2", Mode: "data", Repeat: 1, MachineID: "a"})
		d.Results = append(d.Results, store.Result{RunID: id, Version: "1.5.0", Compiler: c, FlagSet: "-O2", Mode: "data", Test: "SET", Status: "ok", RPS: &x})
		ir := 1000.0
		d.Counts = append(d.Counts, store.Count{CellID: "1.5.0|" + c + "|-O2", Version: "1.5.0", Compiler: c, FlagSet: "-O2",
			Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: &ir})
	}
	d.Plan[0].VersionIndex, d.Plan[1].VersionIndex, d.Plan[2].VersionIndex, d.Plan[3].VersionIndex = 0, 0, 9, 9
	h := Compute(d)
	if h.Done != 8 || h.Planned != 8 || h.Oldest != "1.0.0" || h.Newest != "2.0.0" {
		t.Errorf("%d of %d runs, versions %s..%s; want 8 of 8 on the current versions 1.0.0..2.0.0", h.Done, h.Planned, h.Oldest, h.Newest)
	}
	if s := h.Scores[Build{"clang", "-O2"}]["data"]; !near(s.Ratio, math.Sqrt(1.2)) {
		t.Errorf("clang -O2 = %+v, want ratio %.4f: 1.5.0's single repeat left out", s, math.Sqrt(1.2))
	}
	if h.Counted.Cells != 2 || h.PlannedCells != 6 {
		t.Errorf("%d of %d cells counted, want 2 of 6: the cost covers every planned version", h.Counted.Cells, h.PlannedCells)
	}
}

// handMade plus three interleaved rounds of 2.0.0 in a precision mode on class
// A: clang -O2 exactly 10% faster than gcc -O2 in every round and test.
func withRounds() *store.Data {
	d := handMade()
	for round := 1; round <= 3; round++ {
		seed := int64(round)
		for _, c := range []string{"gcc", "clang"} {
			id := fmt.Sprintf("a|2.0.0|%s|long|%d", c, round)
			d.Runs = append(d.Runs, store.Run{RunID: id, CellID: "2.0.0|" + c + "|-O2", Mode: "data-long", Repeat: int32(round), MachineID: "a", RoundSeed: &seed})
			for ti, test := range []string{"SET", "GET"} {
				x := 1000 * float64(round+ti)
				if c == "clang" {
					x *= 1.1
				}
				d.Results = append(d.Results, store.Result{RunID: id, CellID: "2.0.0|" + c + "|-O2", Version: "2.0.0", Compiler: c, FlagSet: "-O2",
					Mode: "data-long", Test: test, TestIndex: int32(ti), Status: "ok", RPS: &x})
			}
		}
	}
	return d
}

func TestRoundsGiveEachBuildsEffectWithItsIntervalAgainstTheReferenceRepeats(t *testing.T) {
	defer func(n int) { completeRounds = n }(completeRounds)
	completeRounds = 4
	// Four rounds wanted: 2.0.0's three are still being measured, and the README says so only.
	if h := Compute(withRounds()); len(h.Rounds.Versions) != 0 || len(h.Rounds.Pending) != 1 ||
		!strings.Contains(both(h), "Still being measured, with fewer than 4 rounds of every build so far, and shown on the site only: Redis 2.0.0 (3 of `data-long`).") ||
		strings.Contains(both(h), "How precise") || strings.Contains(both(h), "Requests/second in interleaved rounds") {
		t.Errorf("three of four rounds: versions %q, pending %q:\n%s", h.Rounds.Versions, h.Rounds.Pending, both(h))
	}
	completeRounds = 3
	h := Compute(withRounds())
	r := h.Rounds
	if len(r.Modes) != 1 || r.Modes[0] != "data-long" || len(r.Versions) != 1 || r.Versions[0] != "2.0.0" {
		t.Fatalf("modes %q, versions %q", r.Modes, r.Versions)
	}
	e := r.Precision["2.0.0"]["data-long"]
	if e.Rounds != 3 || e.Tests != 2 || len(e.Effects) != 1 || !near(e.Effects[0].Summary.Center, 1.1) || !near(e.Effects[0].Summary.Lo, 1.1) {
		t.Errorf("effects %+v", e)
	}
	md := both(h)
	containsAll(t, md,
		"**Interleaved rounds** (the precision modes `data-long`:",
		"`data-long`:\n\n| build | 2.0.0 (3 rounds) |\n|---|---|\n| clang -O2 | +10.0% ▲ [+10.0%, +10.0%] |\n",
		"| Redis | mode | half-width | rounds alone | coefficient of variation | noise: round / run / test |",
		// The reference repeats of 2.0.0 (gcc 100, 100; clang 100, 95) paired by pass, in brackets.
		// Both builds move alike from round to round (run 0), SET (1000, 2000, 3000 × the build's
		// speed) and GET (2000, 3000, 4000) by other factors (test).
		"| 2.0.0 | data-long (3 rounds) | 0.00% (",
		"- **Requests/second in interleaved rounds** (3 rounds of `data-long`, on A CPU, 2 cores; the 95% intervals' half-width, median over builds, 0.00%): "+
			"Redis 2.0.0: faster clang -O2 (+10.0% data-long); 0 of 1 no change within noise.\n",
		" | 45.17% / 0.00% / 14.75% |",
	)
	// Without rounds there is no such paragraph.
	if strings.Contains(both(Compute(handMade())), "Interleaved rounds") {
		t.Error("a dataset without rounds has the rounds paragraph")
	}
}

func TestExtendedBuildsHaveALineOfTheirOwnAndStayOutOfTheReferenceFigures(t *testing.T) {
	d := handMade()
	yes := true
	d.Plan = append(d.Plan, store.Plan{CellID: "1.0.0|gcc|-O3 -flto", Version: "1.0.0", VersionIndex: 0, Compiler: "gcc",
		CompilerIndex: 0, FlagSet: "-O3 -flto", FlagIndex: 1, Modes: "data", Repeats: 2, Extended: &yes})
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		flags string
		ir    float64
	}{{"-O2", 1000}, {"-O2", 1000}, {"-O3 -flto", 950}, {"-O3 -flto", 950}} {
		d.Counts = append(d.Counts, store.Count{CellID: "1.0.0|gcc|" + c.flags, BuildID: "1.0.0|gcc|" + c.flags + "|b1", Version: "1.0.0", Compiler: "gcc", FlagSet: c.flags,
			Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: f(c.ir)})
	}
	h := Compute(d)
	if h.PlannedCells != 4 || slices.Contains(h.Builds, Build{"gcc", "-O3 -flto"}) {
		t.Errorf("reference part: %d planned cells, builds %v; want 4 cells without the extended build", h.PlannedCells, h.Builds)
	}
	if h.ExtendedPlanned != 1 || h.Extended.Cells != 1 {
		t.Errorf("extended part: %d planned, %d counted; want 1 and 1", h.ExtendedPlanned, h.Extended.Cells)
	}
	md := both(h)
	containsAll(t, md,
		"- **Extended builds, instructions per request** (all 1 cells, on Redis 1.0.0; each against gcc -O2 on the releases where both are counted): gcc -O3 -flto −5.00% data. For comparison, "+IntelStudy,
		"| gcc -O3 -flto | −5.00% ▼ ±0.00% |",
	)
}

// A release planned but not measured yet (a new current version) does not
// become the newest of the measured span: the releases' score stays the
// measured newest against the oldest.
func TestMeasuredSpanLeavesOutAPlannedReleaseWithoutRuns(t *testing.T) {
	d := handMade()
	for ci, c := range []string{"gcc", "clang"} {
		d.Plan = append(d.Plan, store.Plan{CellID: "3.0.0|" + c + "|-O2", Version: "3.0.0", VersionIndex: 2, Compiler: c,
			CompilerIndex: int32(ci), FlagSet: "-O2", Modes: "data", Repeats: 2})
	}
	h := Compute(d)
	if h.Oldest != "1.0.0" || h.Newest != "2.0.0" {
		t.Fatalf("span %s..%s, want 1.0.0..2.0.0 (3.0.0 has no runs)", h.Oldest, h.Newest)
	}
	if r := h.Releases["data"]; r.Tests != 1 || !near(r.Ratio, 1) {
		t.Errorf("releases = %+v, want 2.0.0 against 1.0.0 on SET", r)
	}
}

// withExtendedRounds is withRounds plus gcc -O3 -flto, an extended build
// planned on 2.0.0, measured in rounds rounds of a precision mode on class B
// beside gcc -O2: 5% faster in every round and test.
func withExtendedRounds(rounds int) *store.Data {
	d := withRounds()
	yes := true
	d.Plan = append(d.Plan, store.Plan{CellID: "2.0.0|gcc|-O3 -flto", Version: "2.0.0", VersionIndex: 1, Compiler: "gcc",
		FlagSet: "-O3 -flto", FlagIndex: 1, Modes: "data", Repeats: 2, Extended: &yes})
	for round := 1; round <= rounds; round++ {
		seed := int64(10 + round)
		for _, flags := range []string{"-O2", "-O3 -flto"} {
			id := fmt.Sprintf("b|2.0.0|%s|long|%d", flags, round)
			d.Runs = append(d.Runs, store.Run{RunID: id, CellID: "2.0.0|gcc|" + flags, Mode: "data-long", Repeat: int32(round), MachineID: "b", RoundSeed: &seed})
			for ti, test := range []string{"SET", "GET"} {
				x := 500 * float64(round+ti)
				if flags != "-O2" {
					x *= 1.05
				}
				d.Results = append(d.Results, store.Result{RunID: id, CellID: "2.0.0|gcc|" + flags, Version: "2.0.0", Compiler: "gcc", FlagSet: flags,
					Mode: "data-long", Test: test, TestIndex: int32(ti), Status: "ok", RPS: &x})
			}
		}
	}
	return d
}

// An extended build measured in interleaved rounds beside the baseline, on
// another class than the headline's, gets its own line with its interval
// (and a table in the results page) once every mode has the rounds; before,
// it is named as still being measured. The reference rounds leave it out.
func TestExtendedBuildsInRoundsHaveTheirIntervalOnTheClassThatMeasuredThem(t *testing.T) {
	defer func(n int) { completeRounds = n }(completeRounds)
	completeRounds = 3
	h := Compute(withExtendedRounds(3))
	if len(h.ExtendedRounds) != 1 || h.ExtendedRounds[0].Class != "B CPU, 2 cores" || len(h.ExtendedRounds[0].Effects) != 1 {
		t.Fatalf("extended rounds %+v", h.ExtendedRounds)
	}
	md := both(h)
	containsAll(t, md,
		"- **Extended builds, requests/second in interleaved rounds** (each against gcc -O2 in the same round, 95% interval; ▲ ▼ beyond it, ≈ no change within noise): "+
			"Redis 2.0.0, 3 rounds on B CPU, 2 cores: gcc -O3 -flto +5.0% ▲ [+5.0%, +5.0%] data-long. For comparison, "+IntelStudy+".\n",
		"Redis 2.0.0 on B CPU, 2 cores:\n\n| build | `data-long` (3 rounds) |\n|---|---|\n| gcc -O3 -flto | +5.0% ▲ [+5.0%, +5.0%] |\n",
		// The reference rounds, on class A, are clang's alone.
		"`data-long`:\n\n| build | 2.0.0 (3 rounds) |\n|---|---|\n| clang -O2 | +10.0% ▲ [+10.0%, +10.0%] |\n",
	)
	if md := both(Compute(withExtendedRounds(2))); !strings.Contains(md, "none complete yet (still being measured: Redis 2.0.0 on B CPU, 2 cores (2 of 3 rounds)).") {
		t.Errorf("two of three rounds:\n%s", md)
	}
}

// The extended builds' line says what a reader choosing a build asks: LTO
// on top of -O3, PGO over the -O2 -flto it is built with, and stock against
// the cheapest build counted.
func TestExtendedLineComparesTheBuildsAReaderChoosesBetween(t *testing.T) {
	d := handMade()
	yes := true
	f := func(v float64) *float64 { return &v }
	for i, c := range []struct {
		flags string
		ir    float64
	}{{"-O2", 1000}, {"-O2 -flto", 980}, {"-O3", 970}, {"-O3 -flto", 950}, {"stock", 960}, {"pgo", 900}} {
		if c.flags != "-O2" {
			d.Plan = append(d.Plan, store.Plan{CellID: "1.0.0|gcc|" + c.flags, Version: "1.0.0", Compiler: "gcc", FlagSet: c.flags,
				FlagIndex: int32(i), Modes: "data", Repeats: 2, Extended: &yes})
		}
		for repeat := 1; repeat <= 2; repeat++ {
			d.Counts = append(d.Counts, store.Count{CellID: "1.0.0|gcc|" + c.flags, BuildID: "1.0.0|gcc|" + c.flags + "|b1", Version: "1.0.0", Compiler: "gcc",
				FlagSet: c.flags, Mode: "data", Repeat: int32(repeat), Test: "SET", Status: "ok", InstructionsPerRequest: f(c.ir)})
		}
	}
	md := both(Compute(d))
	want := "Between builds, instructions per request on the releases where both are counted: LTO on top of -O3: gcc -O3 -flto −2.06% data; " +
		"PGO over the -O2 -flto it is built with: gcc pgo −8.16% data; stock against the cheapest build: gcc stock +6.67% data (against gcc pgo)."
	if !strings.Contains(md, want) {
		t.Errorf("headline lacks %q:\n%s", want, md)
	}
}

// withExtendedCounts is withExtendedRounds(rounds) with gcc -O3 -flto also
// planned on 1.0.0, the counts of gcc -O2 (1000 instructions per request) and
// of gcc -O3 -flto on the versions in ir, two repeats each, and a rebuild
// band of 1%.
func withExtendedCounts(rounds int, ir map[string]float64) *store.Data {
	d := withExtendedRounds(rounds)
	yes := true
	d.Plan = append(d.Plan, store.Plan{CellID: "1.0.0|gcc|-O3 -flto", Version: "1.0.0", VersionIndex: 0, Compiler: "gcc",
		FlagSet: "-O3 -flto", FlagIndex: 1, Modes: "data", Repeats: 2, Extended: &yes})
	d.RebuildBands = []store.RebuildBand{{Metric: InstructionsColumn, Band: 0.01}}
	for v, x := range ir {
		for flags, y := range map[string]float64{"-O2": 1000, "-O3 -flto": x} {
			for repeat := 1; repeat <= 2; repeat++ {
				d.Counts = append(d.Counts, store.Count{CellID: v + "|gcc|" + flags, BuildID: v + "|gcc|" + flags + "|b1", Version: v, Compiler: "gcc",
					FlagSet: flags, Mode: "data", Repeat: int32(repeat), Test: "SET", Status: "ok", InstructionsPerRequest: &y})
			}
		}
	}
	return d
}

// The extended line states the counts on the release the extended rounds
// measured, that release alone, beside the counts over every release and
// the study's figure; a count within the rebuild band says so. The results
// page gives the release's columns beside the table's.
func TestExtendedLineStatesTheCountsOnTheReleaseTheRoundsMeasured(t *testing.T) {
	defer func(n int) { completeRounds = n }(completeRounds)
	completeRounds = 3
	// gcc -O3 -flto 10% cheaper on 1.0.0, 0.5% on 2.0.0 (within the 1% band):
	// over both, √(0.9 × 0.995) − 1 = −5.37%.
	h := Compute(withExtendedCounts(3, map[string]float64{"1.0.0": 900, "2.0.0": 995}))
	o3lto := Build{"gcc", "-O3 -flto"}
	if len(h.ExtendedOn) != 1 || h.ExtendedOn[0].Version != "2.0.0" || !near(h.ExtendedOn[0].Scores[o3lto]["data"].Ratio, 0.995) {
		t.Fatalf("extended counts on the rounds' release: %+v, want 2.0.0's ratio 0.995", h.ExtendedOn)
	}
	md := both(h)
	containsAll(t, md,
		"each against gcc -O2 on the releases where both are counted): gcc -O3 -flto −5.37% data. "+
			"On Redis 2.0.0 alone, the release measured in interleaved rounds: gcc -O3 -flto −0.50% data (no change within noise). For comparison, "+IntelStudy+", in speed, not instructions.\n",
		"on the releases where both are counted and, in the last columns, on Redis 2.0.0 alone (measured in interleaved rounds below)\n",
		"| build | data mode | data mode, 2.0.0 alone |\n|---|---|---|\n| gcc -O3 -flto | −5.37% ▼ ±1.00% | −0.50% ≈ ±1.00% |\n",
	)
}

// Without counts on the rounds' release, or before its rounds are complete,
// the extended line and table give every release's counts alone.
func TestExtendedLineLeavesOutAReleaseWithoutCountsOrCompleteRounds(t *testing.T) {
	defer func(n int) { completeRounds = n }(completeRounds)
	completeRounds = 3
	for name, d := range map[string]*store.Data{
		"2.0.0 not counted":  withExtendedCounts(3, map[string]float64{"1.0.0": 900}),
		"2 of 3 rounds done": withExtendedCounts(2, map[string]float64{"1.0.0": 900, "2.0.0": 995}),
	} {
		h := Compute(d)
		if md := both(h); len(h.ExtendedOn) != 0 || strings.Contains(md, "2.0.0 alone") || !strings.Contains(md, "| build | data mode |\n") {
			t.Errorf("%s: extended counts on the rounds' release %+v:\n%s", name, h.ExtendedOn, md)
		}
	}
}
