package build

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
)

// TestExtendedFlagSetsReachCompileAndLinkRealRedis builds Redis 8.0.2
// (Debian's source tarball, RCB_DEBIAN_TARBALLS) with matrix.toml's -O3 and
// -O3 -flto flag sets and each compiler, and reads each build log: the
// compile of server.c carries the flag set's -O and -flto flags and no
// other (8.0's Makefile adds -flto and -fno-omit-frame-pointer to an
// OPTIMIZATION of -O3 when make is given none), and the link of
// redis-server carries them too. It took 13 minutes on 2 cores beside a collection.
func TestExtendedFlagSetsReachCompileAndLinkRealRedis(t *testing.T) {
	slowRealBuild(t)
	m, err := config.Load("../../matrix.toml")
	if err != nil {
		t.Fatal(err)
	}
	var sets []config.FlagSet
	for _, f := range m.FlagSets {
		if f.Extended && !f.Stock && !f.PGO {
			sets = append(sets, f)
		}
	}
	if names := len(sets); names != 2 {
		t.Fatalf("matrix.toml has %d extended flag sets besides stock and pgo, want -O3 and -O3 -flto", names)
	}
	src := debianTree(t, "8.0.2")
	for _, cc := range []config.Compiler{gcc, clang} {
		for _, f := range sets {
			t.Run(cc.Name+"/"+f.Name, func(t *testing.T) {
				c := config.Cell{Version: "8.0.2", Compiler: cc, FlagSet: f}
				r := realBuild(t, c, src)
				log, err := os.ReadFile(r.LogPath)
				if err != nil {
					t.Fatal(err)
				}
				want := strings.Fields(f.CFlags)
				var compiled, linked bool
				for _, line := range strings.Split(string(log), "\n") {
					fields := strings.Fields(line)
					var opt []string
					for _, x := range fields {
						if (strings.HasPrefix(x, "-O") || strings.HasPrefix(x, "-flto")) && !slices.Contains(opt, x) {
							opt = append(opt, x)
						}
					}
					switch {
					case strings.Contains(line, " -c server.c"):
						compiled = true
						if !slices.Equal(opt, want) {
							t.Errorf("server.c compiled with %q, want %q:\n%s", opt, want, line)
						}
						if slices.Contains(fields, "-fno-omit-frame-pointer") {
							t.Errorf("server.c compiled with the Makefile's -fno-omit-frame-pointer:\n%s", line)
						}
					case strings.Contains(line, "-o redis-server "):
						linked = true
						if !slices.Equal(opt, want) {
							t.Errorf("redis-server linked with %q, want %q:\n%s", opt, want, line)
						}
					}
				}
				if !compiled || !linked {
					t.Errorf("the build log has the compile of server.c: %v, the link of redis-server: %v", compiled, linked)
				}
			})
		}
	}
}
