package runner

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/benchfake"
	"github.com/redis-compiler-benchmarks/collector/internal/build"
	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/machine"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func TestMain(m *testing.M) {
	if benchfake.Serve() {
		return
	}
	os.Exit(m.Run())
}

// Two runs of one round with the fake server and client: the first
// calibrates the version's tests (1000, 100000, then 180000 requests at
// 100,000/s for min_time 1.5 s) and stores the calibration; the second runs
// each test once with the stored count. Both runs keep their round, and
// every result its count.
func TestPrecisionRunsCalibrateOnceAndShareTheCounts(t *testing.T) {
	cfg, modes := roundsConfig(t)
	server, client, log := benchfake.Binaries(t)
	work, data := t.TempDir(), t.TempDir()
	d := &store.Data{}
	cells := cfg.Cells()[6:]
	for _, cell := range cells {
		dir := build.CellDir(work, cell.ID())
		os.MkdirAll(dir, 0o755)
		os.Symlink(server, filepath.Join(dir, "redis-server"))
		os.WriteFile(filepath.Join(dir, "build-id"), []byte("b-"+cell.ID()), 0o644)
		d.Builds = append(d.Builds, store.Build{BuildID: "b-" + cell.ID(), CellID: cell.ID(), Status: "ok", StartedAt: t0})
	}
	c := &collector{
		Options: Options{Config: cfg, Cells: cells, DataDir: data, WorkDir: work, Log: io.Discard},
		data:    d, machine: machine.Info{ID: "m1"}, class: "Test CPU, 2 cores", client: client, binaries: map[string]string{},
	}
	tasks := PendingRounds(cells, modes, 1, d, "", Redo{}, func() int64 { return 77 })
	line, err := c.do(context.Background(), tasks[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, "calibrated data-long on this configuration") || len(d.Calibrations) != 21 {
		t.Fatalf("first run: %q, %d calibrations", line, len(d.Calibrations))
	}
	calls, _ := os.ReadFile(log)
	if n := strings.Count(string(calls), "\n"); n != 20*3+1+21 {
		t.Errorf("%d client calls, want 20 tests x 3 ramp steps + ZPOPMIN once + 21 measured", n)
	}
	line, err = c.do(context.Background(), tasks[1])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(line, "calibrated") || len(d.Calibrations) != 21 {
		t.Errorf("second run calibrated again: %q", line)
	}
	saved, err := store.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(saved.Runs) != 2 || len(saved.Calibrations) != 21 || len(saved.Results) != 42 {
		t.Fatalf("saved %d runs, %d calibrations, %d results", len(saved.Runs), len(saved.Calibrations), len(saved.Results))
	}
	for _, r := range saved.Runs {
		if *r.RoundSeed != 77 || r.Status != "partial" || r.Mode != "data-long" {
			t.Errorf("run %+v", r)
		}
	}
	for _, r := range saved.Results {
		want := int64(180000)
		if r.Test == "ZPOPMIN" {
			want = 1 // unsupported: no count of its own
		}
		if r.Requests == nil || *r.Requests != want {
			t.Errorf("%s %s: requests %v, want %d", r.RunID, r.Test, r.Requests, want)
		}
	}
	for _, cal := range saved.Calibrations {
		if cal.HardwareClass != "Test CPU, 2 cores" || cal.CellID != tasks[0].Cell.ID() {
			t.Errorf("calibration %+v", cal)
		}
	}
}

// A run whose stored count makes a test last less than min_time measures it
// again, in the same run, with a count that lasts it, and stores that
// result with its own count: SET calibrated at 5,000 requests lasts 50 ms at
// the fake's rate, and runs again with 180,000 (1.8 s).
func TestPrecisionRunMeasuresAShortTestAgain(t *testing.T) {
	cfg, modes := roundsConfig(t)
	server, client, log := benchfake.Binaries(t)
	work, data := t.TempDir(), t.TempDir()
	d := &store.Data{}
	cell := cfg.Cells()[6]
	dir := build.CellDir(work, cell.ID())
	os.MkdirAll(dir, 0o755)
	os.Symlink(server, filepath.Join(dir, "redis-server"))
	os.WriteFile(filepath.Join(dir, "build-id"), []byte("b1"), 0o644)
	d.Builds = append(d.Builds, store.Build{BuildID: "b1", CellID: cell.ID(), Status: "ok", StartedAt: t0})
	class := "Test CPU, 2 cores"
	for _, tr := range testRuns(modes[0].Args) {
		n := int64(180000)
		if tr.Name == "SET" {
			n = 5000
		}
		d.Calibrations = append(d.Calibrations, store.Calibration{HardwareClass: class, Version: cell.Version, Mode: modes[0].Name, Test: tr.Name, Status: "ok", Requests: n})
	}
	c := &collector{
		Options: Options{Config: cfg, Cells: []config.Cell{cell}, DataDir: data, WorkDir: work, Log: io.Discard},
		data:    d, machine: machine.Info{ID: "m1"}, class: class, client: client, binaries: map[string]string{},
	}
	tasks := PendingRounds([]config.Cell{cell}, modes, 1, d, "", Redo{}, func() int64 { return 77 })
	line, err := c.do(context.Background(), tasks[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, "measured again for lasting less than min_time 1.5s: SET 0.05s -> 1.80s") || strings.Contains(line, "still short") {
		t.Errorf("log line %q", line)
	}
	calls, _ := os.ReadFile(log)
	if n := strings.Count(string(calls), "-n 180000 -t set"); n != 1 {
		t.Errorf("SET ran again %d times with 180,000 requests:\n%s", n, calls)
	}
	for _, r := range d.Results {
		if r.Test == "SET" && (r.Requests == nil || *r.Requests != 180000 || r.Status != "ok") {
			t.Errorf("SET stored with %v requests, status %s", r.Requests, r.Status)
		}
	}
}
