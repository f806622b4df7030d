package build

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/testenv"
)

// TestMatrixCompatRulesFixWhatTheyMatch compiles, with each compiler of the
// matrix, a server whose sources fail as an old release does under today's
// compilers and linkers, through a Makefile that hands OPTIMIZATION to sh as
// Redis's does: the first build must fail, and the retry with the flags of the
// [[compat]] rule of matrix.toml that the failure matches must build (a flag
// quoted for sh among them).
func TestMatrixCompatRulesFixWhatTheyMatch(t *testing.T) {
	testenv.Real(t, "compiles")
	ref, err := config.Load("../../matrix.toml")
	if err != nil {
		t.Fatal(err)
	}
	// What 2.6.1's config.h does, and a variable defined in two files as in
	// 5.0.0, linked by the system linker or, with clang's -flto, by lld.
	// Each server answers --version as release 0.0.1.
	common := map[string]string{"server.c": "#include <stdio.h>\nint shared;\nint main(void) { puts(\"Redis server v=0.0.1\"); return shared; }\n", "other.c": "int shared;\n"}
	glibc := map[string]string{"server.c": "#include <stdio.h>\n#if (1 && GLIBC_VERSION_AT_LEAST(2, 6))\nint main(void) { puts(\"Redis server v=0.0.1\"); return 0; }\n#endif\n"}
	cases := []struct {
		compiler, flags, rule string
		files                 map[string]string
	}{
		{"gcc", "-O2", "glibc-version-macro", glibc},
		{"clang", "-O2", "glibc-version-macro", glibc},
		{"gcc", "-O2", "fcommon", common},
		{"clang", "-O2", "fcommon", common},
		{"gcc", "-O2 -flto", "fcommon", common},
		{"clang", "-O2 -flto", "fcommon-lld", common},
	}
	for _, c := range cases {
		t.Run(c.compiler+" "+c.flags+" "+c.rule, func(t *testing.T) {
			i := slices.IndexFunc(ref.Compilers, func(cc config.Compiler) bool { return cc.Name == c.compiler })
			k := slices.IndexFunc(ref.Compat, func(k config.Compat) bool { return k.Name == c.rule })
			if i < 0 || k < 0 {
				t.Fatalf("matrix.toml has no compiler %s or no compat rule %s", c.compiler, c.rule)
			}
			cc := ref.Compilers[i]
			if _, err := exec.LookPath(cc.CC); err != nil {
				t.Skipf("%s not on PATH", cc.CC)
			}
			src := filepath.Join(t.TempDir(), "redis-0.0.1")
			os.MkdirAll(filepath.Join(src, "src"), 0o755)
			mk := ".make-prerequisites:\n\t@touch $@\nredis-server:\n"
			for _, name := range slices.Sorted(maps.Keys(c.files)) {
				mk += "\t$(CC) $(OPTIMIZATION) -c " + name + "\n"
			}
			mk += "\t$(CC) $(REDIS_LDFLAGS) -o redis-server *.o\n"
			if err := os.WriteFile(filepath.Join(src, "src", "Makefile"), []byte(mk), 0o644); err != nil {
				t.Fatal(err)
			}
			for name, text := range c.files {
				if err := os.WriteFile(filepath.Join(src, "src", name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cell := config.Cell{Version: "0.0.1", Compiler: cc, FlagSet: config.FlagSet{Name: c.flags, CFlags: c.flags}}
			r, err := Build(context.Background(), Spec{Cell: cell, SourceDir: src, WorkDir: t.TempDir(), Jobs: 1,
				Compat: ref.Compat, Timeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			log, _ := os.ReadFile(r.LogPath)
			if want := ref.Compat[k].CFlags; r.Status != "ok" || r.CompatFlags != want || !strings.Contains(string(log), "### build failed; retrying") {
				t.Errorf("status %q with compat flags %q, want ok with %q after a failed build; error %q, log:\n%s",
					r.Status, r.CompatFlags, want, r.Error, log)
			}
		})
	}
}
