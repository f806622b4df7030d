package bench

import (
	"context"
	"strings"
	"testing"
	"time"
)

// okResult is an ok result of test that ran with requests at rps.
func okResult(test string, requests int64, rps float64) Result {
	return Result{Test: test, Status: "ok", Requests: requests, Row: &Row{Test: test, RPS: rps}}
}

func TestPlanAgainLengthensShortTestsAndSetsUpWhatTheyRead(t *testing.T) {
	tests := []TestRun{
		{Name: "SET", Requests: 150000}, {Name: "GET", Requests: 150000},
		{Name: "LPUSH", Requests: 150000}, {Name: "LPOP", Requests: 150000},
		{Name: "SADD", Requests: 150000},
		{Name: lrangeSetup, Requests: 600}, {Name: "LRANGE_100 (first 100 elements)", Requests: 20000},
	}
	results := []Result{
		okResult("SET", 150000, 100000),                         // 1.5 s: lasted it
		okResult("GET", 150000, 125000),                         // 1.2 s: short
		okResult("LPUSH", 150000, 100000),                       // 1.5 s
		okResult("LPOP", 150000, 200000),                        // 0.75 s: short
		{Test: "SADD", Status: "failed", Requests: 150000},      // no figure: nothing to lengthen
		okResult(lrangeSetup, 600, 1000),                        // 0.6 s, but no figure the site shows...
		okResult("LRANGE_100 (first 100 elements)", 20000, 1e4), // 2 s
	}
	got := PlanAgain(tests, results, 1500*time.Millisecond)
	// GET: 1.5 s at 125,000/s is 187,500, plus 20%; LPOP: 300,000 plus 20%;
	// SET and LPUSH set them up, LPUSH raised to LPOP's count; the list
	// set-up is short too and runs again alone.
	want := map[string]int64{"SET": 150000, "GET": 225000, "LPUSH": 360000, "LPOP": 360000, lrangeSetup: 1800}
	var names []string
	for _, r := range got.Tests {
		names = append(names, r.Name)
		if r.Requests != want[r.Name] {
			t.Errorf("%s: %d requests, want %d", r.Name, r.Requests, want[r.Name])
		}
	}
	if strings.Join(names, ",") != "SET,GET,LPUSH,LPOP,"+lrangeSetup {
		t.Errorf("tests run again %q", names)
	}
	if len(got.Short) != 3 || !got.Short["GET"] || !got.Short["LPOP"] || !got.Short[lrangeSetup] {
		t.Errorf("short %v", got.Short)
	}
	if again := PlanAgain(tests, results[:1], 1500*time.Millisecond); len(again.Tests) != 0 || len(again.Short) != 0 {
		t.Errorf("nothing short, got %+v", again)
	}
}

// With the fake client (100,000 requests/s) a test of 5,000 requests lasts
// 50 ms: it runs again with 180,000 (1.5 s at that rate plus 20%) after its
// fill, and its second result is the one kept.
func TestRunPrecisionMeasuresShortTestsAgainOnce(t *testing.T) {
	spec, log := fakeSpec(t)
	tests := []TestRun{
		{Name: "LPUSH", Index: 5, Args: []string{"-t", "lpush"}, Requests: 200000},
		{Name: "LPOP", Index: 7, Args: []string{"-t", "lpop"}, Requests: 5000},
	}
	out, err := RunPrecision(context.Background(), spec, tests, 0, 1500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 2 || out.Results[0].Requests != 200000 || out.Results[1].Requests != 180000 || out.Results[1].Status != "ok" {
		t.Fatalf("results %+v", out.Results)
	}
	if len(out.Remeasured) != 1 || out.Remeasured[0] != (Remeasured{"LPOP", 50 * time.Millisecond, 1800 * time.Millisecond}) {
		t.Errorf("remeasured %+v", out.Remeasured)
	}
	checkCalls(t, log, "-n 200000 -t lpush", "-n 5000 -t lpop", "-n 200000 -t lpush", "-n 180000 -t lpop")
	if !strings.Contains(out.Raw, "# measured again") {
		t.Errorf("raw output does not say what was measured again:\n%s", out.Raw)
	}
}
