package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Spec describes one benchmark run: one fresh server, one mode.
type Spec struct {
	Server       string   // redis-server binary
	Client       string   // redis-benchmark binary
	Args         []string // the mode's client arguments
	Dir          string   // scratch directory for the server (config, log)
	ServerCPU    int      // -1: not pinned
	ClientCPU    int
	StartTimeout time.Duration
	RunTimeout   time.Duration
	// Wrap, when set, is a command that runs the server (e.g. valgrind and its
	// options): the server binary and its config file follow it.
	Wrap []string
	// Env is added to the server's environment.
	Env []string
	// OnlyEnv: the server's environment is Env alone, not the collector's
	// plus Env (a counted server must see the same bytes on every machine).
	OnlyEnv bool
}

// Result is the outcome of one test in a run.
type Result struct {
	Test   string
	Index  int
	Status string // ok, unsupported, failed, crashed, timeout
	Row    *Row
	Error  string
	// Requests is the -n the test ran with (a precision mode's; 0 in a
	// reference run, whose count is in its mode's arguments).
	Requests int64
	// CPU is where the server's and the client's time went during the test;
	// nil when the client printed no row or /proc could not be read.
	CPU *TestCPU
}

// Outcome is a whole run: per-test results, the raw client output of every
// invocation, and the server's pid (for load accounting).
type Outcome struct {
	Results   []Result
	Raw       string
	ServerPID int
	// CPUSeconds is the CPU time used by the server and the client invocations.
	CPUSeconds float64
	// ServerFailed is set when the server did not start, crashed or hung.
	ServerFailed string
	// Remeasured are the precision tests measured again for lasting less
	// than min_time (RunPrecision), and AgainFailed why the server of that
	// second run failed ("" when it did not).
	Remeasured  []Remeasured
	AgainFailed string
}

