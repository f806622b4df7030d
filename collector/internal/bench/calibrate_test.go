package bench

import (
	"context"
	"reflect"
	"testing"
	"time"
)

func TestNextRequestsIsGosRamp(t *testing.T) {
	for _, c := range []struct {
		last int64
		took time.Duration
		want int64
	}{
		{1000, 10 * time.Millisecond, 100000},       // 180,000 predicted, at most 100x the last
		{100000, time.Second, 180000},               // 1.5 s at the last rate, plus 20%
		{1000, 0, 100000},                           // too short for the client's clock: grow 100x
		{1000, time.Hour, 1001},                     // at least one more
		{900_000_000, time.Millisecond, 1000000000}, // at most MaxRequests
	} {
		if got := NextRequests(1500*time.Millisecond, c.last, c.took); got != c.want {
			t.Errorf("NextRequests(1.5s, %d, %s) = %d, want %d", c.last, c.took, got, c.want)
		}
	}
}

// At 100,000 requests/s the ramp from 1000 requests goes 1000 (10 ms), 100000
// (1 s), 180000 (1.8 s >= 1.5 s); from 10 it first sees an unmeasurable 0 ms.
func TestCalibrateRampsEachTestUntilItLastsMinTime(t *testing.T) {
	spec, _ := fakeSpec(t)
	tests := []TestRun{
		{Name: "SET", Index: 2, Args: []string{"-t", "set"}},
		{Name: "ZPOPMIN", Index: 13, Args: []string{"-t", "zpopmin"}},
	}
	out, err := Calibrate(context.Background(), spec, tests, 1500*time.Millisecond, 1000)
	if err != nil || out.ServerFailed != "" || len(out.Tests) != 2 {
		t.Fatalf("err %v, outcome %+v", err, out)
	}
	set := out.Tests[0]
	want := []Step{{1000, 10 * time.Millisecond}, {100000, time.Second}, {180000, 1800 * time.Millisecond}}
	if set.Status != "ok" || set.Requests != 180000 || !reflect.DeepEqual(set.Steps, want) {
		t.Errorf("SET = %+v", set)
	}
	if got := set.StepsText(); got != "1000:10,100000:1000,180000:1800" {
		t.Errorf("steps text %q", got)
	}
	if z := out.Tests[1]; z.Status != "unsupported" || z.Requests != 0 {
		t.Errorf("ZPOPMIN = %+v", z)
	}
	out, err = Calibrate(context.Background(), spec, tests[:1], 1500*time.Millisecond, 10)
	if err != nil || out.Tests[0].Steps[0] != (Step{10, 0}) || out.Tests[0].Steps[1].Requests != 1000 || out.Tests[0].Requests != 180000 {
		t.Errorf("from 10: %+v (%v)", out.Tests, err)
	}
}

func TestBalanceKeepsPopsFromEmptyStructures(t *testing.T) {
	counts := map[string]int64{
		"LPUSH": 100, "RPUSH": 300, "LPOP": 200, "RPOP": 250, "SADD": 500, "SPOP": 400,
		"ZADD": 10, "ZPOPMIN": 20, "LPUSH (needed to benchmark LRANGE)": 50, "SET": 7,
	}
	Balance(counts)
	want := map[string]int64{
		"LPUSH": 200, "RPUSH": 300, "LPOP": 200, "RPOP": 250, "SADD": 500, "SPOP": 400,
		"ZADD": 20, "ZPOPMIN": 20, "LPUSH (needed to benchmark LRANGE)": 600, "SET": 7,
	}
	if !reflect.DeepEqual(counts, want) {
		t.Errorf("balanced %v, want %v", counts, want)
	}
}

// 1000 requests at 83,333.33/s are 12 ms on the client's clock, not 11.999.
func TestTookIsTheClientsTimeToTheMicrosecond(t *testing.T) {
	if got := Took(1000, Row{RPS: 83333.33}); got != 12*time.Millisecond {
		t.Errorf("Took = %s, want 12ms", got)
	}
	if got := Took(1000, Row{Error: "client printed rps \"inf\""}); got != 0 {
		t.Errorf("Took of an unmeasured test = %s", got)
	}
}
