// Package count measures what a Redis build costs per request, deterministically:
// it runs redis-server under Valgrind's callgrind and, for each benchmark test,
// counts the instructions (and simulated cache and branch events) the server
// executes for that test's requests, divided by the requests it processed.
//
// What makes the count repeat (docs/method.md says why each is needed): one
// client connection (-c 1), so the server's event loop takes the same steps
// every time; the client's keys seeded; a frozen clock (preload/freezeclock.c), so no
// time-driven work (serverCron, jemalloc's purging) runs between requests, and
// fixed randomness (process id, /dev/urandom), so hash seeds repeat;
// each window opened and closed with no client connection left to close;
// ASLR off; symbols bound at start; a warm-up before the first counted test;
// and a fixed simulated cache geometry, so the count does not depend on the
// machine's CPU. What it does depend on, the CPU Valgrind presents to the
// server, by which glibc picks its routines, is recorded (ProbeGuestCPU).
package count

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/bench"
)

// Excluded is the server's timer callback, whose work depends on wall time,
// not on requests. The frozen clock keeps it from running while tests are
// counted; a test window that holds a call of it fails. It is called through
// a function pointer, so no build inlines it.
const Excluded = "serverCron"

// Spec describes one counting run: one server under Valgrind, every test once.
type Spec struct {
	Valgrind string   // valgrind binary
	ToolArgs []string // valgrind options (tool, cache geometry); the output file is added
	Server   string   // redis-server binary
	Client   string   // redis-benchmark binary
	// ClientArgs are the mode's client arguments (request count, -c, -d, -r,
	// --seed, -P); each test adds its own.
	ClientArgs []string
	// Settings are applied with CONFIG SET after start, e.g. "hz 1"; a server
	// that lacks one says so, and the reply is recorded, not fatal.
	Settings []string
	Env      []string // added to the server's environment
	// Preload, when set, is the first line of the run's raw output: which
	// build of the preload the server ran with (PreloadLine).
	Preload string
	Dir     string // scratch directory (config, log, callgrind output)
	// ServerCPU and ClientCPU pin the processes (-1: not pinned).
	ServerCPU, ClientCPU int
	StartTimeout         time.Duration
	TestTimeout          time.Duration
	// Warmup are client arguments of an uncounted run before the first test.
	Warmup  []string
	control string // the run's control file (preload/freezeclock.c)
	// KeepDumps, when set, is a directory where each test's callgrind dump
	// is kept (as test-<index>.callgrind, for callgrind_annotate) instead of
	// removed.
	KeepDumps string
}

// Result is one counted test.
type Result struct {
	Test     string
	Index    int
	Status   string // ok, unsupported, failed, crashed, timeout
	Requests int64  // commands the server processed in the window
	Counts   Events // callgrind's counts in the window
	Error    string
}

// Outcome is a whole counting run.
type Outcome struct {
	Results []Result
	// Raw is the evidence: the Valgrind command, each CONFIG SET reply, each
	// client invocation with its output, and each dump's totals line.
	Raw string
	// ServerFailed is set when the server did not start, crashed or hung.
	ServerFailed string
}

// Command is the full command line that runs the server under Valgrind.
func (s Spec) Command() []string {
	return append(append([]string{"setarch", "-R", s.Valgrind}, s.ToolArgs...),
		"--callgrind-out-file="+filepath.Join(s.Dir, "callgrind.out"))
}

