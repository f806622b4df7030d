package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// TestRun is one test of a precision run: its name and index in the client's
// order, the client arguments that send exactly its requests (a -t selector,
// or a command as the client's own test sends it), and its request count.
type TestRun struct {
	Name     string
	Index    int
	Args     []string
	Requests int64
}

// RunEach starts a fresh server, runs every test as its own client
// invocation, in order, with s.Args, -n Requests and the test's arguments, and
// stops the server. Each result carries its test's name and index whatever the
// client printed (a command test is printed as its command). A test the
// server rejects is unsupported and the next test still runs; a server that
// dies or a client that times out fails the tests left.
func RunEach(ctx context.Context, s Spec, tests []TestRun) (Outcome, error) {
	var out Outcome
	srv, failed, err := startFresh(ctx, s)
	if err != nil {
		return out, err
	}
	if failed != "" {
		out.ServerFailed = failed
		out.Results = markRuns(tests, "crashed", "server did not start: "+failed)
		return out, nil
	}
	defer srv.stop()
	out.ServerPID = srv.cmd.Process.Pid
	var raw strings.Builder
	for i, t := range tests {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		res, _, cpu := runOne(ctx, s, srv, t, t.Requests, &raw)
		out.CPUSeconds += cpu
		if res.Test == "" {
			continue // the client does not have this test: nothing measured, no row
		}
		out.Results = append(out.Results, res)
		if res.Status == "timeout" || res.Status == "crashed" {
			out.ServerFailed = res.Error
			out.Results = append(out.Results, markRuns(tests[i+1:], res.Status, res.Error)...)
			break
		}
	}
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	if out.ServerFailed == "" && !srv.alive() {
		out.ServerFailed = "server exited: " + srv.exitInfo()
	}
	out.CPUSeconds += srv.cpuSeconds()
	out.Raw = raw.String()
	return out, nil
}

// runOne runs test t once with n requests against srv, appends the invocation
// and its output to raw, and returns its result (Test "" when the client ended
// normally without a row), the row the client printed (nil if none; its Error
// set when the client printed no rate) and the client's CPU time.
func runOne(ctx context.Context, s Spec, srv *server, t TestRun, n int64, raw *strings.Builder) (Result, *Row, float64) {
	args := append(append([]string{"-h", "127.0.0.1", "-p", strconv.Itoa(srv.port)}, s.Args...), "-n", strconv.FormatInt(n, 10))
	args = append(args, t.Args...)
	run, cerr := runClient(ctx, s, args, srv.cmd.Process.Pid)
	stdout, stderr, cpu := run.stdout, run.stderr, run.cpu
	fmt.Fprintf(raw, "$ redis-benchmark %s\n%s", strings.Join(args, " "), stdout)
	if stderr != "" {
		fmt.Fprintf(raw, "[stderr]\n%s", stderr)
	}
	res := Result{Test: t.Name, Index: t.Index, Requests: n}
	if rows := ParseCSV(stdout); len(rows) > 0 {
		row := rows[0]
		res.CPU = cpuByTest(run.marks)[row.Test]
		row.Test = t.Name
		res.Status, res.Row = "ok", &row
		if row.Error != "" {
			res.Status, res.Error, res.Row, res.CPU = "failed", row.Error, nil, nil
		}
		return res, &row, cpu
	}
	switch {
	case errors.Is(cerr, context.DeadlineExceeded):
		res.Status, res.Error = "timeout", "client timed out after "+s.RunTimeout.String()
	case !srv.alive():
		res.Status, res.Error = "crashed", "server exited during "+t.Name+": "+srv.exitInfo()
	case cerr == nil:
		return Result{}, nil, cpu
	default:
		res.Status, res.Error = clientFailure(cerr, stdout, stderr)
	}
	return res, nil, cpu
}

// clientFailure says why a client invocation failed without a row:
// unsupported when the server rejected the command as unknown, else failed,
// with the server's error or the client's last line.
func clientFailure(cerr error, stdout, stderr string) (status, msg string) {
	msg = ServerError(stderr)
	if msg != "" && IsUnsupported(msg) {
		return "unsupported", msg
	}
	if msg == "" {
		msg = "client: " + oneLine(lastLine(stderr+stdout)) + " (" + cerr.Error() + ")"
	}
	return "failed", msg
}

func markRuns(ts []TestRun, status, msg string) []Result {
	var out []Result
	for _, t := range ts {
		out = append(out, Result{Test: t.Name, Index: t.Index, Status: status, Error: msg, Requests: t.Requests})
	}
	return out
}

// Took is how long the client timed a test: requests / requests per second,
// to the microsecond (0 when it printed no rate). The client divides the
// requests it finished by its whole-millisecond clock; a pipelined client
// finishes its last pipelines whole, so Took can be shorter than its clock.
func Took(requests int64, row Row) time.Duration {
	if row.Error != "" || row.RPS <= 0 {
		return 0
	}
	// Microseconds: the float division leaves a whole-millisecond time a hair short.
	return time.Duration(math.Round(float64(requests)/row.RPS*1e6)) * time.Microsecond
}
