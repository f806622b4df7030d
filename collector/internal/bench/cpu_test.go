package bench

import (
	"math"
	"testing"
	"time"
)

func TestCPUByTestSplitsAnInvocationAtEachRow(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int, user, sys, on int64) sample {
		return sample{at: t0.Add(time.Duration(ms) * time.Millisecond), user: user * 1e6, sys: sys * 1e6, onCPU: on * 1e6}
	}
	marks := []mark{
		{test: "", server: at(0, 0, 0, 0), client: at(0, 0, 0, 0)},
		{test: "SET", server: at(1000, 200, 600, 850), client: at(1000, 300, 400, 700)},
		{test: "GET", server: at(3000, 700, 1700, 2450), client: at(3000, 800, 1000, 1700)},
		{test: "INCR", server: at(4000, 900, 2000, 2950)}, // the client's counters were not read
	}
	got := cpuByTest(marks)
	if len(got) != 2 || got["INCR"] != nil {
		t.Fatalf("got %d tests (INCR %v), want SET and GET", len(got), got["INCR"])
	}
	near := func(name string, got, want float64) {
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	set, get := got["SET"], got["GET"]
	near("SET server user", set.Server.User, 0.2)
	near("SET server sys", set.Server.Sys, 0.6)
	near("SET server busy", set.Server.Busy, 0.85)
	near("SET client busy", set.Client.Busy, 0.7)
	near("GET server user", get.Server.User, 0.5)
	near("GET server sys", get.Server.Sys, 1.1)
	near("GET server busy", get.Server.Busy, 0.8)
	near("GET client user", get.Client.User, 0.5)
	near("GET client busy", get.Client.Busy, 0.5)
}

func TestRowWatcherMarksEachRowAsItsLineEnds(t *testing.T) {
	var seen []string
	w := &rowWatcher{onRow: func(test string) { seen = append(seen, test) }}
	w.Write([]byte("\"test\",\"rps\"\n\"SET\",\"100.0"))
	if len(seen) != 0 {
		t.Fatalf("marked %v before the row's line ended", seen)
	}
	w.Write([]byte("0\"\n\"GET\",\"200.00\"\r\n"))
	if len(seen) != 2 || seen[0] != "SET" || seen[1] != "GET" {
		t.Errorf("marked %v, want SET then GET", seen)
	}
	if w.buf.String() != "\"test\",\"rps\"\n\"SET\",\"100.00\"\n\"GET\",\"200.00\"\r\n" {
		t.Errorf("kept %q", w.buf.String())
	}
}
