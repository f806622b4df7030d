// Package testenv holds what the tests that build or run real Redis share: they
// are skipped under go test -short, they read the inputs scripts/test.sh gives
// them from the environment, and they stop before the test binary's deadline.
package testenv

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"
)

// Real skips t under go test -short; what says what the test does that is slow.
func Real(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skip(what)
	}
}

// Tarballs is RCB_DEBIAN_TARBALLS, the folder holding Debian's Redis source
// tarballs (scripts/test.sh downloads them). When it is unset, a test that must
// run (required) fails, the others are skipped.
func Tarballs(t testing.TB, required bool) string {
	t.Helper()
	dir := os.Getenv("RCB_DEBIAN_TARBALLS")
	if dir != "" {
		return dir
	}
	const why = "RCB_DEBIAN_TARBALLS is not set: it names a folder with Debian's redis_7.0.15.orig.tar.gz " +
		"(apt-get source --download-only redis, with a bookworm deb-src entry; scripts/test.sh sets it)"
	if required {
		t.Fatal(why + "; or run go test -short")
	}
	t.Skip(why)
	return ""
}

// Binaries are RCB_TEST_SERVER (a redis-server) and RCB_TEST_CLIENT (a 7.4.1
// redis-benchmark); t is skipped without them.
func Binaries(t testing.TB) (server, client string) {
	t.Helper()
	server, client = os.Getenv("RCB_TEST_SERVER"), os.Getenv("RCB_TEST_CLIENT")
	if server == "" || client == "" {
		t.Skip("set RCB_TEST_SERVER (a redis-server) and RCB_TEST_CLIENT (a 7.4.1 redis-benchmark)")
	}
	return server, client
}

// Tools skips t unless every program is on PATH.
func Tools(t testing.TB, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("needs %s", p)
		}
	}
}

// Context ends 30 seconds before the test binary's deadline (-timeout), so
// that a build or run cut short leaves time to report what it was doing.
func Context(t testing.TB) context.Context {
	t.Helper()
	deadline, ok := t.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return context.Background()
	}
	at, set := deadline.Deadline()
	if !set {
		return context.Background()
	}
	ctx, cancel := context.WithDeadline(context.Background(), at.Add(-30*time.Second))
	t.Cleanup(cancel)
	return ctx
}
