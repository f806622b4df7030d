package source

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Deps are the versions of the dependencies a release ships in deps/, as
// the release's own files name them; "" where the release ships none or
// names none. A change of Deps between two releases is a cause of a
// figure's change outside Redis's own code.
type Deps struct {
	// Jemalloc is deps/jemalloc/VERSION: "4.4.0" for a tagged release
	// ("4.4.0-0-g..."), the whole line otherwise.
	Jemalloc string
	// Lua is deps/lua/src/lua.h's LUA_RELEASE without "Lua ", e.g. "5.1.5".
	Lua string
	// Hiredis is deps/hiredis/hiredis.h's HIREDIS_MAJOR.MINOR.PATCH, e.g. "0.11.0".
	Hiredis string
	// Linenoise, which names no version, is the first 12 hex digits of the
	// SHA-256 of deps/linenoise/linenoise.c.
	Linenoise string
}

var (
	luaRelease   = regexp.MustCompile(`(?m)^#define\s+LUA_RELEASE\s+"(?:Lua )?([^"]+)"`)
	hiredisPart  = regexp.MustCompile(`(?m)^#define\s+HIREDIS_(MAJOR|MINOR|PATCH)\s+(\d+)\s*$`)
	jemallocTag  = regexp.MustCompile(`^(.+)-0-g[0-9a-f]+$`)
	hiredisOrder = []string{"MAJOR", "MINOR", "PATCH"}
)

// ReadDeps reads the bundled dependencies' versions of the source tree dir.
func ReadDeps(dir string) Deps {
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(dir, "deps", rel))
		if err != nil {
			return ""
		}
		return string(b)
	}
	var d Deps
	if v := strings.TrimSpace(firstLine(read("jemalloc/VERSION"))); v != "" {
		if m := jemallocTag.FindStringSubmatch(v); m != nil {
			v = m[1]
		}
		d.Jemalloc = v
	}
	if m := luaRelease.FindStringSubmatch(read("lua/src/lua.h")); m != nil {
		d.Lua = m[1]
	}
	parts := map[string]string{}
	for _, m := range hiredisPart.FindAllStringSubmatch(read("hiredis/hiredis.h"), -1) {
		parts[m[1]] = m[2]
	}
	if len(parts) == len(hiredisOrder) {
		d.Hiredis = parts["MAJOR"] + "." + parts["MINOR"] + "." + parts["PATCH"]
	}
	if src := read("linenoise/linenoise.c"); src != "" {
		sum := sha256.Sum256([]byte(src))
		d.Linenoise = hex.EncodeToString(sum[:])[:12]
	}
	return d
}
