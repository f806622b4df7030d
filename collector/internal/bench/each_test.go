package bench

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as a fake redis-server: with RCB_FAKE_SERVER set it
// answers +PONG to every line on the port its config file names.
func TestMain(m *testing.M) {
	if os.Getenv("RCB_FAKE_SERVER") != "" {
		fakeRedis(os.Args[len(os.Args)-1])
		return
	}
	os.Exit(m.Run())
}

func fakeRedis(conf string) {
	b, err := os.ReadFile(conf)
	if err != nil {
		os.Exit(2)
	}
	var port int
	fmt.Sscanf(strings.SplitN(string(b), "\n", 2)[0], "port %d", &port)
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		os.Exit(3)
	}
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			buf := make([]byte, 512)
			for {
				if _, err := c.Read(buf); err != nil {
					return
				}
				c.Write([]byte("+PONG\r\n"))
			}
		}()
	}
}

// fakeSpec runs the fake server and a fake client: a script that logs its
// arguments, prints "NAME",RPS with NAME the -t selector or the command, at
// 100,000 requests/s (rps "inf" under 100 requests, as a client whose clock
// saw 0 ms), and rejects zpopmin as an old server does.
func fakeSpec(t *testing.T) (Spec, string) {
	t.Helper()
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	server := filepath.Join(dir, "redis-server")
	os.WriteFile(server, []byte("#!/bin/sh\nRCB_FAKE_SERVER=1 exec "+exe+" \"$@\"\n"), 0o755)
	log := filepath.Join(dir, "client.log")
	client := filepath.Join(dir, "redis-benchmark")
	script := `#!/bin/sh
echo "$*" >> ` + log + `
n=0; name=""
while [ $# -gt 0 ]; do
  case "$1" in
    -n) n=$2; shift 2;;
    -t) name=$2; shift 2;;
    -h|-p|-d|-r|-P|-c) shift 2;;
    --csv) shift;;
    *) name="${name:+$name }$1"; shift;;
  esac
done
if [ "$name" = zpopmin ]; then echo "Error from server: ERR unknown command 'ZPOPMIN'" >&2; exit 1; fi
if [ "$n" -lt 100 ]; then echo "\"$name\",\"inf\""; exit 0; fi
echo '"test","rps"'
echo "\"$name\",\"100000.00\""
`
	os.WriteFile(client, []byte(script), 0o755)
	return Spec{Server: server, Client: client, Args: []string{"--csv", "-d", "64"}, Dir: filepath.Join(dir, "run"),
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
	b, _ := os.ReadFile(log)
	calls := strings.Split(strings.TrimSpace(string(b)), "\n")
	want := []string{"--csv -d 64 -n 5000 -t set", "--csv -d 64 -n 7000 -t zpopmin", "--csv -d 64 -n 9000 LRANGE mylist 0 99"}
	if len(calls) != 3 {
		t.Fatalf("client calls %q", calls)
	}
	for i, w := range want {
		if !strings.HasSuffix(calls[i], w) {
			t.Errorf("call %d = %q, want it to end in %q", i, calls[i], w)
		}
	}
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
