package count

import (
	"strconv"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/bench"
)

// Test is one counted test: a benchmark test and the client arguments that
// send exactly its requests, nothing else.
type Test struct {
	Name  string
	Index int
	Args  []string
	// Command is the Redis command the test sends (PING for both PING
	// tests), which the server is asked about before any test runs.
	Command string
}

// Tests are redis-benchmark's default tests (bench.DefaultTests), in the
// client's order, each as its own client invocation, so that each count covers
// one test's requests and the server's data goes through the same states as in
// the throughput protocol. `-t lrange_100` would send the LPUSH set-up before
// the LRANGE requests, so the set-up is a test of its own (as the client
// reports it) and the LRANGE tests send their command as given, byte for byte
// what the client's own tests send: "LPUSH mylist <payload>" with payload
// 'x' x dataSize, and "LRANGE mylist 0 <n-1>".
func Tests(dataSize int) []Test {
	payload := strings.Repeat("x", dataSize)
	var out []Test
	for i, t := range bench.DefaultTests {
		args, cmd := []string{"-t", t.Selector}, strings.ToUpper(t.Selector)
		switch {
		case t.Selector == "":
			args = []string{"LPUSH", "mylist", payload}
		case strings.HasPrefix(t.Selector, "lrange_"):
			n, _ := strconv.Atoi(strings.TrimPrefix(t.Selector, "lrange_"))
			args = []string{"LRANGE", "mylist", "0", strconv.Itoa(n - 1)}
		case strings.HasPrefix(t.Selector, "ping_"):
			cmd = "PING"
		}
		if args[0] != "-t" {
			cmd = args[0] // LPUSH, LRANGE: the command sent as given
		}
		out = append(out, Test{Name: t.Name, Index: i, Args: args, Command: cmd})
	}
	return out
}

// Requests is the value of -n in client arguments (redis-benchmark's
// default: 100000).
func Requests(args []string) int64 {
	if n, ok := flagValue(args, "-n"); ok {
		return int64(n)
	}
	return 100000
}

// DataSize is the value of -d in client arguments (redis-benchmark's default: 3).
func DataSize(args []string) int {
	if n, ok := flagValue(args, "-d"); ok {
		return n
	}
	return 3
}

// flagValue is the integer after name in args.
func flagValue(args []string, name string) (int, bool) {
	for i := 0; i+1 < len(args); i++ {
		if args[i] == name {
			if n, err := strconv.Atoi(args[i+1]); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}