// Run starts the server under Valgrind, warms it up, counts every test in
// order, and stops it. A test the server rejects is unsupported; a server
// that dies fails the rest of the run, and nothing is ever counted as zero.
func Run(ctx context.Context, s Spec, tests []Test) (Outcome, error) {
	var out Outcome
	var raw strings.Builder
	os.RemoveAll(s.Dir)
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return out, err
	}
	run, err := newRunDir(s)
	if err != nil {
		return out, err
	}
	defer run.close(s.Dir)
	s.Server, s.Env, s.Dir, s.control = run.server, run.env, run.dir, run.control
	spec := bench.Spec{
		Server: s.Server, Dir: s.Dir, ServerCPU: s.ServerCPU, StartTimeout: s.StartTimeout,
		Wrap: s.Command(), Env: s.Env, OnlyEnv: true,
	}
	if s.Preload != "" {
		fmt.Fprintf(&raw, "%s\n", s.Preload)
	}
	fmt.Fprintf(&raw, "$ %s %s %s <config>\n", strings.Join(s.Env, " "), strings.Join(s.Command(), " "), s.Server)
	srv, err := bench.StartServer(ctx, spec)
	if err != nil {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		out.ServerFailed = oneLine(err.Error())
		out.Results = failAll(tests, "crashed", "server did not start under valgrind: "+out.ServerFailed)
		out.Raw = raw.String()
		return out, nil
	}
	defer func() {
		// SHUTDOWN, not SIGTERM: the server acts on SIGTERM in serverCron,
		// which the frozen clock never runs.
		command(srv.Port(), "SHUTDOWN", "NOSAVE")
		srv.Stop()
	}()
	lacks, err := s.prepare(ctx, srv, tests, &raw)
	if err != nil {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		out.ServerFailed = "before the first test: " + oneLine(err.Error())
	}
	if len(s.Warmup) > 0 && out.ServerFailed == "" {
		o, e, err := s.client(ctx, srv.Port(), s.Warmup)
		fmt.Fprintf(&raw, "$ redis-benchmark %s (warm-up, not counted)\n%s%s", strings.Join(s.Warmup, " "), o, e)
		if err != nil && ctx.Err() == nil {
			out.ServerFailed = "warm-up failed: " + oneLine(e+" "+err.Error())
		}
	}
	for i, t := range tests {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		if out.ServerFailed != "" || !srv.Alive() {
			if out.ServerFailed == "" {
				out.ServerFailed = "server exited before " + t.Name + ": " + srv.ExitInfo()
			}
			out.Results = append(out.Results, failAll(tests[i:], "crashed", out.ServerFailed)...)
			break
		}
		if msg, ok := lacks[t.Command]; ok {
			out.Results = append(out.Results, Result{Test: t.Name, Index: t.Index, Status: "unsupported", Error: msg})
			continue
		}
		res := s.countTest(ctx, srv, t, i, &raw)
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		if res.Status == "" {
			continue
		}
		if res.Status == "crashed" || res.Status == "timeout" {
			out.ServerFailed = res.Error
		}
		out.Results = append(out.Results, res)
	}
	out.Raw = raw.String()
	return out, nil
}

// prepare applies the settings (CONFIG SET; a server that lacks one says so,
// which is recorded) and asks the server which of the tests' commands it
// lacks, all on one connection, then waits until the server has closed it and
// sleeps. Each command is asked about by sending it with no arguments: a
// server that has it answers that the arguments are wrong (PING answers PONG)
// and runs nothing; one that lacks it answers that it does not know it. The
// tests whose command the server lacks (lacks: command -> the server's reply)
// are not sent: the client stops at the first error reply while the server
// is still answering the rest of its pipeline, so how much of it the server
// handled, and what its allocator holds afterwards, would depend on timing
// and change what the later tests cost.
func (s Spec) prepare(ctx context.Context, srv *bench.Server, tests []Test, raw *strings.Builder) (map[string]string, error) {
	c, err := dialSettled(ctx, srv.Port(), srv.PID())
	if err != nil {
		return nil, err
	}
	lacks, err := ask(c, s.Settings, tests, raw)
	c.Close()
	if err != nil {
		return nil, err
	}
	return lacks, settle(ctx, srv.PID())
}

// ask is prepare's conversation on connection c.
func ask(c *conn, settings []string, tests []Test, raw *strings.Builder) (map[string]string, error) {
	var reply *ErrorReply
	for _, set := range settings {
		got, err := c.do(append([]string{"CONFIG", "SET"}, strings.Fields(set)...)...)
		if errors.As(err, &reply) {
			got = "error: " + reply.Msg
		} else if err != nil {
			return nil, fmt.Errorf("CONFIG SET %s: %w", set, err)
		}
		fmt.Fprintf(raw, "CONFIG SET %s -> %s\n", set, got)
	}
	lacks := map[string]string{}
	asked := map[string]bool{}
	for _, t := range tests {
		if asked[t.Command] || t.Command == "" {
			continue
		}
		asked[t.Command] = true
		got, err := c.do(t.Command)
		switch {
		case errors.As(err, &reply) && strings.Contains(strings.ToLower(reply.Msg), "unknown command"):
			lacks[t.Command] = reply.Msg
			fmt.Fprintf(raw, "%s -> %s: its tests are not sent\n", t.Command, reply.Msg)
			continue
		case errors.As(err, &reply):
			got = "error: " + reply.Msg
		case err != nil:
			return nil, fmt.Errorf("asking about %s: %w", t.Command, err)
		}
		fmt.Fprintf(raw, "%s -> %s\n", t.Command, got)
	}
	return lacks, nil
}

