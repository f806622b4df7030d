package count

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// clientSockets counts the TCP connections process pid holds open: its
// sockets (/proc/PID/fd) that /proc/net/tcp and tcp6 list in a state other
// than LISTEN (0A).
func clientSockets(pid int) (int, error) {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("server's sockets: %w", err)
	}
	mine := map[string]bool{}
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && strings.HasPrefix(l, "socket:[") {
			mine[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	n := 0
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			// sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...
			if len(f) > 9 && mine[f[9]] && f[3] != "0A" {
				n++
			}
		}
	}
	return n, nil
}

// dialSettled opens a connection of the collector's own to the counted
// server (port, pid) once the server has closed every earlier one and
// sleeps. Every connection of the collector's up to the last window goes
// through it (only the closing SHUTDOWN, after every window, does not): on a
// loaded machine a new connection can otherwise reach the server before the
// last one's close, the server accepts it first, and its allocator's state
// departs from then on (docs/method.md, Determinism).
func dialSettled(ctx context.Context, port, pid int) (*conn, error) {
	if err := settle(ctx, pid); err != nil {
		return nil, err
	}
	return dial(port)
}

// settle waits until the server has closed every client connection, then
// until it has been asleep (waiting for events, not running) for two looks
// in a row.
func settle(ctx context.Context, pid int) error {
	deadline := time.Now().Add(time.Minute)
	asleep := 0
	for asleep < 2 {
		if time.Now().After(deadline) {
			return fmt.Errorf("the server did not close its client connections and go idle within a minute")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
		n, err := clientSockets(pid)
		if err != nil {
			return err
		}
		if n > 0 || !sleeping(pid) {
			asleep = 0
			continue
		}
		asleep++
	}
	return nil
}

// sleeping reports whether process pid is in an interruptible sleep (state
// S in /proc/PID/stat): an idle server waits in epoll_wait.
func sleeping(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] == "S"
}
