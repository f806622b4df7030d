package bench

import (
	"context"
	"strings"
)

// needs are the tests that read what an earlier test wrote, each with that
// test: the pops with their fills (pops), GET with SET (its random keys), and
// every LRANGE read with the list set-up. A server per group of tests must
// keep each pair in one group.
var needs = func() [][2]string {
	out := [][2]string{{"SET", "GET"}}
	for _, p := range pops {
		out = append(out, [2]string{p.fill, p.take})
	}
	for _, r := range []string{"LRANGE_100 (first 100 elements)", "LRANGE_300 (first 300 elements)", "LRANGE_500 (first 500 elements)", "LRANGE_600 (first 600 elements)"} {
		out = append(out, [2]string{lrangeSetup, r})
	}
	return out
}()

// Groups splits tests, in their order, into groups of at least size tests
// that each get a fresh server (the last group may be smaller), never
// separating a test from the earlier test whose data it reads (needs): a
// group ends at the first place at or after size tests where no such pair
// spans the cut. size <= 0 keeps every test on one server.
func Groups(tests []TestRun, size int) [][]TestRun {
	if size <= 0 || len(tests) == 0 {
		return [][]TestRun{tests}
	}
	pos := map[string]int{}
	for i, t := range tests {
		pos[t.Name] = i
	}
	// canCut reports whether a group may end after tests[i].
	canCut := func(i int) bool {
		for _, n := range needs {
			f, okF := pos[n[0]]
			t, okT := pos[n[1]]
			if okF && okT && f <= i && t > i {
				return false
			}
		}
		return true
	}
	var out [][]TestRun
	start := 0
	for i := range tests {
		if i+1-start >= size && i+1 < len(tests) && canCut(i) {
			out = append(out, tests[start:i+1])
			start = i + 1
		}
	}
	return append(out, tests[start:])
}

// RunGroups runs each group of tests with RunEach on a fresh server of its
// own, in order, and joins their outcomes. A group whose server fails ends
// the run: the tests of the groups after it are marked as its failed tests
// are, with its error.
func RunGroups(ctx context.Context, s Spec, groups [][]TestRun) (Outcome, error) {
	var out Outcome
	var raw strings.Builder
	for g, tests := range groups {
		o, err := RunEach(ctx, s, tests)
		out.Results = append(out.Results, o.Results...)
		out.CPUSeconds += o.CPUSeconds
		raw.WriteString(o.Raw)
		if o.ServerPID != 0 {
			out.ServerPID = o.ServerPID
		}
		if err != nil {
			out.Raw = raw.String()
			return out, err
		}
		if o.ServerFailed != "" {
			out.ServerFailed = o.ServerFailed
			status := "crashed"
			if n := len(o.Results); n > 0 && o.Results[n-1].Status == "timeout" {
				status = "timeout"
			}
			for _, rest := range groups[g+1:] {
				out.Results = append(out.Results, markRuns(rest, status, o.ServerFailed)...)
			}
			break
		}
	}
	out.Raw = raw.String()
	return out, nil
}
