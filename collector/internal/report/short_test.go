package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func TestShortTestsCountsPrecisionTestsUnderMinTime(t *testing.T) {
	result := func(mode, test string, requests int64, rps float64) store.Result {
		return store.Result{CellID: "7.4.1|gcc|-O2", Mode: mode, Test: test, Requests: &requests, RPS: &rps}
	}
	rps := 100000.0
	d := &store.Data{Results: []store.Result{
		result("pipe-long", "SET", 150000, 100000),                      // 1.5 s: lasted it
		result("pipe-long", "GET", 150000, 125000),                      // 1.2 s: short
		result("pipe-long", "INCR", 150000, 200000),                     // 0.75 s: under two thirds
		result("data-long", "SET", 200000, 100000),                      // 2 s
		{CellID: "7.4.1|gcc|-O2", Mode: "data", Test: "SET", RPS: &rps}, // a reference mode: no requests
	}}
	var out bytes.Buffer
	ShortTests(&out, d, map[string]time.Duration{"pipe-long": 1500 * time.Millisecond, "data-long": 1500 * time.Millisecond})
	want := "precision mode data-long: 0 of 1 tests lasted less than min_time 1.5s (0 less than 1s); shortest 2.00s (7.4.1|gcc|-O2 SET)\n" +
		"precision mode pipe-long: 2 of 3 tests lasted less than min_time 1.5s (1 less than 1s); shortest 0.75s (7.4.1|gcc|-O2 INCR)\n"
	if out.String() != want {
		t.Errorf("ShortTests =\n%s\nwant\n%s", out.String(), want)
	}
}
