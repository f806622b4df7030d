package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// statsFixture is a small dataset with something for every part of collector
// stats: builds on two machines of two classes (one needing compatibility
// flags, one failed), three reference repeats of two configurations and one
// on the other class, a run measured again, counts of one cell (two repeats,
// one run of an earlier protocol set aside) under a recorded guest CPU, and
// two interleaved rounds of a precision mode.
func statsFixture(t *testing.T) string {
	t.Helper()
	at := time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	f := func(v float64) *float64 { return &v }
	s := func(v string) *string { return &v }
	i := func(v int64) *int64 { return &v }
	failed := "make: exit status 2: clang: error: linker command failed with exit code 1"
	d := &store.Data{
		Machines: []store.Machine{
			{MachineID: "m1", CPUModel: "Test CPU", Cores: 2, MemWriteBPS: 9e9, MeasuredAt: at, CollectorVersion: "0.2.0", CPUID: s("family 6 model 1 stepping 1")},
			{MachineID: "m2", CPUModel: "Other CPU", Cores: 2, MemWriteBPS: 8e9, MeasuredAt: at, CollectorVersion: "0.2.0", CPUID: s("family 25 model 1 stepping 1")},
		},
		Builds: []store.Build{
			{BuildID: "b1", CellID: "7.4.1|gcc|-O2", Version: "7.4.1", Compiler: "gcc", FlagSet: "-O2", Status: "ok", SourceSeconds: 1, DepsSeconds: 30, BuildSeconds: 60, StartedAt: at, FinishedAt: at.Add(91 * time.Second), MachineID: "m1", CodeSHA256: s("aaaa")},
			{BuildID: "b2", CellID: "7.4.1|clang|-O2", Version: "7.4.1", Compiler: "clang", FlagSet: "-O2", Status: "ok", CompatFlags: "-fcommon", SourceSeconds: 1, BuildSeconds: 70, StartedAt: at.Add(2 * time.Minute), FinishedAt: at.Add(3 * time.Minute), MachineID: "m1", CodeSHA256: s("bbbb")},
			{BuildID: "b3", CellID: "2.6.17|clang|-Ofast", Version: "2.6.17", Compiler: "clang", FlagSet: "-Ofast", Status: "failed", Error: &failed, StartedAt: at.Add(4 * time.Minute), FinishedAt: at.Add(5 * time.Minute), MachineID: "m1"},
			{BuildID: "b4", CellID: "7.4.1|gcc|-O2", Version: "7.4.1", Compiler: "gcc", FlagSet: "-O2", Status: "ok", BuildSeconds: 50, StartedAt: at.Add(3 * time.Hour), FinishedAt: at.Add(3*time.Hour + time.Minute), MachineID: "m2", CodeSHA256: s("aaaa")},
		},
	}
	run := func(id, cell, build, machine, mode string, repeat int, start time.Time, set, get float64) {
		v, c, fl := cellParts(cell)
		d.Runs = append(d.Runs, store.Run{RunID: id, CellID: cell, Version: v, Compiler: c, FlagSet: fl, BuildID: build, Mode: mode, Repeat: int32(repeat), Status: "ok",
			OtherCPU: "others:1.0", DurationSeconds: 30, OverheadSeconds: 0.5, StartedAt: start, FinishedAt: start.Add(30 * time.Second), MachineID: machine,
			MemWriteBefore: f(9e9), MemWriteAfter: f(8.5e9), StealPct: f(float64(repeat))})
		for ti, r := range []struct {
			test string
			rps  float64
		}{{"SET", set}, {"GET", get}} {
			d.Results = append(d.Results, store.Result{RunID: id, BuildID: build, CellID: cell, Version: v, Compiler: c, FlagSet: fl, Mode: mode, Repeat: int32(repeat),
				Test: r.test, TestIndex: int32(ti), Status: "ok", RPS: f(r.rps)})
		}
	}
	for rep := 1; rep <= 3; rep++ {
		start := at.Add(time.Duration(10*rep) * time.Minute)
		run(fmt.Sprintf("g%d", rep), "7.4.1|gcc|-O2", "b1", "m1", "data", rep, start, 100000+float64(rep)*1000, 110000-float64(rep)*500)
		run(fmt.Sprintf("c%d", rep), "7.4.1|clang|-O2", "b2", "m1", "data", rep, start.Add(time.Minute), 104000+float64(rep)*800, 111000+float64(rep)*300)
	}
	run("o1", "7.4.1|gcc|-O2", "b4", "m2", "data", 4, at.Add(3*time.Hour+2*time.Minute), 130000, 140000)
	// A run measured again: it ran while the host took 26.9% of a CPU.
	old := store.Run{RunID: "g1-old", CellID: "7.4.1|gcc|-O2", Version: "7.4.1", Compiler: "gcc", FlagSet: "-O2", BuildID: "b1", Mode: "data", Repeat: 1, Status: "ok",
		OtherCPU: "others:2.0", DurationSeconds: 30, StartedAt: at.Add(5 * time.Minute), FinishedAt: at.Add(5*time.Minute + 30*time.Second), MachineID: "m1", StealPct: f(26.9)}
	d.RedoneRuns = []store.RedoneRun{{Run: old, RedoReason: "host steal 26.9% > 10%", ReplacedBy: "g1"}}
	d.RedoneResults = []store.Result{{RunID: "g1-old", BuildID: "b1", CellID: "7.4.1|gcc|-O2", Version: "7.4.1", Compiler: "gcc", FlagSet: "-O2", Mode: "data", Repeat: 1, Test: "SET", Status: "ok", RPS: f(80000)}}
	// Counts: two repeats of one cell in data mode, and a run of protocol 6 set aside.
	for rep := 1; rep <= 2; rep++ {
		id := fmt.Sprintf("7.4.1|gcc|-O2|count-data|%d", rep)
		start := at.Add(time.Duration(60+rep) * time.Minute)
		d.CountRuns = append(d.CountRuns, store.CountRun{RunID: id, CellID: "7.4.1|gcc|-O2", Version: "7.4.1", Compiler: "gcc", FlagSet: "-O2", BuildID: "b1", Mode: "data",
			Repeat: int32(rep), Status: "ok", DurationSeconds: 40, StartedAt: start, FinishedAt: start.Add(40 * time.Second), MachineID: "m1", GuestCPU: s("GenuineIntel 0x0d | glibc=2.36"),
			Protocol: store.CountProtocol})
		ir := 5700000 + int64(rep-1)*57
		d.Counts = append(d.Counts, store.Count{RunID: id, BuildID: "b1", CellID: "7.4.1|gcc|-O2", Version: "7.4.1", Compiler: "gcc", FlagSet: "-O2", Mode: "data", Repeat: int32(rep),
			Test: "SET", Status: "ok", Requests: i(1000), InstructionsPerRequest: f(float64(ir) / 1000), EstCyclesPerRequest: f(float64(ir) / 1000 * 1.2),
			L1MissesPerRequest: f(12.5), LLMissesPerRequest: f(0.25), BranchMissesPerRequest: f(30), Ir: i(ir)})
	}
	d.SupersededCountRuns = []store.CountRun{{RunID: "old-count", CellID: "7.4.1|gcc|-O2", Version: "7.4.1", Compiler: "gcc", FlagSet: "-O2", BuildID: "b1", Mode: "data",
		Repeat: 1, Status: "ok", DurationSeconds: 60, StartedAt: at.Add(50 * time.Minute), FinishedAt: at.Add(51 * time.Minute), MachineID: "m1", Protocol: 6}}
	// Two interleaved rounds of data-long: clang 5% and 4% ahead of gcc.
	for round := 1; round <= 2; round++ {
		seed := int64(round)
		for pos, c := range []struct {
			cell, build string
			rps         float64
		}{{"7.4.1|gcc|-O2", "b1", 100000}, {"7.4.1|clang|-O2", "b2", 104000 + float64(round)*1000}} {
			id := fmt.Sprintf("long-%d-%d", round, pos)
			v, comp, fl := cellParts(c.cell)
			d.Runs = append(d.Runs, store.Run{RunID: id, CellID: c.cell, Version: v, Compiler: comp, FlagSet: fl, BuildID: c.build, Mode: "data-long", Repeat: int32(round),
				Status: "ok", DurationSeconds: 60, StartedAt: at.Add(time.Duration(120+10*round+pos) * time.Minute), FinishedAt: at.Add(time.Duration(121+10*round+pos) * time.Minute), MachineID: "m1", RoundSeed: &seed, RoundPosition: func(p int32) *int32 { return &p }(int32(pos + 1))})
			d.Results = append(d.Results, store.Result{RunID: id, BuildID: c.build, CellID: c.cell, Version: v, Compiler: comp, FlagSet: fl, Mode: "data-long", Repeat: int32(round),
				Test: "SET", Status: "ok", RPS: f(c.rps), Requests: i(150000)})
		}
	}
	dir := t.TempDir()
	if err := d.Save(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// cellParts splits a cell id, "7.4.1|gcc|-O2", into version, compiler and flag set.
func cellParts(cell string) (version, compiler, flagSet string) {
	var parts [3]string
	n := 0
	for i, start := 0, 0; i <= len(cell); i++ {
		if i == len(cell) || cell[i] == '|' {
			parts[n] = cell[start:i]
			n, start = n+1, i+1
		}
	}
	return parts[0], parts[1], parts[2]
}

// collector stats prints, on statsFixture, exactly what testdata/golden-stats*.txt
// hold (as benchstat's testdata does). After a deliberate change of the
// report, rewrite them with `go test -run TestStatsGolden -update` and read
// the diff.
func TestStatsGolden(t *testing.T) {
	data := statsFixture(t)
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"golden-stats.txt", nil},
		{"golden-stats-precision.txt", []string{"-precision", "-config", "matrix.toml"}},
	} {
		t.Run(c.golden, func(t *testing.T) {
			args := append(append([]string{"stats"}, c.args...), "-data", data)
			out, stderr, err := runCLI(t, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			// The same data prints the same report: nothing may depend on map order or the clock.
			if again, _, _ := runCLI(t, args...); again != out {
				t.Fatalf("two runs on the same data print different reports:\n%s\n---\n%s", out, again)
			}
			golden(t, c.golden, out)
		})
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

// A -data that is not a directory is a one-line error, not an empty report.
func TestStatsRefusesAMissingDataDirectory(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "public", "data")
	out, _, err := runCLI(t, "stats", "-data", missing)
	if err == nil || err.Error() != "no data directory "+missing+" (-data)" || out != "" {
		t.Errorf("stats -data %s: %v, printed %q", missing, err, out)
	}
}