// countTest counts one test: commands processed before, zero the counters,
// run the client, dump, commands processed after.
func (s Spec) countTest(ctx context.Context, srv *bench.Server, t Test, i int, raw *strings.Builder) Result {
	res := Result{Test: t.Name, Index: t.Index}
	defer s.removeDumps(i)
	fail := func(status, msg string) Result {
		res.Status, res.Error = status, msg
		if !srv.Alive() {
			res.Status, res.Error = "crashed", "server exited during "+t.Name+": "+srv.ExitInfo()
		}
		fmt.Fprintf(raw, "%s: %s\n", t.Name, res.Error)
		return res
	}
	before, err := commandsBeforeWindow(ctx, srv.Port(), srv.PID())
	if err != nil {
		return fail("failed", err.Error())
	}
	if err := s.window(ctx, srv.PID(), ""); err != nil {
		return fail("failed", err.Error())
	}
	args := append(append([]string(nil), s.ClientArgs...), t.Args...)
	o, e, cerr := s.client(ctx, srv.Port(), args)
	fmt.Fprintf(raw, "$ redis-benchmark %s\n%s", strings.Join(args, " "), o)
	if e != "" {
		fmt.Fprintf(raw, "[stderr]\n%s", e)
	}
	hint := "test-" + strconv.Itoa(i)
	if err := settle(ctx, srv.PID()); err != nil && cerr == nil {
		return fail("failed", err.Error())
	}
	if derr := s.window(ctx, srv.PID(), hint); derr != nil {
		return fail("failed", derr.Error())
	}
	switch {
	case errors.Is(cerr, context.DeadlineExceeded):
		return fail("timeout", "client timed out after "+s.TestTimeout.String())
	case cerr != nil:
		msg := bench.ServerError(e)
		if msg != "" && bench.IsUnsupported(msg) {
			return fail("unsupported", msg)
		}
		if msg == "" {
			msg = "client: " + oneLine(e+" "+o) + " (" + cerr.Error() + ")"
		}
		return fail("failed", msg)
	}
	c, err := dialSettled(ctx, srv.Port(), srv.PID())
	if err != nil {
		return fail("failed", err.Error())
	}
	after, err := commandsProcessed(c)
	if err != nil {
		return fail("failed", err.Error())
	}
	d, err := s.readDump(hint)
	if err != nil {
		return fail("failed", err.Error())
	}
	res.Requests = after - before - 1
	if want := Requests(s.ClientArgs); res.Requests < want {
		if strings.TrimSpace(o) == "" {
			// The client ended normally without running the test: it does
			// not have it (XADD is a default test only from 7.2 on). Nothing
			// was counted and nothing failed: no row, as in throughput runs.
			fmt.Fprintf(raw, "%s: the client does not run this test\n", t.Name)
			res.Status = ""
			return res
		}
		return fail("failed", fmt.Sprintf("the server processed %d commands in the window, fewer than the %d requests asked for", res.Requests, want))
	}
	if d.ExcludedCalls > 0 || d.Excluded["Ir"] > 0 {
		// The frozen clock keeps every timer from firing; a call here means
		// the clock was not frozen, and the count would not repeat.
		return fail("failed", fmt.Sprintf("%s ran %d times during the test: is the clock frozen (LD_PRELOAD)?", Excluded, d.ExcludedCalls))
	}
	res.Status, res.Counts = "ok", d.Totals
	fmt.Fprintf(raw, "%s: %d requests; %s\n", t.Name, res.Requests, d.TotalsLine)
	return res
}

// commandsBeforeWindow reads the server's total_commands_processed for the
// window about to open, on a connection opened once the server has closed
// every earlier one (dialSettled: the warm-up's client, the last test's
// INFO), and returns once the server has closed this one too and sleeps: the
// window opens and closes with no connection but the listening ones, or a
// connection's close would fall inside or outside it by chance.
func commandsBeforeWindow(ctx context.Context, port, pid int) (int64, error) {
	c, err := dialSettled(ctx, port, pid)
	if err != nil {
		return 0, err
	}
	n, err := commandsProcessed(c)
	if err != nil {
		return 0, err
	}
	return n, settle(ctx, pid)
}

