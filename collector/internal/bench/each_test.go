package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/benchfake"
)

func TestMain(m *testing.M) {
	if benchfake.Serve() {
		return
	}
	os.Exit(m.Run())
}

// fakeSpec runs the fake server and client (benchfake) and returns the
// client's log of calls.
func fakeSpec(t *testing.T) (Spec, string) {
	t.Helper()
	server, client, log := benchfake.Binaries(t)
	return Spec{Server: server, Client: client, Args: []string{"--csv", "-d", "64"}, Dir: filepath.Join(t.TempDir(), "run"),
		ServerCPU: -1, ClientCPU: -1, StartTimeout: 5 * time.Second, RunTimeout: 10 * time.Second}, log
}

func TestRunEachRunsEveryTestOnItsOwnWithItsCount(t *testing.T) {
	spec, log := fakeSpec(t)
	tests := []TestRun{
		{Name: "SET", Index: 2, Args: []string{"-t", "set"}, Requests: 5000},
		{Name: "ZPOPMIN", Index: 13, Args: []string{"-t", "zpopmin"}, Requests: 7000},
		{Name: "LRANGE_100 (first 100 elements)", Index: 15, Args: []string{"LRANGE", "mylist", "0", "99"}, Requests: 9000},
	}
	out, err := RunEach(context.Background(), spec, tests)
	if err != nil {
		t.Fatal(err)
	}
	if out.ServerFailed != "" || len(out.Results) != 3 {
		t.Fatalf("server %q, results %+v", out.ServerFailed, out.Results)
	}
	set, zpop, lrange := out.Results[0], out.Results[1], out.Results[2]
	if set.Status != "ok" || set.Row.RPS != 100000 || set.Index != 2 {
		t.Errorf("SET = %+v", set)
	}
	// The next test still runs after one the server rejects.
	if zpop.Status != "unsupported" || !strings.Contains(zpop.Error, "unknown command") {
		t.Errorf("ZPOPMIN = %+v", zpop)
	}
	// A command test is named as the client's own test, not as its command.
	if lrange.Status != "ok" || lrange.Test != "LRANGE_100 (first 100 elements)" || lrange.Row.Test != lrange.Test || lrange.Index != 15 {
		t.Errorf("LRANGE = %+v", lrange)
	}
	checkCalls(t, log, "--csv -d 64 -n 5000 -t set", "--csv -d 64 -n 7000 -t zpopmin", "--csv -d 64 -n 9000 LRANGE mylist 0 99")
	if !strings.Contains(out.Raw, "-n 9000 LRANGE mylist 0 99") {
		t.Errorf("raw output lacks the invocation:\n%s", out.Raw)
	}
}

func TestRunEachServerThatDoesNotStartFailsEveryTest(t *testing.T) {
	spec, _ := fakeSpec(t)
	spec.Server = filepath.Join(t.TempDir(), "missing")
	out, err := RunEach(context.Background(), spec, []TestRun{{Name: "SET", Args: []string{"-t", "set"}, Requests: 1}})
	if err != nil || out.ServerFailed == "" || len(out.Results) != 1 || out.Results[0].Status != "crashed" {
		t.Errorf("err %v, outcome %+v", err, out)
	}
}

// checkCalls checks the fake client's log: one call per line, the i-th
// ending in want[i].
func checkCalls(t *testing.T, log string, want ...string) {
	t.Helper()
	b, _ := os.ReadFile(log)
	calls := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(calls) != len(want) {
		t.Fatalf("client calls %q", calls)
	}
	for i, w := range want {
		if !strings.HasSuffix(calls[i], w) {
			t.Errorf("call %d = %q, want it to end in %q", i, calls[i], w)
		}
	}
}
