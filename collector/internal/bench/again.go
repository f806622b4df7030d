package bench

import (
	"context"
	"fmt"
	"time"
)

// Again is what a precision run measures again so that each of its tests
// lasts its mode's min_time: the tests to run, in the client's order, on a
// fresh server of their own, and which of them are measured again (the
// others only set them up).
type Again struct {
	Tests []TestRun
	Short map[string]bool
}

// PlanAgain decides what a precision run measures again: every ok result
// that lasted less than minTime as the client timed it (Took) is run again
// with the count that would last minTime at its measured rate (NextRequests:
// Go's testing.B rule, 20% over), once. Before it run the tests whose data it
// reads (needs: SET before GET, a fill before its pop, the list set-up before
// an LRANGE), with their own counts raised as Balance raises them, so a pop
// never finds its structure empty. results carry the counts they ran with;
// tests gives each test's arguments and order.
func PlanAgain(tests []TestRun, results []Result, minTime time.Duration) Again {
	out := Again{Short: map[string]bool{}}
	counts := map[string]int64{}
	for _, r := range results {
		if r.Status != "ok" || r.Row == nil || r.Requests <= 0 {
			continue
		}
		if took := Took(r.Requests, *r.Row); took < minTime {
			out.Short[r.Test] = true
			counts[r.Test] = NextRequests(minTime, r.Requests, took)
		}
	}
	if len(out.Short) == 0 {
		return out
	}
	// The set-up tests, at their own count (the same for every configuration).
	for _, n := range needs {
		if out.Short[n[1]] && !out.Short[n[0]] {
			for _, t := range tests {
				if t.Name == n[0] {
					counts[t.Name] = t.Requests
				}
			}
		}
	}
	Balance(counts)
	for _, t := range tests {
		if n, ok := counts[t.Name]; ok {
			t.Requests = n
			out.Tests = append(out.Tests, t)
		}
	}
	return out
}

// Remeasured is one test a precision run measured again: how long it lasted
// the first time and the second (0 when the second run gave no figure, and
// the first result stays).
type Remeasured struct {
	Test          string
	Before, After time.Duration
}

// RunPrecision runs a precision mode's tests: in groups of perServer or more
// to a fresh server (RunGroups), then the tests that lasted less than minTime
// once more with longer counts on a fresh server (PlanAgain); a test's second
// result replaces its first when it is ok. Outcome.Remeasured lists them,
// and the raw output holds both invocations. minTime 0 measures nothing
// again.
func RunPrecision(ctx context.Context, s Spec, tests []TestRun, perServer int, minTime time.Duration) (Outcome, error) {
	out, err := RunGroups(ctx, s, Groups(tests, perServer))
	if err != nil || out.ServerFailed != "" || minTime <= 0 {
		return out, err
	}
	again := PlanAgain(tests, out.Results, minTime)
	if len(again.Short) == 0 {
		return out, nil
	}
	o, err := RunEach(ctx, s, again.Tests)
	out.CPUSeconds += o.CPUSeconds
	out.Raw += fmt.Sprintf("# measured again (shorter than min_time %s), on a fresh server:\n%s", minTime, o.Raw)
	if err != nil {
		return out, err
	}
	second := map[string]Result{}
	for _, r := range o.Results {
		if again.Short[r.Test] && r.Status == "ok" && r.Row != nil {
			second[r.Test] = r
		}
	}
	for i, r := range out.Results {
		if !again.Short[r.Test] {
			continue
		}
		m := Remeasured{Test: r.Test, Before: Took(r.Requests, *r.Row)}
		if next, ok := second[r.Test]; ok {
			m.After = Took(next.Requests, *next.Row)
			out.Results[i] = next
		}
		out.Remeasured = append(out.Remeasured, m)
	}
	if o.ServerFailed != "" {
		out.AgainFailed = o.ServerFailed
	}
	return out, nil
}
