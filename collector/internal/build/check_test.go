package build

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Real V=1 logs: a clang-19 "-O2 -flto" build of 2.6.17 (link with lld) and a
// gcc-12 "-Ofast" build by the collector (dependencies reused).
func readLog(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCheck(t *testing.T) {
	clang := readLog(t, "fixture-clang-19-O2-flto-2.6.17-build.log")
	gcc := readLog(t, "fixture-gcc-12-Ofast-2.6.17-build.log")
	// The same clang log with -flto dropped from the link line only.
	var noLTOLink []string
	for _, l := range strings.Split(clang, "\n") {
		if strings.Contains(l, "-o redis-server") {
			l = strings.Replace(l, "-O2 -flto -fuse-ld=lld", "-O2", 1)
		}
		noLTOLink = append(noLTOLink, l)
	}
	// Flags that only reach a dependency's compile do not count.
	depsOnly := "cc -O3 -c lua.c\ncc -O2 -c redis.c\ncc -O2 -o redis-server redis.o\n"
	tests := []struct {
		name, log, flags, wantErr string
	}{
		{"clang LTO", clang, "-O2 -flto", ""},
		{"clang LTO, lld on the link", clang, "-O2 -flto -fuse-ld=lld", "not found on the compile"},
		{"gcc -Ofast", gcc, "-Ofast", ""},
		{"flag order does not matter", clang, "-flto -O2", ""},
		{"other flags", clang, "-O3", `flags "-O3" not found on the compile of server.c/redis.c`},
		{"gcc log has no LTO", gcc, "-Ofast -flto", "not found on the compile"},
		{"link without LTO", strings.Join(noLTOLink, "\n"), "-O2 -flto", `flags "-O2 -flto" not found on the link of redis-server`},
		{"flags only on a dependency", depsOnly, "-O3", "not found on the compile"},
		{"a flag as a prefix of another is not the flag", "cc -flto=auto -c server.c\ncc -flto=auto -o redis-server x.o\n", "-flto", "not found on the compile"},
		{"7.x names: server.c", "cc -O2 -MMD -o server.o -c server.c\ncc -O2 -o redis-server server.o\n", "-O2", ""},
		{"empty log", "", "-O2", "not found on the compile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.log, tt.flags)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Check: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("Check = %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestLastError(t *testing.T) {
	log := "cc -c a.c\na.c:3: error: 'x' undeclared\nmake[1]: *** [Makefile:10: a.o] Error 1\nmake: *** [all] Error 2\n"
	if got := lastError(log); got != "a.c:3: error: 'x' undeclared" {
		t.Errorf("lastError = %q, want the compiler's error, not make's", got)
	}
	// make -C ends with "Leaving directory", which says nothing about the failure.
	if got := lastError("cc -c a.c\nKilled\nmake[1]: *** [a.o] Killed\nmake: Leaving directory '/w/src'\n"); got != "Killed" {
		t.Errorf("lastError without an error line = %q, want the last line that is not make's own", got)
	}
	if got := lastError("make: Leaving directory '/w/src'\n"); got != "make: Leaving directory '/w/src'" {
		t.Errorf("lastError of make's lines only = %q, want the last line", got)
	}
	// Parallel jobs interleave: clang's "1 warning generated." ran into make's line, and the
	// compiler's error comes before it.
	log = "In file included from ae.c:44:\n./config.h:60:40: error: function-like macro 'GLIBC_VERSION_AT_LEAST' is not defined\n" +
		"   60 | #if (LINUX_VERSION_CODE >= 0x020617 && GLIBC_VERSION_AT_LEAST(2, 6))\n1 error generated.\n" +
		"1make: *** [Makefile:183: ae.o] Error 1\nmake: *** Waiting for unfinished jobs....\n warning generated.\n"
	if got := lastError(log); got != "./config.h:60:40: error: function-like macro 'GLIBC_VERSION_AT_LEAST' is not defined" {
		t.Errorf("lastError of interleaved jobs = %q, want the compiler's error", got)
	}
}

func TestTail(t *testing.T) {
	if got := tail("a\nb\nc\n", 2); got != "b\nc" {
		t.Errorf("tail = %q", got)
	}
	if got := tail("a\nb\n", 5); got != "a\nb" {
		t.Errorf("tail of a short log = %q", got)
	}
}

func TestShellJoinRoundTripsThroughSh(t *testing.T) {
	args := []string{"-C", "src", "-j2", "V=1", "CC=clang-19", "OPTIMIZATION=-O2 -flto",
		"PREV_FINAL_CFLAGS=$(FINAL_CFLAGS)", "RANLIB=gcc-ar-12 s", "it's", `a"b`, "x;y", "*.o",
		"a\tb", `back\slash`, "a&b", "a|b", "<in", "#c", "~", "", "redis-server"}
	line := shellJoin(args)
	// sh splits the line into words; printf ends each with a NUL.
	out, err := exec.Command("sh", "-c", "set -- "+line+`; for a in "$@"; do printf '%s\0' "$a"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if !reflect.DeepEqual(got, args) {
		t.Errorf("sh read %q back as\n%q\nwant\n%q", line, got, args)
	}
	// Plain words stay readable.
	if got := shellJoin([]string{"-C", "src", "V=1", "CC=gcc-12", "OPTIMIZATION=-O2"}); got != "-C src V=1 CC=gcc-12 OPTIMIZATION=-O2" {
		t.Errorf("shellJoin quoted plain words: %q", got)
	}
}
