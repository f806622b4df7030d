package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/bench"
	"github.com/redis-compiler-benchmarks/collector/internal/build"
	"github.com/redis-compiler-benchmarks/collector/internal/count"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// errCalibration is a calibration whose server failed: the task's run is
// recorded as server_failed and the next task calibrates again.
var errCalibration = errors.New("calibration failed")

// precisionTests are the tests of precision task t, each with its request
// count: the class's calibration of the version and mode, made now on this
// cell's binary when there is none, so every configuration of a version runs
// a test with the same count. note says what was done.
func (c *collector) precisionTests(ctx context.Context, t Task, buildID, bin string) ([]bench.TestRun, string, error) {
	tests := testRuns(t.Mode.Args)
	counts := calibrated(c.data.Calibrations, c.class, t.Cell.Version, t.Mode.Name, tests)
	note := ""
	if counts == nil {
		// As quiet as for a run: counts calibrated on a busy machine are too small.
		note = c.settle(ctx)
		spec := c.benchSpec(t, bin)
		spec.Dir = filepath.Join(build.CellDir(c.WorkDir, t.Cell.ID()), "calibrate")
		os.RemoveAll(spec.Dir)
		started := time.Now()
		cal, err := bench.Calibrate(ctx, spec, tests, t.Mode.MinTime.Duration, t.Mode.StartRequests)
		if err != nil {
			return nil, "", err
		}
		evidence := filepath.Join(build.CellDir(c.WorkDir, t.Cell.ID()), "calibrate-"+t.Mode.Name+".txt")
		if err := os.WriteFile(evidence, []byte(cal.Raw), 0o644); err != nil {
			return nil, "", err
		}
		if cal.ServerFailed != "" {
			return nil, "", fmt.Errorf("%w: %s", errCalibration, cal.ServerFailed)
		}
		rows := calibrationRows(cal, t, c.class, buildID, c.machine.ID, started)
		c.data.Calibrations = append(c.data.Calibrations, rows...)
		counts = calibrated(rows, c.class, t.Cell.Version, t.Mode.Name, tests)
		note = withNote(note, fmt.Sprintf("calibrated %s on this configuration in %.0fs", t.Mode.Name, time.Since(started).Seconds()))
	}
	for i := range tests {
		tests[i].Requests = counts[tests[i].Name]
	}
	return tests, note, nil
}

// testRuns are the client's default tests, each with the arguments that send
// exactly its requests (count.Tests: the LRANGE set-up is a test of its own,
// the LRANGE tests send their command).
func testRuns(modeArgs []string) []bench.TestRun {
	var out []bench.TestRun
	for _, t := range count.Tests(count.DataSize(modeArgs)) {
		out = append(out, bench.TestRun{Name: t.Name, Index: t.Index, Args: t.Args})
	}
	return out
}

// calibrated is the request count per test of class's calibration of version
// and mode in cals, nil unless every test has one. A test without a count of
// its own (unsupported) runs with 1 request: it is rejected at once anyway.
func calibrated(cals []store.Calibration, class, version, mode string, tests []bench.TestRun) map[string]int64 {
	counts := map[string]int64{}
	for _, c := range cals {
		if c.HardwareClass == class && c.Version == version && c.Mode == mode {
			counts[c.Test] = max(c.Requests, 1)
		}
	}
	for _, t := range tests {
		if _, ok := counts[t.Name]; !ok {
			return nil
		}
	}
	return counts
}

// calibrationRows are the calibrations table's rows of cal, made for task t
// on build buildID, with Balance applied to the counts.
func calibrationRows(cal bench.Calibration, t Task, class, buildID, machineID string, at time.Time) []store.Calibration {
	counts := map[string]int64{}
	for _, ct := range cal.Tests {
		if ct.Status == "ok" {
			counts[ct.Name] = ct.Requests
		}
	}
	bench.Balance(counts)
	var rows []store.Calibration
	for _, ct := range cal.Tests {
		row := store.Calibration{
			HardwareClass: class, Version: t.Cell.Version, Mode: t.Mode.Name, Test: ct.Name, TestIndex: int32(ct.Index),
			Status: ct.Status, Requests: counts[ct.Name], Steps: ct.StepsText(), MinTimeSeconds: t.Mode.MinTime.Seconds(),
			CellID: t.Cell.ID(), BuildID: buildID, MachineID: machineID, CalibratedAt: at.UTC(),
		}
		if ct.Error != "" {
			e := ct.Error
			row.Error = &e
		}
		rows = append(rows, row)
	}
	return rows
}

// againText is the log line's note on the tests a precision run measured
// again for lasting less than minTime (bench.RunPrecision): each with how
// long it lasted before and after, and those still short, which the data
// marks (results.requests / results.rps under min_time); "" when none.
func againText(tests []bench.Remeasured, failed string, minTime time.Duration) string {
	if len(tests) == 0 {
		return ""
	}
	var each, short []string
	for _, t := range tests {
		switch {
		case t.After == 0:
			each = append(each, fmt.Sprintf("%s %.2fs -> no figure", t.Test, t.Before.Seconds()))
			short = append(short, t.Test)
		default:
			each = append(each, fmt.Sprintf("%s %.2fs -> %.2fs", t.Test, t.Before.Seconds(), t.After.Seconds()))
			if t.After < minTime {
				short = append(short, t.Test)
			}
		}
	}
	line := fmt.Sprintf(", measured again for lasting less than min_time %s: %s", minTime, strings.Join(each, ", "))
	if failed != "" {
		line += " (server: " + failed + ")"
	}
	if len(short) > 0 {
		line += fmt.Sprintf("; still short, stored as such: %s", strings.Join(short, ", "))
	}
	return line
}