// Run starts a fresh server, runs every default test once in the client's
// order, and stops the server. redis-benchmark exits at the first command a
// server rejects, so after such an exit the remaining tests are run again with
// -t against the same server: one unsupported test does not lose the others.
func Run(ctx context.Context, s Spec) (Outcome, error) {
	var out Outcome
	srv, failed, err := startFresh(ctx, s)
	if err != nil {
		return out, err
	}
	if failed != "" {
		out.ServerFailed = failed
		out.Results = markAll(DefaultTests, "crashed", "server did not start: "+failed)
		return out, nil
	}
	defer srv.stop()
	out.ServerPID = srv.cmd.Process.Pid
	var raw strings.Builder
	remaining := append([]Test(nil), DefaultTests...)
	seen := map[string]bool{}
	first := true
	for len(remaining) > 0 && ctx.Err() == nil {
		args := append([]string{"-h", "127.0.0.1", "-p", strconv.Itoa(srv.port)}, s.Args...)
		if !first {
			sel := selectors(remaining)
			if sel == "" {
				break
			}
			args = append(args, "-t", sel)
		}
		first = false
		run, cerr := runClient(ctx, s, args, srv.cmd.Process.Pid)
		stdout, stderr := run.stdout, run.stderr
		out.CPUSeconds += run.cpu
		cpu := cpuByTest(run.marks)
		fmt.Fprintf(&raw, "$ redis-benchmark %s\n%s", strings.Join(args, " "), stdout)
		if stderr != "" {
			fmt.Fprintf(&raw, "[stderr]\n%s", stderr)
		}
		for _, r := range ParseCSV(stdout) {
			if seen[r.Test] {
				continue
			}
			seen[r.Test] = true
			r := r
			res := Result{Test: r.Test, Index: TestIndex(r.Test), Status: "ok", Row: &r, CPU: cpu[r.Test]}
			if r.Error != "" {
				res.Status, res.Error, res.Row = "failed", r.Error, nil
			}
			out.Results = append(out.Results, res)
		}
		remaining = unseen(remaining, seen)
		if len(remaining) == 0 {
			break
		}
		next := remaining[0]
		switch {
		case errors.Is(cerr, context.DeadlineExceeded):
			out.ServerFailed = "client timed out after " + s.RunTimeout.String()
			out.Results = append(out.Results, markAll(remaining, "timeout", out.ServerFailed)...)
			remaining = nil
		case !srv.alive():
			out.ServerFailed = "server exited during " + next.Name + ": " + srv.exitInfo()
			out.Results = append(out.Results, markAll(remaining, "crashed", out.ServerFailed)...)
			remaining = nil
		case cerr == nil:
			// The client ended normally without these tests: it does not have
			// them (XADD is a default test only from 7.2 on). Nothing was
			// measured, and nothing failed: no rows.
			remaining = nil
		default:
			status, msg := clientFailure(cerr, stdout, stderr)
			out.Results = append(out.Results, Result{Test: next.Name, Index: TestIndex(next.Name), Status: status, Error: msg})
			seen[next.Name] = true
			remaining = remaining[1:]
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

func unseen(ts []Test, seen map[string]bool) []Test {
	var out []Test
	for _, t := range ts {
		if !seen[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

func markAll(ts []Test, status, msg string) []Result {
	var runs []TestRun
	for _, t := range ts {
		runs = append(runs, TestRun{Name: t.Name, Index: TestIndex(t.Name)})
	}
	return markRuns(runs, status, msg)
}

// startFresh starts s's server. failed says why it did not start ("" when it
// did); an interruption while it started is err instead: nothing was
// measured, and the server did not fail.
func startFresh(ctx context.Context, s Spec) (srv *server, failed string, err error) {
	srv, err = startServer(ctx, s)
	switch {
	case err == nil:
		return srv, "", nil
	case ctx.Err() != nil:
		return nil, "", ctx.Err()
	}
	return nil, oneLine(err.Error()), nil
}

// clientRun is one client invocation: its output, its CPU time, and the
// marks taken at its start and at each row it printed (cpu.go).
type clientRun struct {
	stdout, stderr string
	cpu            float64
	marks          []mark
}

// runClient runs the client with args, line-buffered, and samples the
// server's (serverPID) and the client's CPU counters at its start and at each
// row it prints.
func runClient(ctx context.Context, s Spec, args []string, serverPID int) (clientRun, error) {
	ctx, cancel := context.WithTimeout(ctx, s.RunTimeout)
	defer cancel()
	bin, largs := lineBuffered(s.Client, args)
	name, full := pinned(s.ClientCPU, bin, largs)
	cmd := exec.CommandContext(ctx, name, full...)
	var run clientRun
	var e bytes.Buffer
	var rows []mark // appended in exec's copying goroutine, started after cmd.Process is set; read after Wait
	o := &rowWatcher{onRow: func(test string) { rows = append(rows, takeMark(test, serverPID, cmd.Process.Pid)) }}
	cmd.Stdout, cmd.Stderr = o, &e
	err := cmd.Start()
	if err == nil {
		start := takeMark("", serverPID, cmd.Process.Pid)
		err = cmd.Wait()
		run.marks = append([]mark{start}, rows...)
	}
	if ctx.Err() == context.DeadlineExceeded {
		err = context.DeadlineExceeded
	}
	if cmd.ProcessState != nil {
		run.cpu = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
		exited(run.marks, cmd.ProcessState)
	}
	run.stdout, run.stderr = o.buf.String(), e.String()
	return run, err
}

// cpuSeconds is the server's CPU time so far, from /proc (0 once it exited).
func (s *server) cpuSeconds() float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	str := string(b)
	f := strings.Fields(str[strings.LastIndexByte(str, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return float64(ut+st) / 100 // USER_HZ
}

// pinned wraps a command in taskset when cpu >= 0.
func pinned(cpu int, bin string, args []string) (string, []string) {
	if cpu < 0 {
		return bin, args
	}
	return "taskset", append([]string{"-c", strconv.Itoa(cpu), bin}, args...)
}

type server struct {
	cmd  *exec.Cmd
	port int
	done chan struct{}
	err  error
	log  string
}

// startServer runs redis-server on 127.0.0.1 and a free port with persistence
// off, and waits until it answers PING.
func startServer(ctx context.Context, s Spec) (*server, error) {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(s.Dir, "server.log")
	conf := fmt.Sprintf("port %d\nbind 127.0.0.1\ndaemonize no\nsave \"\"\nappendonly no\ndir %s\nlogfile %s\n", port, s.Dir, logPath)
	confPath := filepath.Join(s.Dir, "redis.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	bin, args := s.Server, []string{confPath}
	if len(s.Wrap) > 0 {
		bin, args = s.Wrap[0], append(append(append([]string(nil), s.Wrap[1:]...), s.Server), confPath)
	}
	name, args := pinned(s.ServerCPU, bin, args)
	cmd := exec.Command(name, args...)
	cmd.Dir = s.Dir
	switch {
	case s.OnlyEnv:
		cmd.Env = append([]string{}, s.Env...)
	case len(s.Env) > 0:
		cmd.Env = append(os.Environ(), s.Env...)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start server: %w", err)
	}
	srv := &server{cmd: cmd, port: port, done: make(chan struct{}), log: logPath}
	go func() { srv.err = cmd.Wait(); close(srv.done) }()
	deadline := time.Now().Add(s.StartTimeout)
	for {
		if !srv.alive() {
			return nil, fmt.Errorf("server exited at start: %s", srv.exitInfo())
		}
		if ping(port, time.Until(deadline)) {
			return srv, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			srv.stop()
			return nil, fmt.Errorf("server did not answer PING within %s", s.StartTimeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Server is a running redis-server started by StartServer.
type Server = server

// StartServer starts the server of s as Run does and waits until it answers
// PING; the caller stops it.
func StartServer(ctx context.Context, s Spec) (*Server, error) { return startServer(ctx, s) }

// Port is the server's TCP port on 127.0.0.1.
func (s *server) Port() int { return s.port }

// PID is the process id of the server (or of its wrapper, which execs it).
func (s *server) PID() int { return s.cmd.Process.Pid }

// Alive reports whether the server process is still running.
func (s *server) Alive() bool { return s.alive() }

// ExitInfo says how the server ended, with the last line of its log.
func (s *server) ExitInfo() string { return s.exitInfo() }

// Stop ends the server (SIGTERM, then SIGKILL after 5 s).
func (s *server) Stop() { s.stop() }

func (s *server) alive() bool {
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

func (s *server) exitInfo() string {
	info := "still running"
	if !s.alive() {
		info = fmt.Sprint(s.err)
	}
	if b, err := os.ReadFile(s.log); err == nil {
		info += "; log: " + oneLine(lastLine(string(b)))
	}
	return info
}

func (s *server) stop() {
	if !s.alive() {
		return
	}
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// ping reports whether the server answers PING, waiting up to wait (at least
// 500 ms) for the answer once connected. One connection, not one per try: a
// connection made while the server is still starting is accepted and served
// once it runs, so giving up on it early would leave the server a number of
// connections (client ids, allocations, PINGs) that depends on how fast it
// started, and a counted server must reach its first test the same way in
// every run.
func ping(port int, wait time.Duration) bool {
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(max(wait, 500*time.Millisecond)))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "+PONG")
}

// ClientVersion returns the first line of `redis-benchmark --version`.
func ClientVersion(ctx context.Context, client string) string {
	out, err := exec.CommandContext(ctx, client, "--version").CombinedOutput()
	if err != nil {
		return ""
	}
	return oneLine(lastLine(string(out)))
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
