package bench

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/testenv"
)

// precisionTests are the default tests as the precision modes run them: each
// its own -t selector, the LRANGE set-up and reads as the client's commands.
func precisionTests() []TestRun {
	var out []TestRun
	for i, t := range DefaultTests {
		args := []string{"-t", t.Selector}
		switch {
		case t.Selector == "":
			args = []string{"LPUSH", "mylist", strings.Repeat("x", 64)}
		case strings.HasPrefix(t.Selector, "lrange_"):
			n, _ := strconv.Atoi(strings.TrimPrefix(t.Selector, "lrange_"))
			args = []string{"LRANGE", "mylist", "0", strconv.Itoa(n - 1)}
		}
		out = append(out, TestRun{Name: t.Name, Index: i, Args: args})
	}
	return out
}

// TestCalibrateThenRunEachWithRealBinaries calibrates every default test of a
// real server (RCB_TEST_SERVER) with the real client (RCB_TEST_CLIENT) to
// 100 ms, then runs each with its count: every test the server has is ok and
// lasts about that long; the others are unsupported.
func TestCalibrateThenRunEachWithRealBinaries(t *testing.T) {
	testenv.Real(t, "runs real binaries")
	server, client := testenv.Binaries(t)
	spec := Spec{Server: server, Client: client, Args: []string{"--csv", "-d", "64", "-r", "9999999999"}, Dir: t.TempDir(),
		ServerCPU: -1, ClientCPU: -1, StartTimeout: 10 * time.Second, RunTimeout: 2 * time.Minute}
	tests := precisionTests()
	minTime := 100 * time.Millisecond
	cal, err := Calibrate(context.Background(), spec, tests, minTime, 1000)
	if err != nil || cal.ServerFailed != "" || len(cal.Tests) != len(tests) {
		t.Fatalf("calibration: %v, %q, %d tests\n%s", err, cal.ServerFailed, len(cal.Tests), cal.Raw)
	}
	counts := map[string]int64{}
	for _, c := range cal.Tests {
		switch {
		case c.Status == "ok":
			if last := c.Steps[len(c.Steps)-1]; last.Took < minTime || last.Requests != c.Requests {
				t.Errorf("%s: ramp %s ends below %s", c.Name, c.StepsText(), minTime)
			}
			counts[c.Name] = c.Requests
		case c.Status == "unsupported" && (c.Name == "ZPOPMIN" || c.Name == "XADD"):
		default:
			t.Errorf("%s: %s %s", c.Name, c.Status, c.Error)
		}
	}
	Balance(counts)
	for i := range tests {
		tests[i].Requests = max(counts[tests[i].Name], 1)
	}
	out, err := RunEach(context.Background(), spec, tests)
	if err != nil || out.ServerFailed != "" || len(out.Results) != len(tests) {
		t.Fatalf("run: %v, %q, %d results\n%s", err, out.ServerFailed, len(out.Results), out.Raw)
	}
	for i, r := range out.Results {
		if r.Test != tests[i].Name || r.Index != i {
			t.Errorf("result %d is %q", i, r.Test)
		}
		if r.Status != "ok" {
			if counts[r.Test] > 0 {
				t.Errorf("%s: %s %s", r.Test, r.Status, r.Error)
			}
			continue
		}
		// The same binary as calibrated: the test lasts about min_time (half of it at least).
		if took := Took(tests[i].Requests, *r.Row); took < minTime/2 {
			t.Errorf("%s: %d requests took %s", r.Test, tests[i].Requests, took)
		}
	}
}
