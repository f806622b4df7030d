package source

import (
	"os"
	"path/filepath"
	"testing"
)

// depsFixture writes a deps/ tree with the version lines 3.2.7 ships (jemalloc 4.4.0, Lua 5.1.5,
// hiredis 0.11.0) and a stand-in linenoise.c.
func depsFixture(t *testing.T) string {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"jemalloc/VERSION":      "4.4.0-0-gf1f76357313e7dcad7262f17a48ff0a2e005fcdc\n",
		"lua/src/lua.h":         "#define LUA_VERSION\t\"Lua 5.1\"\n#define LUA_RELEASE\t\"Lua 5.1.5\"\n",
		"hiredis/hiredis.h":     "#define HIREDIS_MAJOR 0\n#define HIREDIS_MINOR 11\n#define HIREDIS_PATCH 0\n",
		"linenoise/linenoise.c": "/* fixture: stands in for linenoise.c */\n",
	} {
		path := filepath.Join(dir, "deps", name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReadDeps(t *testing.T) {
	got := ReadDeps(depsFixture(t))
	want := Deps{Jemalloc: "4.4.0", Lua: "5.1.5", Hiredis: "0.11.0", Linenoise: "cd970fe275db"}
	if got != want {
		t.Errorf("ReadDeps = %+v, want %+v", got, want)
	}
	if got := ReadDeps(t.TempDir()); got != (Deps{}) {
		t.Errorf("a tree without deps/: %+v, want nothing", got)
	}
	// A jemalloc between two tags keeps its whole description.
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "deps", "jemalloc"), 0o755)
	os.WriteFile(filepath.Join(dir, "deps", "jemalloc", "VERSION"), []byte("5.2.1-587-gabc123\n"), 0o644)
	if got := ReadDeps(dir); got != (Deps{Jemalloc: "5.2.1-587-gabc123"}) {
		t.Errorf("untagged jemalloc: %+v", got)
	}
}
