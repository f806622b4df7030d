package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/stats"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// precisionData has 7.4.1 gcc -O2 and clang -O2 in two rounds of pipe-long
// (SET ratios 1.04 and 1.06, GET 0.96 twice) and in two reference pipe repeats numbered 4 and 7
// (ratios 1.10 and 0.90), and 6.2.16 in the reference mode only.
func precisionData() *store.Data {
	d := &store.Data{Machines: []store.Machine{{MachineID: "m1", CPUModel: "Test CPU", Cores: 2}}}
	add := func(version, cell, mode string, repeat int, seed *int64, rps float64, test ...string) {
		id := fmt.Sprintf("%s|%s|%s|%d", version, cell, mode, repeat)
		run := store.Run{RunID: id, CellID: version + "|" + cell, Version: version, Mode: mode, Repeat: int32(repeat), MachineID: "m1", Status: "ok", RoundSeed: seed, ClientArgs: "-n 20 --csv"}
		res := store.Result{RunID: id, CellID: version + "|" + cell, Version: version, Mode: mode, Test: "SET", TestIndex: 2, Status: "ok", RPS: &rps}
		if len(test) > 0 {
			res.Test, res.TestIndex = test[0], 3
		}
		if seed != nil {
			// Precision runs carry their count per result; 150 requests at 100/s last 1.5 s.
			run.ClientArgs, res.Requests = "--csv", ptr64(150)
		}
		if len(test) == 0 {
			d.Runs = append(d.Runs, run)
		}
		d.Results = append(d.Results, res)
	}
	seed := int64(3)
	add("7.4.1", "gcc|-O2", "pipe-long", 1, &seed, 100)
	add("7.4.1", "clang|-O2", "pipe-long", 1, &seed, 104)
	add("7.4.1", "gcc|-O2", "pipe-long", 2, &seed, 100)
	add("7.4.1", "clang|-O2", "pipe-long", 2, &seed, 106)
	for r := 1; r <= 2; r++ { // GET: ratio 0.96 in both rounds
		add("7.4.1", "gcc|-O2", "pipe-long", r, &seed, 100, "GET")
		add("7.4.1", "clang|-O2", "pipe-long", r, &seed, 96, "GET")
	}
	add("7.4.1", "gcc|-O2", "pipe", 4, nil, 100)
	add("7.4.1", "clang|-O2", "pipe", 4, nil, 110)
	add("7.4.1", "gcc|-O2", "pipe", 7, nil, 80)
	add("7.4.1", "clang|-O2", "pipe", 7, nil, 72)
	add("6.2.16", "gcc|-O2", "pipe", 1, nil, 100)
	return d
}

