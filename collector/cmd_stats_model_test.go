package main

import (
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// stats -model calibrates the pipe counts against the pipe-long rounds: on
// two versions, clang -O2 runs 2% and 4% faster with 4% and 8% fewer
// instructions, so leaving one version out predicts the other exactly.
func TestStatsModelPrintsTheCalibration(t *testing.T) {
	data := t.TempDir()
	d := &store.Data{Machines: []store.Machine{{MachineID: "m1", CPUModel: "Test CPU", Cores: 2}}}
	seed := int64(1)
	f := func(v float64) *float64 { return &v }
	for v, x := range map[string]float64{"1.0.0": 0.04, "2.0.0": 0.08} {
		for _, c := range []struct {
			cell         string
			speed, instr float64
		}{{"gcc|-O2", 1, 1}, {"clang|-O2", 1 + x/2, 1 - x}} {
			cell := v + "|" + c.cell
			for round := 1; round <= 2; round++ {
				id := cell + string(rune('0'+round))
				d.Runs = append(d.Runs, store.Run{RunID: id, CellID: cell, Version: v, Mode: "pipe-long", Repeat: int32(round), MachineID: "m1", Status: "ok", RoundSeed: &seed})
				d.Results = append(d.Results, store.Result{RunID: id, CellID: cell, Version: v, Mode: "pipe-long", Test: "SET", Status: "ok",
					RPS: f(1000 * c.speed * (1 + 0.01*float64(round))), Compiler: strings.Split(c.cell, "|")[0]})
			}
			d.CountRuns = append(d.CountRuns, store.CountRun{RunID: cell + "|count", CellID: cell, Version: v, Mode: "pipe", Repeat: 1, Status: "ok", Protocol: store.CountProtocol})
			d.Counts = append(d.Counts, store.Count{RunID: cell + "|count", CellID: cell, Version: v, Compiler: strings.Split(c.cell, "|")[0], Mode: "pipe", Test: "SET", Status: "ok",
				InstructionsPerRequest: f(5000 * c.instr), EstCyclesPerRequest: f(6000), L1MissesPerRequest: f(10), LLMissesPerRequest: f(1), BranchMissesPerRequest: f(20)})
		}
	}
	if err := d.Save(data); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "stats", "-model", "-config", "matrix.toml", "-data", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"model, pipe-long on Test CPU, 2 cores: rounds per version 1.0.0 2, 2.0.0 2",
		"(`pipe-long` rounds on Test CPU, 2 cores against `pipe` counts)",
		"| instructions | instructions −0.",
		"| 2.0.0 | clang -O2 | +4.0% [",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stats -model lacks %q:\n%s", want, out)
		}
	}
}
