package count

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// The preload freezes the clock, hands the event loop one event per turn and
// makes a socket read wait for the rest of a request still being written:
// without the last two, the same requests took different turns and reads
// from run to run, and their counts differed by up to 1%.
func TestFreezeClockPreload(t *testing.T) {
	lib, check, _ := buildChecks(t, "preload-check")
	for _, tt := range []struct{ env, want string }{
		{"", "time 1700000000\nevents 1\nread 6\n"},
		// A client that sends one request at a time: reads do not wait.
		{"FREEZECLOCK_SETTLE_READS=no", "time 1700000000\nevents 1\nread 2\n"},
	} {
		cmd := exec.Command(check)
		cmd.Env = []string{"LD_PRELOAD=" + lib}
		if tt.env != "" {
			cmd.Env = append(cmd.Env, tt.env)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("preload-check %s: %v\n%s", tt.env, err, out)
		}
		if string(out) != tt.want {
			t.Errorf("preload-check %s printed\n%s\nwant\n%s", tt.env, out, tt.want)
		}
	}
}

// The collector opens and closes counting windows with signals the preload
// handles (zero, dump with a hint), each acknowledged in the control file;
// the server's epoll_wait never sees them.
func TestWindowSignalsAreAcknowledgedAndKeptFromTheEventLoop(t *testing.T) {
	ctx := context.Background()
	lib, check, dir := buildChecks(t, "window-check")
	control := filepath.Join(dir, "control")
	if err := os.WriteFile(control, make([]byte, controlSize), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(check)
	cmd.Env = []string{"LD_PRELOAD=" + lib, "FREEZECLOCK_CONTROL=" + control}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	r := bufio.NewReader(stdout)
	if line, _ := r.ReadString('\n'); line != "ready\n" {
		t.Fatalf("window-check printed %q", line)
	}
	for !sleeping(cmd.Process.Pid) {
		time.Sleep(time.Millisecond)
	}
	s := Spec{control: control}
	if err := s.window(ctx, cmd.Process.Pid, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.window(ctx, cmd.Process.Pid, "test-3"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(control)
	if b[0] != 2 || string(b[8:15]) != "test-3\x00" {
		t.Errorf("control file % x, want 2 acks and the hint test-3", b[:16])
	}
	stdin.Write([]byte("x"))
	if line, _ := r.ReadString('\n'); line != "epoll_wait 1\n" {
		t.Errorf("window-check printed %q after the signals, want epoll_wait 1", line)
	}
	cmd.Wait()
}

// Under Valgrind jemalloc 4.x allocates in a mode of its own; the preload
// starts it, clears its in_valgrind and turns its thread cache on, so it
// takes its native paths.
func TestPreloadPutsJemalloc4OnItsNativePaths(t *testing.T) {
	lib, check, _ := buildChecks(t, "allocator-check", "-rdynamic")
	cmd := exec.Command(check)
	cmd.Env = []string{"LD_PRELOAD=" + lib}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("allocator-check: %v\n%s", err, out)
	}
	if want := "started 1 in_valgrind 0 opt.tcache 1 thread.tcache.enabled 1\n"; string(out) != want {
		t.Errorf("allocator-check printed %q, want %q", out, want)
	}
}

// buildChecks builds the preload and a check program (testdata/NAME.c,
// with extra gcc flags) into a fresh directory: the preload's path, the
// program's, and the directory.
func buildChecks(t *testing.T, name string, flags ...string) (lib, check, dir string) {
	t.Helper()
	dir = t.TempDir()
	lib, err := BuildFreezeClock(context.Background(), "gcc", dir)
	if err != nil {
		t.Fatal(err)
	}
	check = filepath.Join(dir, name)
	args := append(append([]string{"-O2"}, flags...), "-o", check, "testdata/"+name+".c")
	if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", name, err, out)
	}
	return lib, check, dir
}

// PreloadLine names the compiler that built the preload and the library's
// hash: a counting run's evidence of which build its server ran with.
func TestPreloadLineNamesTheCompilerAndHash(t *testing.T) {
	dir := t.TempDir()
	lib, err := BuildFreezeClock(context.Background(), "gcc", dir)
	if err != nil {
		t.Fatal(err)
	}
	line, err := PreloadLine(context.Background(), "gcc", lib)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^preload freezeclock\.so built by gcc .*[0-9]+\.[0-9]+.*, sha256 [0-9a-f]{64}$`).MatchString(line) {
		t.Errorf("preload line %q", line)
	}
	if _, err := PreloadLine(context.Background(), "gcc", filepath.Join(dir, "none.so")); err == nil {
		t.Error("no error for a missing library")
	}
}
