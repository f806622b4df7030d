package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/runner"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// plan -precision counts rounds: 12 configurations x 2 precision modes x 5
// rounds of one version; the reference plan of the same data is unchanged.
func TestPlanPrecisionCountsRounds(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	out, _, err := runCLI(t, "plan", "-precision", "-config", "matrix.toml", "-data", data, "-versions", "7.4.1", "-hardware", "all")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out, "12 cells: 0 done, 0 partial, 0 failed, 12 pending; 120 runs to do counting every machine's runs together\n") ||
		!strings.Contains(out, "data-long 0/5, pipe-long 0/5") {
		t.Errorf("plan -precision:\n%s", out)
	}
	out, _, err = runCLI(t, "plan", "-precision", "-repeats", "2", "-config", "matrix.toml", "-data", data, "-versions", "7.4.1", "-hardware", "all")
	if err != nil || !strings.Contains(out, "48 runs to do") {
		t.Errorf("plan -precision -repeats 2 (%v):\n%s", err, out)
	}
	out, _, err = runCLI(t, "plan", "-config", "matrix.toml", "-data", data, "-versions", "7.4.1", "-hardware", "all")
	if err != nil || !strings.Contains(out, "72 runs to do") || strings.Contains(out, "data-long") {
		t.Errorf("reference plan (%v):\n%s", err, out)
	}
}

// plan -precision -modes plans the named precision modes only, and names an
// unknown one.
func TestPlanPrecisionModesSelectsModes(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	out, _, err := runCLI(t, "plan", "-precision", "-modes", "pipe-long", "-config", "matrix.toml", "-data", data, "-versions", "7.4.1", "-hardware", "all")
	if err != nil || !strings.Contains(out, "pipe-long 0/5") || strings.Contains(out, "data-long") {
		t.Errorf("plan -precision -modes pipe-long (%v):\n%s", err, out)
	}
	if _, _, err := runCLI(t, "plan", "-precision", "-modes", "pipe", "-config", "matrix.toml", "-data", data); err == nil || !strings.Contains(err.Error(), `"pipe" is not a precision mode`) {
		t.Errorf("-modes pipe: %v", err)
	}
}

// stats -precision reads the precision modes from the config and prints each
// configuration's effect against gcc -O2.
func TestStatsPrecisionPrintsEffects(t *testing.T) {
	data := t.TempDir()
	d := &store.Data{Machines: []store.Machine{{MachineID: "m1", CPUModel: "Test CPU", Cores: 2}}}
	seed := int64(1)
	for i, f := range []struct {
		cell   string
		repeat int
		rps    float64
	}{{"gcc|-O2", 1, 100}, {"clang|-O2", 1, 104}, {"gcc|-O2", 2, 100}, {"clang|-O2", 2, 106}} {
		id := string(rune('a' + i))
		rps := f.rps
		d.Runs = append(d.Runs, store.Run{RunID: id, CellID: "7.4.1|" + f.cell, Version: "7.4.1", Mode: "pipe-long", Repeat: int32(f.repeat), MachineID: "m1", Status: "ok", RoundSeed: &seed})
		d.Results = append(d.Results, store.Result{RunID: id, CellID: "7.4.1|" + f.cell, Version: "7.4.1", Mode: "pipe-long", Test: "SET", Status: "ok", RPS: &rps})
	}
	if err := d.Save(data); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "stats", "-precision", "-config", "matrix.toml", "-data", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"7.4.1 pipe-long (precision, interleaved rounds) on Test CPU, 2 cores: 2 rounds, 1 tests", "clang -O2      +5.00%    1.00%         faster", "seed 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats -precision lacks %q:\n%s", want, out)
		}
	}
	if out2, _, _ := runCLI(t, "stats", "-precision", "-seed", "9", "-config", "matrix.toml", "-data", data); !strings.Contains(out2, "seed 9") {
		t.Errorf("-seed not used:\n%s", out2)
	}
}

// run -precision -repeats N sets the rounds; the reference repeats, and the
// plan table that holds them, stay as matrix.toml says (a precision run
// wrote a plan of 5 reference repeats before).
func TestPrecisionRepeatsAreRoundsNotReferenceRepeats(t *testing.T) {
	yes := true
	m := matrixFlags{config: "matrix.toml", repeats: 5, versions: "7.4.1", rounds: &yes}
	cfg, _, err := m.load()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Bench.Rounds != 5 || cfg.Bench.Repeats != 3 || cfg.Bench.OtherRepeats != 1 {
		t.Errorf("rounds %d, repeats %d, other repeats %d; want 5, 3, 1", cfg.Bench.Rounds, cfg.Bench.Repeats, cfg.Bench.OtherRepeats)
	}
	for _, p := range runner.PlanRows(cfg) {
		if want := map[bool]int32{true: 3, false: 1}[*p.Current]; p.Repeats != want {
			t.Fatalf("plan row %s: %d repeats, want %d", p.CellID, p.Repeats, want)
		}
	}
	m.rounds = nil
	if cfg, _, err = m.load(); err != nil || cfg.Bench.Repeats != 5 || cfg.Bench.OtherRepeats != 5 {
		t.Errorf("run -repeats 5 (reference): %v, repeats %d, other %d", err, cfg.Bench.Repeats, cfg.Bench.OtherRepeats)
	}
}
