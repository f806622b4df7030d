package count

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeSlowServerEnv makes the test binary, run again by
// TestNextConnectionOpensOnceTheServerClosedTheLast, act as a slow server (a
// fixture, not a server): it answers INFO on every connection it accepts, and
// closes a connection only closeDelay after its client closed it, as a server
// under Valgrind on a loaded machine can. It prints its port, then a line per
// accept and per close, in the order they happen.
const fakeSlowServerEnv = "RCB_FIXTURE_SLOW_SERVER"

const closeDelay = 300 * time.Millisecond

func TestMain(m *testing.M) {
	if os.Getenv(fakeSlowServerEnv) == "1" {
		fakeSlowServer()
		return
	}
	os.Exit(m.Run())
}

func fakeSlowServer() {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("listen:", err)
		os.Exit(1)
	}
	var mu sync.Mutex
	say := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Printf(format+"\n", a...)
	}
	say("port %d", l.Addr().(*net.TCPAddr).Port)
	for n := 1; ; n++ {
		c, err := l.Accept()
		if err != nil {
			os.Exit(1)
		}
		say("accept %d", n)
		go func(n int, c net.Conn) {
			r := bufio.NewReader(c)
			for {
				if _, err := readCommand(r); err != nil {
					break
				}
				body := "# Stats\r\ntotal_commands_processed:7\r\n"
				fmt.Fprintf(c, "$%d\r\n%s\r\n", len(body), body)
			}
			time.Sleep(closeDelay)
			say("close %d", n)
			c.Close()
		}(n, c)
	}
}

// The collector's connections before a window (the last test's INFO, then
// the next one's) reach the server one after the other: the next opens only
// once the server has closed the last. When the server accepted the next
// before closing the last (as a loaded machine can have it), its allocator's
// state, and every later count of the run, departed from a run where it did
// not.
func TestNextConnectionOpensOnceTheServerClosedTheLast(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fakeSlowServerEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(out)
	if !lines.Scan() {
		t.Fatal("the fixture server printed no port")
	}
	port, err := strconv.Atoi(strings.TrimPrefix(lines.Text(), "port "))
	if err != nil {
		t.Fatalf("fixture server: %q", lines.Text())
	}
	events := make(chan string, 16)
	go func() {
		for lines.Scan() {
			events <- lines.Text()
		}
		close(events)
	}()

	// The last test's INFO, closed by the collector at once.
	c, err := dial(port)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := commandsProcessed(c); err != nil {
		t.Fatal(err)
	}
	// The next test's INFO, before its window.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n, err := commandsBeforeWindow(ctx, port, cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if n != 7 {
		t.Errorf("total_commands_processed %d, want 7", n)
	}
	var got []string
	for len(got) < 4 {
		select {
		case e := <-events:
			got = append(got, e)
		case <-time.After(10 * time.Second):
			t.Fatalf("fixture server's events so far: %q", got)
		}
	}
	want := []string{"accept 1", "close 1", "accept 2", "close 2"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("the server saw %q, want %q", got, want)
	}
}
