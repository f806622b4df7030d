// Package benchfake stands in for redis-server and redis-benchmark in tests:
// a server that answers +PONG to every line (the test binary itself, run
// again) and a client script that logs its arguments and prints one CSV row
// at 100,000 requests per second.
package benchfake

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// RPS is the rate the fake client prints for every test.
const RPS = 100000

const serverEnv = "RCB_FAKE_SERVER"

// Serve runs the fake server instead of the tests when the test binary was
// started as one; call it first in TestMain. It reports whether it did.
func Serve() bool {
	if os.Getenv(serverEnv) == "" {
		return false
	}
	b, err := os.ReadFile(os.Args[len(os.Args)-1])
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
			return true
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

// Binaries writes the fake server and client into a temporary directory and
// returns their paths and the client's log (one line of arguments per call).
// The client prints "NAME","100000.00" with NAME its -t selector or its
// command, "inf" under 100 requests (a test too short for the client's
// clock), and rejects zpopmin as a server before 5.0 does.
func Binaries(t *testing.T) (server, client, log string) {
	t.Helper()
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	server = filepath.Join(dir, "redis-server")
	if err := os.WriteFile(server, []byte("#!/bin/sh\n"+serverEnv+"=1 exec "+exe+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	log = filepath.Join(dir, "client.log")
	client = filepath.Join(dir, "redis-benchmark")
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
echo "\"$name\",\"` + fmt.Sprint(RPS) + `.00\""
`
	if err := os.WriteFile(client, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return server, client, log
}
