package report

import (
	"strconv"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func TestCountsPrintsTimePerCellAndTheSpreadOfRepeats(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	d := &store.Data{
		CountRuns: []store.CountRun{
			{RunID: "a1", CellID: "7.4.1|gcc|-O2", Mode: "data", Repeat: 1, DurationSeconds: 40},
			{RunID: "a2", CellID: "7.4.1|gcc|-O2", Mode: "data", Repeat: 2, DurationSeconds: 50},
			{RunID: "b1", CellID: "7.4.1|gcc|-Os", Mode: "data", Repeat: 1, DurationSeconds: 30},
		},
		Counts: []store.Count{
			{RunID: "a1", CellID: "7.4.1|gcc|-O2", Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: f(1000)},
			{RunID: "a2", CellID: "7.4.1|gcc|-O2", Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: f(1000.5)},
			{RunID: "a1", CellID: "7.4.1|gcc|-O2", Mode: "data", Test: "GET", Status: "ok", InstructionsPerRequest: f(800)},
			{RunID: "a2", CellID: "7.4.1|gcc|-O2", Mode: "data", Test: "GET", Status: "ok", InstructionsPerRequest: f(808)},
			{RunID: "b1", CellID: "7.4.1|gcc|-Os", Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: f(1100)},
			{RunID: "b1", CellID: "7.4.1|gcc|-Os", Mode: "data", Test: "XADD", Status: "unsupported"},
		},
	}
	out := printed(Counts, d)
	expectLines(t, out,
		"counts: 3 runs of 2 cells; counting time per cell median 60s, max 90s; 0.03 h in all",
		"counts: 1 tests unsupported",
		// SET: 0.05%, GET: 1%; -Os has one count only.
		"counts, mode data, instructions per request: repeat spread median 0.5250%, p99 0.9905%, max 1.0000%; 1 of 2 (cell, test) within 0.1%",
		"counts, mode data: 7.4.1|gcc|-O2 GET: instructions per request 1.0000% apart (> 0.1%)")
	if strings.Contains(out, "SET: instructions per request") {
		t.Errorf("a test within 0.1%% is listed:\n%s", out)
	}
	if strings.Contains(out, "L1 misses") {
		t.Errorf("a figure with no values is printed:\n%s", out)
	}
}

func TestCountsSaysWhichRunsAreSuperseded(t *testing.T) {
	why := "repeats differed: SET 0.0100% apart"
	host := "built with jemalloc configured for the build host's 57-bit virtual addresses (machine m), not 48"
	mixed := "counted on build b1 (code aaaa), and the cell's later build b2 is other code (bbbb)"
	d := &store.Data{SupersededCountRuns: []store.CountRun{
		{RunID: "a", CellID: "7.4.1|gcc|-O2"}, {RunID: "b", CellID: "7.4.1|gcc|-O2"}, {RunID: "c", CellID: "7.2.6|gcc|-O2", Protocol: 1},
		{RunID: "d", CellID: "4.0.0|clang|-O2", Mode: "pipe", Repeat: 1, Protocol: int32(store.CountProtocol), Redone: &why},
		{RunID: "e", CellID: "4.0.0|clang|-O2", Mode: "pipe", Repeat: 2, Protocol: int32(store.CountProtocol), Redone: &why},
		{RunID: "f", CellID: "6.0.11|gcc|-O2", Mode: "data", Repeat: 1, Protocol: int32(store.CountProtocol), Redone: &host},
		{RunID: "g", CellID: "6.0.11|gcc|-O2", Mode: "pipe", Repeat: 1, Protocol: int32(store.CountProtocol), Redone: &host},
		{RunID: "g2", CellID: "6.0.11|gcc|-O2 -flto", Mode: "pipe", Repeat: 1, Protocol: int32(store.CountProtocol), Redone: &host},
		{RunID: "h", CellID: "6.0.9|gcc|-Os -flto", Mode: "data", Repeat: 2, Protocol: int32(store.CountProtocol), Redone: &host},
		{RunID: "i", CellID: "6.0.9|gcc|-O2", Mode: "data", Repeat: 1, Protocol: int32(store.CountProtocol), Redone: &mixed},
	}}
	expectPrinted(t, Counts, d, "counts: protocol "+strconv.Itoa(store.CountProtocol)+"; 3 runs of 2 cells under earlier protocols (1) are superseded, kept in count_runs_superseded.parquet, and not used\n"+
		"counts: 2 runs of 1 (cell, mode) counted again because their repeats differed (collector count -redo-differing), kept in count_runs_superseded.parquet:\n"+
		"counts:   4.0.0|clang|-O2 pipe: repeats differed: SET 0.0100% apart\n"+
		"counts: 4 runs of 3 cells counted again on a rebuild because their build's jemalloc took the build host's virtual address bits (docs/method.md, Build protocol), kept in count_runs_superseded.parquet: 6.0.9 (1), 6.0.11 (2)\n"+
		"counts: 1 runs of 1 cells counted again on the cell's later build, which is other code, kept in count_runs_superseded.parquet: 6.0.9 (1)\n"+
		"counts: none yet (collector count)\n")
}

// The repeat spread is of counts of one build: a rebuild counted 1% apart
// (another binary) does not widen it.
func TestRepeatSpreadIsWithinABuild(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	d := &store.Data{Counts: []store.Count{
		{CellID: "c", BuildID: "b1", Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: f(1000)},
		{CellID: "c", BuildID: "b1", Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: f(1001)},
		{CellID: "c", BuildID: "b2", Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: f(1010)},
	}}
	got := countSpreads(d, "data", func(c store.Count) *float64 { return c.InstructionsPerRequest })
	if s := got[[2]string{"c", "SET"}]; len(got) != 1 || s < 0.0999 || s > 0.1001 {
		t.Errorf("spreads %v, want c SET 0.1%% (build b1's two repeats)", got)
	}
}