func TestPrecisionPrintsEffectsIntervalsAndCVsPerVersionAndMode(t *testing.T) {
	var b strings.Builder
	Precision(&b, precisionData(), []string{"data-long", "pipe-long"}, []string{"data", "pipe"}, nil, "gcc|-O2", stats.DefaultOptions)
	// The noise, by hand (ln of requests/s less each configuration's mean per test): gcc all 0;
	// clang SET -0.009525 (round 1), +0.009525 (round 2), GET 0. Round components -/+0.00238
	// (SD 0.34%, 1 degree of freedom); run components +/-0.00238 (gcc), -/+0.00238 (clang): SD
	// 0.48% over (2-1)(2-1) = 1; the rest -/+0.004763 in clang's four figures: SD 0.67% over
	// 2·1·1 = 2.
	// Rounds only: SET's ratios 1.04, 1.06 and GET's 0.96, 0.96; resampling rounds alone gives
	// means of round 1 (ratio 0.9992), round 2 (1.0088) or both, so a half-width of 0.48%, where
	// resampling tests too adds SET's +5% against GET's -4% (5.00%).
	want := `
7.4.1 pipe-long (precision, interleaved rounds) on Test CPU, 2 cores: 2 rounds, 2 tests
  a test lasts 1.415 s at the shortest, 1.500 s at the median (client's clock): one millisecond is at most 0.07% of a figure
  configuration  effect    ± half-width  verdict                 rounds only ±  per test ±  median CV  unstable  
  clang -O2      +0.40%    5.00%         no change within noise  0.48%          0.50%       0.67%      0/2       
  gcc -O2        baseline                                                                   0.00%      0/2       
  median half-width 5.00%, largest 5.00%; rounds only: median 0.48%; per test: median 0.50%
  noise over 2 complete rounds of 2 configurations (SD of ln requests/s): round 0.34% (shared by a round; pairing removes it), run 0.48% (shared by a run's tests; pairing keeps it), test 0.67%; run component against host steal r = –, against the memory-write probe r = –

7.4.1 pipe (reference, repeats paired by pass) on Test CPU, 2 cores: 2 rounds, 1 tests
  a test lasts 0.182 s at the shortest, 0.225 s at the median (client's clock): one millisecond is at most 0.55% of a figure
  configuration  effect    ± half-width  verdict                 rounds only ±  per test ±  median CV  unstable  
  clang -O2      -0.50%    10.00%        no change within noise  10.00%         10.00%      29.53%     1/1       
  gcc -O2        baseline                                                                   15.71%     1/1       
  median half-width 10.00%, largest 10.00%; rounds only: median 10.00%; per test: median 10.00%
  noise over 2 complete rounds of 2 configurations (SD of ln requests/s): round 22.87% (shared by a round; pairing removes it), run 10.03% (shared by a run's tests; pairing keeps it), test –; run component against host steal r = –, against the memory-write probe r = –
effect: geometric mean over rounds and tests of the per-round ratio to gcc -O2 (requests/s); ± half-width of its 95% bootstrap interval (2000 resamples of rounds and tests, seed 1; expanded percentile levels for the number of rounds); a verdict only when the interval excludes no change; rounds only ±: the same interval with rounds resampled alone, every test kept once (the measurement's noise without the effect's spread from test to test); per test ±: median over tests of the half-width of each test's own interval (rounds resampled); CV: median over tests of the coefficient of variation across rounds (unstable above 10%)
`
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestPrecisionWithoutPrecisionRunsSaysSo(t *testing.T) {
	var b strings.Builder
	d := precisionData()
	d.Runs, d.Results = d.Runs[4:], d.Results[8:]
	Precision(&b, d, []string{"data-long", "pipe-long"}, []string{"pipe"}, nil, "gcc|-O2", stats.DefaultOptions)
	if got := b.String(); got != "no runs in the precision modes (data-long, pipe-long) or of the versions asked for\n" {
		t.Errorf("got %q", got)
	}
	// Versions asked for get their reference tables anyway.
	b.Reset()
	Precision(&b, d, []string{"data-long", "pipe-long"}, []string{"pipe"}, []string{"7.4.1"}, "gcc|-O2", stats.DefaultOptions)
	if got := b.String(); !strings.Contains(got, "7.4.1 pipe (reference, repeats paired by pass)") || strings.Contains(got, "6.2.16") {
		t.Errorf("with -versions 7.4.1:\n%s", got)
	}
	// One round: an effect, but no interval and no coefficient of variation.
	b.Reset()
	d.Runs, d.Results = d.Runs[:2], d.Results[:2]
	Precision(&b, d, []string{"data-long", "pipe-long"}, []string{"pipe"}, []string{"7.4.1"}, "gcc|-O2", stats.DefaultOptions)
	if got := b.String(); !strings.Contains(got, "clang -O2      +10.00%   –             one round: no interval  –              –           –          0/0") ||
		!strings.Contains(got, "median half-width –, largest –; rounds only: median –; per test: median –") {
		t.Errorf("one round:\n%s", got)
	}
}

func ptr64(v int64) *int64 { return &v }
