package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Use is where one process's time went during one test.
type Use struct {
	User float64 // CPU seconds in user mode (/proc/PID/stat utime)
	Sys  float64 // CPU seconds in the kernel (/proc/PID/stat stime)
	// Busy is the process's on-CPU time over the test's wall time
	// (/proc/PID/task/*/schedstat, in nanoseconds): 1 when it never waited.
	Busy float64
}

// TestCPU is where the server's and the client's time went during one test:
// from the client's start, or the end of the test before it in the same
// client invocation, to the moment the client printed the test's row.
type TestCPU struct {
	Server, Client Use
}

// ClockTick is the unit of /proc/PID/stat's utime and stime (USER_HZ, 100
// on every Linux architecture the collector runs on).
const ClockTick = 10 * time.Millisecond

// sample is a process's CPU counters at one moment, in nanoseconds.
type sample struct {
	at        time.Time
	user, sys int64
	onCPU     int64 // summed over the process's threads
}

// readSample reads pid's counters from /proc. The process's CPU time is the
// sum of its threads' schedstat when the kernel has it (nanoseconds), else
// utime + stime (clock ticks).
func readSample(pid int) (sample, error) {
	at := time.Now()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return sample{}, err
	}
	str := string(b)
	f := strings.Fields(str[strings.LastIndexByte(str, ')')+1:])
	if len(f) < 13 {
		return sample{}, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	// Fields 14 and 15 of the file; f starts at field 3 (state).
	user, _ := strconv.ParseInt(f[11], 10, 64)
	sys, _ := strconv.ParseInt(f[12], 10, 64)
	s := sample{at: at, user: user * int64(ClockTick), sys: sys * int64(ClockTick), onCPU: onCPU(pid)}
	if s.onCPU < 0 {
		s.onCPU = s.user + s.sys
	}
	return s, nil
}

// onCPU is the time pid's threads have run, in nanoseconds (-1 when the
// kernel has no schedstat). A thread that ended takes its time with it; the
// Redis servers measured here do their work in the main thread.
func onCPU(pid int) int64 {
	files, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	var total int64 = -1
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		fs := strings.Fields(string(b))
		if len(fs) == 0 {
			continue
		}
		ns, err := strconv.ParseInt(fs[0], 10, 64)
		if err != nil {
			continue
		}
		total = max(total, 0) + ns
	}
	return total
}

// use is the process's time between samples a and b.
func use(a, b sample) Use {
	u := Use{User: float64(b.user-a.user) / 1e9, Sys: float64(b.sys-a.sys) / 1e9}
	if wall := b.at.Sub(a.at); wall > 0 {
		u.Busy = float64(b.onCPU-a.onCPU) / float64(wall.Nanoseconds())
	}
	return u
}

// mark is the server's and the client's counters when the client printed a
// row (test "" for the client's start). A zero sample could not be read.
type mark struct {
	test           string
	server, client sample
}

// takeMark samples the server and the client now.
func takeMark(test string, serverPID, clientPID int) mark {
	m := mark{test: test}
	m.server, _ = readSample(serverPID)
	m.client, _ = readSample(clientPID)
	return m
}

// exited fills the client counters of marks that could not read them (the
// client had exited when its last row arrived) from its resource usage at
// exit.
func exited(marks []mark, ps *os.ProcessState) {
	if ps == nil {
		return
	}
	for i := range marks {
		if marks[i].client.at.IsZero() && !marks[i].server.at.IsZero() {
			u, s := ps.UserTime().Nanoseconds(), ps.SystemTime().Nanoseconds()
			marks[i].client = sample{at: marks[i].server.at, user: u, sys: s, onCPU: u + s}
		}
	}
}

// cpuByTest is each test's TestCPU, keyed by the name the client printed,
// from consecutive marks of one client invocation; a test whose marks lack
// a sample gets none.
func cpuByTest(marks []mark) map[string]*TestCPU {
	out := map[string]*TestCPU{}
	for i := 1; i < len(marks); i++ {
		a, b := marks[i-1], marks[i]
		if b.test == "" || a.server.at.IsZero() || b.server.at.IsZero() || a.client.at.IsZero() || b.client.at.IsZero() {
			continue
		}
		out[b.test] = &TestCPU{Server: use(a.server, b.server), Client: use(a.client, b.client)}
	}
	return out
}

// rowWatcher keeps everything the client writes to stdout and calls onRow
// with the test name of each CSV row as its line arrives.
type rowWatcher struct {
	buf   bytes.Buffer
	line  []byte
	onRow func(test string)
}

func (w *rowWatcher) Write(p []byte) (int, error) {
	w.buf.Write(p)
	for _, c := range p {
		if c != '\n' && c != '\r' {
			w.line = append(w.line, c)
			continue
		}
		if rows := ParseCSV(string(w.line)); len(rows) == 1 {
			w.onRow(rows[0].Test)
		}
		w.line = w.line[:0]
	}
	return len(p), nil
}

// lineBuffered wraps the client so that it writes each line as it ends (a
// C client's stdout to a pipe is otherwise flushed only at exit, and a
// row's arrival marks its test's end): coreutils' stdbuf -oL, when installed.
func lineBuffered(client string, args []string) (string, []string) {
	stdbuf, err := exec.LookPath("stdbuf")
	if err != nil {
		return client, args
	}
	return stdbuf, append([]string{"-oL", client}, args...)
}
