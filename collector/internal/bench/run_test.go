package bench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/testenv"
)

// TestRunOldServerRecoversFromUnsupportedTests runs a real new client against a
// real old server: RCB_TEST_CLIENT=.../7.4.1/redis-benchmark and
// RCB_TEST_SERVER=.../2.6.17/redis-server. The client stops at ZPOPMIN; Run
// must run the remaining tests again and end with XADD unsupported too.
func TestRunOldServerRecoversFromUnsupportedTests(t *testing.T) {
	testenv.Real(t, "runs real binaries")
	server, client := testenv.Binaries(t)
	dir := t.TempDir()
	out, err := Run(context.Background(), Spec{
		Server: server, Client: client, Args: []string{"-n", "500", "--csv"}, Dir: dir,
		ServerCPU: -1, ClientCPU: -1, StartTimeout: 10 * time.Second, RunTimeout: 2 * time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.ServerFailed != "" {
		t.Fatalf("server failed: %s\n%s", out.ServerFailed, out.Raw)
	}
	if len(out.Results) != len(DefaultTests) {
		t.Fatalf("%d results, want %d:\n%s", len(out.Results), len(DefaultTests), out.Raw)
	}
	ok := 0
	for i, r := range out.Results {
		if r.Test != DefaultTests[i].Name || r.Index != i {
			t.Errorf("result %d is %q (index %d), want %q: results must be in client order", i, r.Test, r.Index, DefaultTests[i].Name)
		}
		switch r.Test {
		case "ZPOPMIN", "XADD":
			if r.Status != "unsupported" || r.Row != nil || !strings.Contains(r.Error, "unknown command") {
				t.Errorf("%s: status %q, error %q; want unsupported with the server's error", r.Test, r.Status, r.Error)
			}
		default:
			if r.Status != "ok" || r.Row == nil || r.Row.RPS <= 0 || r.Row.Avg == nil || r.Error != "" {
				t.Errorf("%s: %+v, want ok with rps and latency", r.Test, r)
			} else {
				ok++
			}
		}
	}
	if ok != 19 {
		t.Errorf("%d tests ok, want 19", ok)
	}
	// The raw evidence keeps both invocations and the server's errors.
	for _, want := range []string{"-t lrange_100,lrange_300,lrange_500,lrange_600,mset,xadd", "ERR unknown command 'ZPOPMIN'", "ERR unknown command 'XADD'", `"MSET (10 keys)"`} {
		if !strings.Contains(out.Raw, want) {
			t.Errorf("raw output lacks %q:\n%s", want, out.Raw)
		}
	}
	if out.ServerPID <= 0 {
		t.Errorf("server pid %d", out.ServerPID)
	}
	conf, err := os.ReadFile(filepath.Join(dir, "redis.conf"))
	if err != nil || !strings.Contains(string(conf), "bind 127.0.0.1") || !strings.Contains(string(conf), `save ""`) {
		t.Errorf("server config %q (%v): want bound to 127.0.0.1 with persistence off", conf, err)
	}
}

// fakeServer writes an executable shell script standing in for redis-server.
func fakeServer(t *testing.T, script string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "redis-server")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunServerThatDoesNotStart(t *testing.T) {
	tests := []struct {
		name, server, want string
	}{
		{"missing binary", filepath.Join(t.TempDir(), "no-such-redis-server"), "start server:"},
		{"exits at once", fakeServer(t, `echo "FATAL CONFIG FILE ERROR" >&2; exit 1`), "server exited at start: exit status 1"},
		{"never answers", fakeServer(t, "exec sleep 30"), "did not answer PING within 300ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			out, err := Run(context.Background(), Spec{
				Server: tt.server, Client: "/bin/false", Dir: filepath.Join(t.TempDir(), "run"),
				ServerCPU: -1, ClientCPU: -1, StartTimeout: 300 * time.Millisecond, RunTimeout: time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.ServerFailed, tt.want) || strings.Contains(out.ServerFailed, "\n") {
				t.Errorf("ServerFailed = %q, want one line containing %q", out.ServerFailed, tt.want)
			}
			if len(out.Results) != len(DefaultTests) {
				t.Fatalf("%d results, want every default test marked", len(out.Results))
			}
			for _, r := range out.Results {
				if r.Status != "crashed" || r.Row != nil || !strings.Contains(r.Error, tt.want) {
					t.Errorf("%+v: want crashed with the reason", r)
				}
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %s: the hung server was not stopped promptly", d)
			}
		})
	}
}

func TestRunInterruptedWhileTheServerStartsIsNotAServerFailure(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := Run(ctx, Spec{
		Server: fakeServer(t, "exec sleep 30"), Client: "/bin/false", Dir: filepath.Join(t.TempDir(), "run"),
		ServerCPU: -1, ClientCPU: -1, StartTimeout: 10 * time.Second, RunTimeout: time.Second,
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if out.ServerFailed != "" || len(out.Results) != 0 {
		t.Errorf("an interrupted start was recorded as %q with %d results", out.ServerFailed, len(out.Results))
	}
}
