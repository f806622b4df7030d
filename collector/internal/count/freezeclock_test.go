package count

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
)

// The preload freezes the clock, hands the event loop one event per turn and
// makes a socket read wait for the rest of a request still being written:
// without the last two, the same requests took different turns and reads
// from run to run, and their counts differed by up to 1%.
func TestFreezeClockPreload(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	lib, err := BuildFreezeClock(ctx, "gcc", dir)
	if err != nil {
		t.Fatal(err)
	}
	check := filepath.Join(dir, "preload-check")
	if out, err := exec.Command("gcc", "-O2", "-o", check, "testdata/preload-check.c").CombinedOutput(); err != nil {
		t.Fatalf("build preload-check: %v\n%s", err, out)
	}
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
