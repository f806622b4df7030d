package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// stretchData: machine m1 builds and counts A (its two counting runs in
// parallel), fails to build B, pauses 30 minutes, then builds, benchmarks and
// counts C; machine m2 benchmarks X, and 15 minutes later measures it again.
func stretchData() *store.Data {
	at := func(hhmm string) time.Time {
		t, err := time.Parse("2006-01-02 15:04", "2026-11-24 "+hhmm)
		if err != nil {
			panic(err)
		}
		return t
	}
	return &store.Data{
		Builds: []store.Build{
			{CellID: "A", Status: "ok", MachineID: "m1", StartedAt: at("10:00"), FinishedAt: at("10:05")},
			{CellID: "B", Status: "failed", MachineID: "m1", StartedAt: at("10:41"), FinishedAt: at("10:43")},
			{CellID: "C", Status: "ok", MachineID: "m1", StartedAt: at("11:13"), FinishedAt: at("11:15")},
		},
		CountRuns: []store.CountRun{
			{CellID: "A", Mode: "data", MachineID: "m1", StartedAt: at("10:05"), FinishedAt: at("10:35")},
			{CellID: "A", Mode: "pipe", MachineID: "m1", StartedAt: at("10:05"), FinishedAt: at("10:40")},
			{CellID: "C", Mode: "data", MachineID: "m1", StartedAt: at("11:20"), FinishedAt: at("11:50")},
		},
		Runs: []store.Run{
			{CellID: "C", MachineID: "m1", StartedAt: at("11:16"), FinishedAt: at("11:18")},
			{CellID: "X", MachineID: "m2", StartedAt: at("10:25"), FinishedAt: at("10:27")},
		},
		RedoneRuns: []store.RedoneRun{{Run: store.Run{CellID: "X", MachineID: "m2", StartedAt: at("10:00"), FinishedAt: at("10:10")}}},
	}
}

func TestStretchesSplitAMachinesWorkAtPausesOfTheGap(t *testing.T) {
	var out bytes.Buffer
	PrintStretches(&out, stretchData(), 20*time.Minute)
	// Busy: m1's first stretch 10:00-10:40 (the parallel runs once) and 10:41-10:43, 42 minutes;
	// its second 2 + 2 + 30 = 34 minutes; m2's 10 + 2 = 12 minutes.
	want := "stretch 1, machine m1: 2026-11-24 10:00 to 2026-11-24 10:43 UTC, 0.72 h (0.70 h busy): 1 cells built (2 builds, 1 failed), 0 runs, 1 cells counted (2 counting runs)\n" +
		"stretch 2, machine m2: 2026-11-24 10:00 to 2026-11-24 10:27 UTC, 0.45 h (0.20 h busy): 0 cells built (0 builds, 0 failed), 2 runs, 0 cells counted (0 counting runs)\n" +
		"stretch 3, machine m1: 2026-11-24 11:13 to 2026-11-24 11:50 UTC, 0.62 h (0.57 h busy): 1 cells built (1 builds, 0 failed), 1 runs, 1 cells counted (1 counting runs)\n" +
		"3 stretches of collection (pauses of 20m0s or more between them): 1.78 h of machine time, 1.47 h busy\n"
	if out.String() != want {
		t.Errorf("stretches:\n%s\nwant\n%s", out.String(), want)
	}
	// A pause of exactly the gap separates; a longer gap joins m1's two stretches.
	if n := len(Stretches(stretchData(), 30*time.Minute)); n != 3 {
		t.Errorf("%d stretches with a 30-minute gap, want 3", n)
	}
	ss := Stretches(stretchData(), 31*time.Minute)
	if len(ss) != 2 || ss[0].Machine != "m1" || ss[0].Builds != 3 || ss[0].CellsBuilt != 2 || ss[0].CellsCounted != 2 || ss[0].CountRuns != 3 || ss[0].Busy != 76*time.Minute {
		t.Errorf("with a 31-minute gap: %+v", ss)
	}
}

func TestStretchesOfNoDataAreNone(t *testing.T) {
	var out bytes.Buffer
	PrintStretches(&out, &store.Data{}, StretchGap)
	if out.String() != "0 stretches of collection (pauses of 20m0s or more between them): 0.00 h of machine time, 0.00 h busy\n" {
		t.Errorf("no data: %q", out.String())
	}
}
