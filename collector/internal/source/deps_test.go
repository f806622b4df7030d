package source

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadDeps(t *testing.T) {
	// 3.2.7's own deps/ files (lua.h and hiredis.h cut to their version lines).
	got := ReadDeps("testdata/fixture-deps-3.2.7")
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
