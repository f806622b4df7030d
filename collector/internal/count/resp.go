package count

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// command sends one command to the server on port, on a connection of its
// own, and returns its reply as text: a status or bulk reply's content, or an
// error reply as an error.
func command(port int, args ...string) (string, error) {
	c, err := dial(port)
	if err != nil {
		return "", err
	}
	defer c.Close()
	return c.do(args...)
}

// conn is one connection to the server, for commands sent one at a time.
type conn struct {
	net.Conn
	r *bufio.Reader
}

func dial(port int) (*conn, error) {
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 5*time.Second)
	if err != nil {
		return nil, err
	}
	return &conn{Conn: c, r: bufio.NewReader(c)}, nil
}

// do sends one command and reads its reply (see command).
func (c *conn) do(args ...string) (string, error) {
	// Generous: the server runs under Valgrind, tens of times slower.
	c.SetDeadline(time.Now().Add(60 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := c.Write([]byte(b.String())); err != nil {
		return "", err
	}
	line, err := c.r.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return "", fmt.Errorf("empty reply")
	}
	switch line[0] {
	case '+', ':':
		return line[1:], nil
	case '-':
		return "", &ErrorReply{line[1:]}
	case '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return "", fmt.Errorf("bad bulk reply %q", line)
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(c.r, buf); err != nil {
			return "", err
		}
		return string(buf[:n]), nil
	}
	return "", fmt.Errorf("unexpected reply %q", line)
}

// ErrorReply is the server's error reply to a command.
type ErrorReply struct{ Msg string }

func (e *ErrorReply) Error() string { return e.Msg }

// commandsProcessed is the server's total_commands_processed (INFO stats),
// asked on c, which it closes. The INFO command itself is counted after its
// reply is made, so a window between two calls holds (second - first - 1)
// other commands.
func commandsProcessed(c *conn) (int64, error) {
	defer c.Close()
	info, err := c.do("INFO", "stats")
	if err != nil {
		return 0, fmt.Errorf("INFO stats: %w", err)
	}
	for _, l := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "total_commands_processed:"); ok {
			return strconv.ParseInt(v, 10, 64)
		}
	}
	return 0, fmt.Errorf("INFO stats has no total_commands_processed")
}
