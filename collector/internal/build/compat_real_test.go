package build

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
)

// TestMatrixCompatRulesFixWhatTheyMatch compiles, with each compiler of the
// matrix, a server whose one source file fails as an old release does under
// today's compilers, through a Makefile that hands OPTIMIZATION to sh as
// Redis's does: the build must fail, match a [[compat]] rule of matrix.toml,
// and succeed on the retry with that rule's flags (a flag quoted for sh among
// them).
func TestMatrixCompatRulesFixWhatTheyMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles")
	}
	ref, err := config.Load("../../matrix.toml")
	if err != nil {
		t.Fatal(err)
	}
	// What 2.6.1's config.h does (its rule: glibc-version-macro), and a common
	// variable defined in two files as before 5.0.x (fcommon).
	sources := map[string]map[string]string{
		"glibc-version-macro": {"server.c": "#include <stdio.h>\n#if (1 && GLIBC_VERSION_AT_LEAST(2, 6))\nint main(void) { return 0; }\n#endif\n"},
		"fcommon":             {"server.c": "int shared;\nint main(void) { return shared; }\n", "other.c": "int shared;\n"},
	}
	for _, cc := range ref.Compilers {
		if _, err := exec.LookPath(cc.CC); err != nil {
			t.Logf("%s not on PATH", cc.CC)
			continue
		}
		for rule, files := range sources {
			t.Run(cc.Name+"/"+rule, func(t *testing.T) {
				src := filepath.Join(t.TempDir(), "redis-0.0.1")
				os.MkdirAll(filepath.Join(src, "src"), 0o755)
				mk := ".make-prerequisites:\n\t@touch $@\nredis-server:\n"
				for _, name := range slices.Sorted(maps.Keys(files)) {
					mk += "\t$(CC) $(OPTIMIZATION) -c " + name + "\n"
				}
				mk += "\t$(CC) $(REDIS_LDFLAGS) -o redis-server *.o\n"
				if err := os.WriteFile(filepath.Join(src, "src", "Makefile"), []byte(mk), 0o644); err != nil {
					t.Fatal(err)
				}
				for name, text := range files {
					if err := os.WriteFile(filepath.Join(src, "src", name), []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				cell := config.Cell{Version: "0.0.1", Compiler: cc, FlagSet: config.FlagSet{Name: "-O2", CFlags: "-O2"}}
				r, err := Build(context.Background(), Spec{Cell: cell, SourceDir: src, WorkDir: t.TempDir(), Jobs: 1,
					Compat: ref.Compat, Timeout: time.Minute})
				if err != nil {
					t.Fatal(err)
				}
				var want string
				for _, k := range ref.Compat {
					if k.Name == rule {
						want = k.CFlags
					}
				}
				if r.Status != "ok" || r.CompatFlags != want {
					t.Errorf("status %q with compat flags %q, want ok with %q (rule %s); error %q, log tail:\n%s",
						r.Status, r.CompatFlags, want, rule, r.Error, r.LogTail)
				}
			})
		}
	}
}
