package build

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
)

func TestSkipReplyReadsEveryReplyType(t *testing.T) {
	replies := "+OK\r\n-ERR unknown command\r\n:42\r\n$3\r\nabc\r\n$-1\r\n*2\r\n$1\r\na\r\n*1\r\n:1\r\n*-1\r\n+after\r\n"
	r := bufio.NewReader(strings.NewReader(replies))
	for i := 0; i < 7; i++ {
		if err := skipReply(r); err != nil {
			t.Fatalf("reply %d: %v", i, err)
		}
	}
	if err := skipReply(r); err != nil {
		t.Fatalf("the reply after the arrays: %v", err)
	}
	if rest, _ := r.ReadString('\n'); rest != "" {
		t.Errorf("left unread: %q", rest)
	}
}

// TestPGOBuildRealRedis makes a profile-guided build of Debian's Redis 7.0.15
// with each compiler: the instrumented server is trained, its profile's
// digest recorded, and the profile flags reach the final compile and link.
// About 6 minutes of both cores.
func TestPGOBuildRealRedis(t *testing.T) {
	slowRealBuild(t)
	pgoClang := clang
	pgoClang.Profdata = "llvm-profdata-19"
	for _, tt := range []struct {
		compiler config.Compiler
		use      string
	}{
		{gcc, "-fprofile-use="},
		{pgoClang, "-fprofile-instr-use="},
	} {
		t.Run(tt.compiler.Name, func(t *testing.T) {
			src := debianTree(t, "7.0.15")
			c := config.Cell{Version: "7.0.15", Compiler: tt.compiler, FlagSet: config.FlagSet{Name: "pgo", CFlags: "-O2 -flto", PGO: true}}
			r := realBuild(t, c, src)
			if r.PGOTraining != TrainingWorkload || len(r.PGOProfileSHA256) != 64 {
				t.Errorf("training %q, profile digest %q", r.PGOTraining, r.PGOProfileSHA256)
			}
			if !strings.HasPrefix(r.CFlags, "-O2 -flto "+tt.use) || !strings.Contains(r.LDFlags, tt.use) {
				t.Errorf("recorded flags %q / %q, want the cell's flags and %s", r.CFlags, r.LDFlags, tt.use)
			}
			log, err := os.ReadFile(r.LogPath)
			if err != nil {
				t.Fatal(err)
			}
			if err := Check(string(log), r.CFlags); err != nil {
				t.Errorf("final build: %v", err)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(r.LogPath), "build-instrumented.log")); err != nil {
				t.Errorf("the instrumented build's log is not kept: %v", err)
			}
			out, err := exec.Command(r.Binary, "--version").CombinedOutput()
			if err != nil || !strings.Contains(string(out), "v=7.0.15") {
				t.Errorf("%s --version: %v: %s", r.Binary, err, out)
			}
		})
	}
}

// A server instrumented by clang's profile runtime starts with the
// environment serverCommand gives it, even when, like Redis 2.8 to 4.0, it
// reads the environment array it cleared (testdata/fixture-copyenv.c): the
// runtime's setenv before main moved that array, so without
// ProfileRuntimeInitOnce it reads freed memory.
func TestServerCommandStartsAnInstrumentedServerThatCopiesItsEnvironment(t *testing.T) {
	if _, err := exec.LookPath("clang-19"); err != nil {
		t.Skip("clang-19 is not installed (apt-get install clang-19)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "copyenv")
	prof := "-fprofile-instr-generate=" + filepath.Join(dir, "p-%p.profraw")
	if out, err := exec.Command("clang-19", "-O2", prof, "-o", bin, "testdata/fixture-copyenv.c").CombinedOutput(); err != nil {
		t.Fatalf("clang-19: %v\n%s", err, out)
	}
	out, err := serverCommand(context.Background(), bin).Output()
	if err != nil || string(out) != "ok\n" {
		t.Errorf("with %s: %v, %q; want ok", ProfileRuntimeInitOnce, err, out)
	}
	raws, _ := filepath.Glob(filepath.Join(dir, "p-*.profraw"))
	if len(raws) != 1 {
		t.Errorf("%d profiles written, want 1", len(raws))
	}
	// Without it the runtime moves environ and the copy reads freed memory
	// (glibc's clearenv frees an array setenv allocated): the crash this avoids.
	// Freed memory may still read back whole, so this is only logged.
	if _, err := exec.Command(bin).Output(); err != nil {
		t.Logf("without %s: %v (the crash)", ProfileRuntimeInitOnce, err)
	}
}
