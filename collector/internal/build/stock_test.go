package build

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
)

func stockCell(cc config.Compiler) config.Cell {
	return config.Cell{Version: "8.0.2", Compiler: cc, FlagSet: config.FlagSet{Name: "stock", Stock: true}}
}

// makefileTree is a source tree holding only src/Makefile with the given text.
func makefileTree(t *testing.T, makefile string) string {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "Makefile"), []byte(makefile), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestStockMakeArgsLeaveTheReleasesFlagsAlone(t *testing.T) {
	lto := makefileTree(t, "OPTIMIZATION?=-O3\nifeq ($(OPTIMIZATION),-O3)\n\tREDIS_CFLAGS+=-flto=auto\nendif\n")
	plain := makefileTree(t, "OPTIMIZATION?=-O2\n")
	for _, tt := range []struct {
		name   string
		spec   Spec
		compat []string
		want   string
	}{
		{"pre-7.2: nothing but the compiler", Spec{Cell: stockCell(clang), SourceDir: plain, Jobs: 2}, nil,
			"-C src -j2 V=1 CC=clang-19 'PREV_FINAL_CFLAGS=$(FINAL_CFLAGS)' 'PREV_FINAL_LDFLAGS=$(FINAL_LDFLAGS)' redis-server"},
		{"default LTO, gcc: nothing more", Spec{Cell: stockCell(gcc), SourceDir: lto, Jobs: 2}, nil,
			"-C src -j2 V=1 CC=gcc-12 'PREV_FINAL_CFLAGS=$(FINAL_CFLAGS)' 'PREV_FINAL_LDFLAGS=$(FINAL_LDFLAGS)' redis-server"},
		{"default LTO, clang: linked by lld through LDFLAGS", Spec{Cell: stockCell(clang), SourceDir: lto, Jobs: 2}, nil,
			"-C src -j2 V=1 CC=clang-19 LDFLAGS=-fuse-ld=lld 'PREV_FINAL_CFLAGS=$(FINAL_CFLAGS)' 'PREV_FINAL_LDFLAGS=$(FINAL_LDFLAGS)' redis-server"},
		{"compat flags through CFLAGS", Spec{Cell: stockCell(gcc), SourceDir: plain, Jobs: 2}, []string{"-fcommon"},
			"-C src -j2 V=1 CC=gcc-12 CFLAGS=-fcommon 'PREV_FINAL_CFLAGS=$(FINAL_CFLAGS)' 'PREV_FINAL_LDFLAGS=$(FINAL_LDFLAGS)' redis-server"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := shellJoin(MakeArgs(tt.spec, tt.compat)); got != tt.want {
				t.Errorf("make %s\nwant make %s", got, tt.want)
			}
		})
	}
}

func TestEffectiveFlagsReadsTheServersCompileAndLink(t *testing.T) {
	log := strings.Join([]string{
		"cc -std=c99 -O3 -c lapi.c",
		"gcc-12 -pedantic -DREDIS_STATIC='' -std=c11 -Wall -W -O3 -flto=auto -fno-omit-frame-pointer -g -ggdb -I../deps/hiredis -MMD -o server.o -c server.c",
		"gcc-12 -O3 -flto=auto -fno-omit-frame-pointer -g -ggdb -rdynamic -o redis-server adlist.o server.o ../deps/lua/src/liblua.a -lm -ldl -pthread",
	}, "\n")
	compile, link, err := EffectiveFlags(log)
	if err != nil || compile != "-O3 -flto=auto -fno-omit-frame-pointer" || link != "-O3 -flto=auto -fno-omit-frame-pointer" {
		t.Errorf("EffectiveFlags = %q, %q, %v", compile, link, err)
	}
	if _, _, err := EffectiveFlags("make: Nothing to be done"); err == nil {
		t.Error("a log without the server's compile gave no error")
	}
}

// TestStockBuildRealRedis builds Debian's Redis 7.0.15 (before 7.2: -O2) and
// 8.0.2 (from 7.2 on: -O3 with LTO and frame pointers) with no flags given,
// and checks that the flags the build records are the release's own defaults,
// read off the compile of server.c and the link of redis-server. clang's 8.0.2
// link goes through lld. About 5 minutes of both cores.
func TestStockBuildRealRedis(t *testing.T) {
	slowRealBuild(t)
	for _, tt := range []struct {
		version       string
		compiler      config.Compiler
		cflags, ldflg string
	}{
		{"7.0.15", gcc, "-O2", ""},
		{"8.0.2", gcc, "-O3 -flto=auto -fno-omit-frame-pointer", "-O3 -flto=auto -fno-omit-frame-pointer"},
		// The Makefile puts LDFLAGS (the collector's -fuse-ld=lld) before OPTIMIZATION on the link.
		{"8.0.2", clang, "-O3 -flto -fno-omit-frame-pointer", "-fuse-ld=lld -O3 -flto -fno-omit-frame-pointer"},
	} {
		t.Run(tt.version+"/"+tt.compiler.Name, func(t *testing.T) {
			src := debianTree(t, tt.version)
			c := stockCell(tt.compiler)
			c.Version = tt.version
			r := realBuild(t, c, src)
			if strings.Contains(r.MakeArgs, "OPTIMIZATION") || strings.Contains(r.MakeArgs, "REDIS_") {
				t.Errorf("a stock build gave make flags: %s", r.MakeArgs)
			}
			if !strings.HasPrefix(r.CFlags, tt.cflags) || strings.Contains(tt.cflags, "-O2") && strings.Contains(r.CFlags, "-flto") {
				t.Errorf("recorded compile flags %q, want the release's default %q", r.CFlags, tt.cflags)
			}
			if tt.ldflg != "" && r.LDFlags != tt.ldflg {
				t.Errorf("recorded link flags %q, want %q", r.LDFlags, tt.ldflg)
			}
			out, err := exec.Command(r.Binary, "--version").CombinedOutput()
			if err != nil || !strings.Contains(string(out), "v="+tt.version) {
				t.Errorf("%s --version: %v: %s", r.Binary, err, out)
			}
		})
	}
}
