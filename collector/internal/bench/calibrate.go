package bench

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// MaxRequests caps a calibrated request count.
const MaxRequests = 1_000_000_000

// NextRequests is the calibration ramp's next request count after last
// requests took took, towards goal: Go's testing.B rule (predictN): the
// count that would take goal at the last rate, plus 20%, at most 100 times
// the last, at least one more, at most MaxRequests. A test too short for the
// client's clock (took 0) counts as one nanosecond.
func NextRequests(goal time.Duration, last int64, took time.Duration) int64 {
	ns := max(took.Nanoseconds(), 1)
	// Multiply first: dividing first would round a fast test's rate to 0 or 1.
	n := goal.Nanoseconds() * last / ns
	n += n / 5
	n = min(n, 100*last)
	n = max(n, last+1)
	return min(n, MaxRequests)
}

// Step is one invocation of a calibration ramp.
type Step struct {
	Requests int64
	Took     time.Duration
}

// Calibrated is one test's calibration: the request count whose invocation
// lasted the goal (Status ok), or why there is none.
type Calibrated struct {
	Name     string
	Index    int
	Status   string // ok, unsupported, failed, crashed, timeout
	Requests int64
	Steps    []Step
	Error    string
}

// StepsText is the ramp as stored: "requests:milliseconds", comma-separated.
func (c Calibrated) StepsText() string {
	var parts []string
	for _, s := range c.Steps {
		parts = append(parts, fmt.Sprintf("%d:%g", s.Requests, float64(s.Took.Microseconds())/1000))
	}
	return strings.Join(parts, ",")
}

// Calibration is a whole calibration: every test's, the raw client output,
// and why the server failed if it did.
type Calibration struct {
	Tests        []Calibrated
	Raw          string
	ServerFailed string
}

// Calibrate starts a fresh server and, for each test in order, runs it with
// start requests, then with NextRequests more, until an invocation lasts at
// least minTime as the client times it (or reaches MaxRequests); that
// invocation's count is the test's. The requests in tests are ignored.
func Calibrate(ctx context.Context, s Spec, tests []TestRun, minTime time.Duration, start int64) (Calibration, error) {
	var out Calibration
	srv, failed, err := startFresh(ctx, s)
	if err != nil || failed != "" {
		out.ServerFailed = failed
		return out, err
	}
	defer srv.stop()
	var raw strings.Builder
	for _, t := range tests {
		c := Calibrated{Name: t.Name, Index: t.Index, Status: "ok"}
		for n := start; ; n = NextRequests(minTime, n, c.Steps[len(c.Steps)-1].Took) {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			res, row, _ := runOne(ctx, s, srv, t, n, &raw)
			if row == nil {
				c.Status, c.Error = res.Status, res.Error
				if res.Test == "" {
					c.Status, c.Error = "failed", "the client printed no result"
				}
				break
			}
			c.Steps = append(c.Steps, Step{n, Took(n, *row)})
			if c.Requests = n; c.Steps[len(c.Steps)-1].Took >= minTime || n >= MaxRequests {
				break
			}
		}
		out.Tests = append(out.Tests, c)
		if c.Status == "crashed" || c.Status == "timeout" {
			out.ServerFailed = c.Error
			break
		}
	}
	out.Raw = raw.String()
	return out, nil
}

// pops are the tests that take out what earlier tests put in, each with the
// tests that fill its structure (redis-benchmark's own keys: mylist, myset,
// myzset), paired one to one.
var pops = []struct{ fill, take string }{
	{"LPUSH", "LPOP"}, {"RPUSH", "RPOP"}, {"SADD", "SPOP"}, {"ZADD", "ZPOPMIN"},
}

// lrangeSetup is the list set-up the LRANGE tests read, and longestRange the
// most elements one of them reads.
const (
	lrangeSetup  = "LPUSH (needed to benchmark LRANGE)"
	longestRange = 600
)

// Balance raises request counts so that a test that pops never finds its
// structure empty, as in the reference protocol, where every test sends the
// same count: each filling test sends at least as many requests as the test
// that pops after it (LPUSH >= LPOP and RPUSH >= RPOP, so the list holds
// enough for both pops; SADD >= SPOP; ZADD >= ZPOPMIN), and the LRANGE
// set-up at least the longest range. A raised test only lasts longer. counts
// maps test name to requests and is changed in place.
func Balance(counts map[string]int64) {
	for _, p := range pops {
		fill, okF := counts[p.fill]
		take, okT := counts[p.take]
		if okF && okT && take > fill {
			counts[p.fill] = take
		}
	}
	if n, ok := counts[lrangeSetup]; ok && n < longestRange {
		counts[lrangeSetup] = longestRange
	}
}
