package bench

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/testenv"
)

// TestCPUPerTestAgreesWithProcOnARealServer runs three tests in one client
// invocation (SET, GET, INCR, in data mode and in pipe mode) against a real
// server (RCB_TEST_SERVER) with the real client (RCB_TEST_CLIENT), and checks
// each test's figures against the server's /proc/PID/stat read directly
// before and after: the tests' server CPU adds up to the server's CPU over
// the invocation, and every busy fraction lies in [0, 1].
func TestCPUPerTestAgreesWithProcOnARealServer(t *testing.T) {
	testenv.Real(t, "runs real binaries")
	server, client := testenv.Binaries(t)
	for _, mode := range []struct {
		name string
		args []string
	}{
		{"data", []string{"-n", "30000"}},
		{"pipe", []string{"-n", "300000", "-P", "1000"}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			spec := Spec{Server: server, Client: client, Args: append([]string{"--csv", "-d", "64", "-r", "9999999999"}, mode.args...),
				Dir: t.TempDir(), ServerCPU: -1, ClientCPU: -1, StartTimeout: 10 * time.Second, RunTimeout: 2 * time.Minute}
			srv, err := startServer(context.Background(), spec)
			if err != nil {
				t.Fatal(err)
			}
			defer srv.stop()
			pid := srv.PID()
			before := procCPU(t, pid)
			args := append([]string{"-h", "127.0.0.1", "-p", strconv.Itoa(srv.Port())}, spec.Args...)
			run, err := runClient(context.Background(), spec, append(args, "-t", "set,get,incr"), pid)
			after := procCPU(t, pid)
			if err != nil {
				t.Fatalf("client: %v\n%s%s", err, run.stdout, run.stderr)
			}
			cpu := cpuByTest(run.marks)
			var sum float64
			for _, test := range []string{"SET", "GET", "INCR"} {
				c := cpu[test]
				if c == nil {
					t.Fatalf("%s: no CPU figures; output:\n%s", test, run.stdout)
				}
				t.Logf("%s: server user %.3fs sys %.3fs busy %.2f; client user %.3fs sys %.3fs busy %.2f",
					test, c.Server.User, c.Server.Sys, c.Server.Busy, c.Client.User, c.Client.Sys, c.Client.Busy)
				for _, u := range []Use{c.Server, c.Client} {
					if u.User < 0 || u.Sys < 0 || u.Busy <= 0 || u.Busy > 1.01 {
						t.Errorf("%s: %+v out of range", test, u)
					}
				}
				if c.Server.User+c.Server.Sys == 0 {
					t.Errorf("%s: the server used no CPU", test)
				}
				sum += c.Server.User + c.Server.Sys
			}
			// Outside the tests the server only accepts and closes the
			// client's connections; each reading is whole clock ticks.
			direct := after - before
			if tick := ClockTick.Seconds(); sum > direct+4*tick || sum < 0.9*direct-4*tick {
				t.Errorf("the tests' server CPU adds up to %.3fs; /proc says %.3fs over the invocation", sum, direct)
			}
		})
	}
}

// procCPU is pid's utime + stime in seconds, read from /proc/PID/stat
// (fields 14 and 15, in clock ticks of 1/100 s).
func procCPU(t *testing.T, pid int) float64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b)[strings.LastIndexByte(string(b), ')')+2:])
	user, _ := strconv.ParseFloat(f[11], 64)
	sys, _ := strconv.ParseFloat(f[12], 64)
	return (user + sys) / 100
}

// TestRunGivesEveryMeasuredTestItsCPUFigures runs the reference protocol
// (every default test, one client invocation, again with -t after a test the
// server rejects) against a real server: every test with a row has CPU
// figures, and in every one the server used CPU time.
func TestRunGivesEveryMeasuredTestItsCPUFigures(t *testing.T) {
	testenv.Real(t, "runs real binaries")
	server, client := testenv.Binaries(t)
	spec := Spec{Server: server, Client: client, Args: []string{"-n", "10000", "--csv", "-d", "64", "-r", "9999999999"},
		Dir: t.TempDir(), ServerCPU: -1, ClientCPU: -1, StartTimeout: 10 * time.Second, RunTimeout: 2 * time.Minute}
	out, err := Run(context.Background(), spec)
	if err != nil || out.ServerFailed != "" {
		t.Fatalf("%v %q\n%s", err, out.ServerFailed, out.Raw)
	}
	ok := 0
	for _, r := range out.Results {
		if r.Status != "ok" {
			continue
		}
		ok++
		if r.CPU == nil || r.CPU.Server.User+r.CPU.Server.Sys <= 0 || r.CPU.Server.Busy <= 0 || r.CPU.Server.Busy > 1.01 {
			t.Errorf("%s: CPU %+v", r.Test, r.CPU)
		}
	}
	if ok < 10 {
		t.Errorf("%d tests ok:\n%s", ok, out.Raw)
	}
}
