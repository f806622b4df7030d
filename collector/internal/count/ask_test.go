package count

import (
	"bufio"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
)

// fakeOldServer answers like a Redis server of before 5.0 (a fixture, not a
// server): it knows neither ZPOPMIN nor XADD nor the jemalloc-bg-thread
// setting, answers PING, and rejects every other command sent with no
// arguments. It records the commands it gets.
func fakeOldServer(t *testing.T) (int, *[]string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var got []string
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		for {
			args, err := readCommand(r)
			if err != nil {
				return
			}
			got = append(got, strings.Join(args, " "))
			switch name := strings.ToUpper(args[0]); {
			case name == "PING":
				fmt.Fprint(c, "+PONG\r\n")
			case name == "CONFIG":
				fmt.Fprint(c, "-ERR Unsupported CONFIG parameter: jemalloc-bg-thread\r\n")
			case name == "ZPOPMIN" || name == "XADD":
				fmt.Fprintf(c, "-ERR unknown command '%s'\r\n", args[0])
			default:
				fmt.Fprintf(c, "-ERR wrong number of arguments for '%s' command\r\n", strings.ToLower(args[0]))
			}
		}
	}()
	return l.Addr().(*net.TCPAddr).Port, &got
}

// readCommand reads one RESP array of bulk strings.
func readCommand(r *bufio.Reader) ([]string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	n, _ := strconv.Atoi(strings.TrimSpace(line[1:]))
	var args []string
	for i := 0; i < n; i++ {
		if _, err := r.ReadString('\n'); err != nil {
			return nil, err
		}
		a, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		args = append(args, strings.TrimRight(a, "\r\n"))
	}
	return args, nil
}

func TestAskFindsTheCommandsTheServerLacksWithoutRunningAny(t *testing.T) {
	port, got := fakeOldServer(t)
	c, err := dial(port)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var raw strings.Builder
	lacks, err := ask(c, []string{"jemalloc-bg-thread no"}, Tests(64), &raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(lacks) != 2 || lacks["ZPOPMIN"] != "ERR unknown command 'ZPOPMIN'" || lacks["XADD"] == "" {
		t.Errorf("lacks %q, want ZPOPMIN and XADD", lacks)
	}
	// One CONFIG SET, then each command once, alone: no test's requests.
	want := []string{"CONFIG SET jemalloc-bg-thread no", "PING", "SET", "GET", "INCR", "LPUSH", "RPUSH",
		"LPOP", "RPOP", "SADD", "HSET", "SPOP", "ZADD", "ZPOPMIN", "LRANGE", "MSET", "XADD"}
	if strings.Join(*got, ",") != strings.Join(want, ",") {
		t.Errorf("server got %q, want %q", *got, want)
	}
	for _, line := range []string{
		"CONFIG SET jemalloc-bg-thread no -> error: ERR Unsupported CONFIG parameter: jemalloc-bg-thread",
		"ZPOPMIN -> ERR unknown command 'ZPOPMIN': its tests are not sent",
		"SET -> error: ERR wrong number of arguments for 'set' command",
		"PING -> PONG",
	} {
		if !strings.Contains(raw.String(), line+"\n") {
			t.Errorf("evidence lacks %q:\n%s", line, raw.String())
		}
	}
}