// client runs redis-benchmark against the server, pinned, within TestTimeout.
func (s Spec) client(ctx context.Context, port int, args []string) (string, string, error) {
	ctx, cancel := context.WithTimeout(ctx, s.TestTimeout)
	defer cancel()
	full := append([]string{"-h", "127.0.0.1", "-p", strconv.Itoa(port)}, args...)
	name := s.Client
	if s.ClientCPU >= 0 {
		name, full = "taskset", append([]string{"-c", strconv.Itoa(s.ClientCPU), s.Client}, full...)
	}
	cmd := exec.CommandContext(ctx, name, full...)
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		err = context.DeadlineExceeded
	}
	return o.String(), e.String(), err
}

// The signals that open and close a counting window (preload/freezeclock.c):
// the preload's handler zeroes callgrind's counters or dumps them.
const (
	zeroSignal = syscall.Signal(40)
	dumpSignal = syscall.Signal(41)
)

// window has the server (pid, asleep in epoll_wait) zero its counters
// (hint "") or dump them with hint, and waits until the preload's handler
// has done it: the acknowledgement counter in the control file goes up.
func (s Spec) window(ctx context.Context, pid int, hint string) error {
	f, err := os.OpenFile(s.control, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("counting window: %w", err)
	}
	defer f.Close()
	acks := func() (uint64, error) {
		var b [8]byte
		if _, err := f.ReadAt(b[:], 0); err != nil {
			return 0, err
		}
		return binary.LittleEndian.Uint64(b[:]), nil
	}
	before, err := acks()
	if err != nil {
		return fmt.Errorf("counting window: %w", err)
	}
	sig, what := zeroSignal, "zero"
	if hint != "" {
		sig, what = dumpSignal, "dump "+hint
		if len(hint) >= controlSize-8 {
			return fmt.Errorf("dump hint %q too long", hint)
		}
		b := make([]byte, controlSize-8)
		copy(b, hint)
		if _, err := f.WriteAt(b, 8); err != nil {
			return fmt.Errorf("counting window: %w", err)
		}
	}
	// The main thread, which waits in epoll_wait: a signal to the process
	// could go to another of its threads (Redis 6.0+ has several).
	if err := syscall.Tgkill(pid, pid, sig); err != nil {
		return fmt.Errorf("%s: signal the server: %w", what, err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		n, err := acks()
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if n > before {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: the server did not acknowledge within 2 minutes (is freezeclock.so preloaded?)", what)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
}

// readDump reads the dump that carries hint as its trigger (the preload
// dumps through a client request).
func (s Spec) readDump(hint string) (Dump, error) {
	files, _ := filepath.Glob(filepath.Join(s.Dir, "callgrind.out.*"))
	sort.Slice(files, func(i, j int) bool { return partNumber(files[i]) > partNumber(files[j]) })
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return Dump{}, err
		}
		d, err := ParseDump(fh, Excluded)
		fh.Close()
		if err == nil && d.Trigger == "Client Request: "+hint {
			return d, nil
		}
	}
	return Dump{}, fmt.Errorf("no callgrind dump for %s in %s", hint, s.Dir)
}

// removeDumps removes the per-test dumps (their totals are in the evidence),
// or moves test i's to s.KeepDumps.
func (s Spec) removeDumps(i int) {
	files, _ := filepath.Glob(filepath.Join(s.Dir, "callgrind.out.*"))
	for _, f := range files {
		if s.KeepDumps != "" {
			keep := filepath.Join(s.KeepDumps, fmt.Sprintf("test-%02d.callgrind", i))
			if os.MkdirAll(s.KeepDumps, 0o755) == nil && (os.Rename(f, keep) == nil || copyFile(f, keep, 0o644) == nil) {
				os.Remove(f)
				continue
			}
		}
		os.Remove(f)
	}
}

func partNumber(path string) int {
	n, _ := strconv.Atoi(path[strings.LastIndexByte(path, '.')+1:])
	return n
}

func failAll(tests []Test, status, msg string) []Result {
	var out []Result
	for _, t := range tests {
		out = append(out, Result{Test: t.Name, Index: t.Index, Status: status, Error: msg})
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ValgrindVersion is `valgrind --version`, e.g. "valgrind-3.19.0".
func ValgrindVersion(ctx context.Context, valgrind string) string {
	out, err := exec.CommandContext(ctx, valgrind, "--version").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
