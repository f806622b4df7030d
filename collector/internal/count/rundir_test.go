package count

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A counted server gets the same paths and environment whatever the work
// directory: a run directory of fixed length holding copies of the server and
// the preload, and an environment of the spec's entries alone.
func TestRunDirIsTheSameLengthAndEnvironmentForEveryWorkDirectory(t *testing.T) {
	var dirs []*runDir
	for _, work := range []string{t.TempDir(), filepath.Join(t.TempDir(), "a", "much", "longer", "work", "directory")} {
		if err := os.MkdirAll(work, 0o755); err != nil {
			t.Fatal(err)
		}
		server, lib := filepath.Join(work, "redis-server-nodebug"), filepath.Join(work, "freezeclock.so")
		os.WriteFile(server, []byte("server"), 0o755)
		os.WriteFile(lib, []byte("lib"), 0o755)
		r, err := newRunDir(Spec{Server: server, Env: []string{"LD_PRELOAD=" + lib, "LD_BIND_NOW=1"}})
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(r.dir)
		if b, err := os.ReadFile(r.server); err != nil || string(b) != "server" {
			t.Errorf("server copy %q: %v", b, err)
		}
		if b, err := os.ReadFile(filepath.Join(r.dir, "freezeclock.so")); err != nil || string(b) != "lib" {
			t.Errorf("preload copy %q: %v", b, err)
		}
		dirs = append(dirs, r)
	}
	a, b := dirs[0], dirs[1]
	if a.dir == b.dir || len(a.dir) != len(b.dir) || !strings.HasPrefix(a.dir, "/tmp/rcb-count-") {
		t.Errorf("run directories %q and %q: want distinct, of one length, under /tmp/rcb-count-", a.dir, b.dir)
	}
	strip := func(r *runDir) []string {
		var env []string
		for _, e := range r.env {
			env = append(env, strings.ReplaceAll(e, r.dir, "DIR"))
		}
		return env
	}
	want := []string{"PATH=/usr/bin:/bin", "FREEZECLOCK_CONTROL=DIR/control", "LD_PRELOAD=DIR/freezeclock.so", "LD_BIND_NOW=1"}
	if !reflect.DeepEqual(strip(a), want) || !reflect.DeepEqual(strip(b), want) {
		t.Errorf("environments %q and %q, want %q", a.env, b.env, want)
	}
	keep := t.TempDir()
	os.WriteFile(filepath.Join(a.dir, "server.log"), []byte("log"), 0o644)
	a.close(keep)
	if _, err := os.Stat(a.dir); !os.IsNotExist(err) {
		t.Errorf("run directory %s left behind", a.dir)
	}
	if got, err := os.ReadFile(filepath.Join(keep, "server.log")); err != nil || string(got) != "log" {
		t.Errorf("server.log not kept: %q %v", got, err)
	}
}
