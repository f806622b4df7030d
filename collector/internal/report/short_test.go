package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func TestShortTestsCountsPrecisionTestsUnderMinTimeAndThoseMeasuredAgain(t *testing.T) {
	result := func(mode, test string, requests int64, rps float64) store.Result {
		return store.Result{RunID: "r1", CellID: "7.4.1|gcc|-O2", Version: "7.4.1", Mode: mode, Test: test, Requests: &requests, RPS: &rps}
	}
	class := "Test CPU, 2 cores"
	calibration := func(mode, test string, requests int64) store.Calibration {
		return store.Calibration{HardwareClass: class, Version: "7.4.1", Mode: mode, Test: test, Requests: requests}
	}
	rps := 100000.0
	d := &store.Data{
		Machines: []store.Machine{{MachineID: "m1", HardwareClass: &class}},
		Runs:     []store.Run{{RunID: "r1", MachineID: "m1"}},
		Results: []store.Result{
			result("pipe-long", "SET", 150000, 100000),                      // 1.5 s: lasted it
			result("pipe-long", "GET", 150000, 125000),                      // 1.2 s: short
			result("pipe-long", "INCR", 150000, 200000),                     // 0.75 s: under two thirds
			result("pipe-long", "LPUSH", 270000, 150000),                    // 1.8 s: measured again, lasted it
			result("pipe-long", "LPOP", 270000, 200000),                     // 1.35 s: measured again, still short
			result("data-long", "SET", 200000, 100000),                      // 2 s
			{CellID: "7.4.1|gcc|-O2", Mode: "data", Test: "SET", RPS: &rps}, // a reference mode: no requests
		},
		Calibrations: []store.Calibration{
			calibration("pipe-long", "SET", 150000), calibration("pipe-long", "GET", 150000), calibration("pipe-long", "INCR", 150000),
			calibration("pipe-long", "LPUSH", 150000), calibration("pipe-long", "LPOP", 150000), calibration("data-long", "SET", 200000),
		},
	}
	var out bytes.Buffer
	ShortTests(&out, d, map[string]time.Duration{"pipe-long": 1500 * time.Millisecond, "data-long": 1500 * time.Millisecond})
	want := "precision mode data-long: 0 of 1 tests lasted less than min_time 1.5s (0 less than 1s); shortest 2.00s (7.4.1|gcc|-O2 SET); 0 measured again with a longer count, 0 of them still short\n" +
		"precision mode pipe-long: 3 of 5 tests lasted less than min_time 1.5s (1 less than 1s); shortest 0.75s (7.4.1|gcc|-O2 INCR); 2 measured again with a longer count, 1 of them still short\n"
	if out.String() != want {
		t.Errorf("ShortTests =\n%s\nwant\n%s", out.String(), want)
	}
}
