package source

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseHashes(t *testing.T) {
	f, err := os.Open("testdata/fixture-redis-hashes-excerpt.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := ParseHashes(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 10 { // 11 hash lines, one release listed twice
		t.Errorf("%d digests, want 10", len(h))
	}
	want := map[string]Digest{
		"redis-2.6.17.tar.gz": {File: "redis-2.6.17.tar.gz", Algo: "sha1", Hex: "b5423e1c423d502074cbd0b21bd4e820409d2003",
			URL: "http://download.redis.io/releases/redis-2.6.17.tar.gz"},
		"redis-3.2.13.tar.gz": {File: "redis-3.2.13.tar.gz", Algo: "sha256", Hex: "862979c9853fdb1d275d9eb9077f34621596fec1843e3e7f2e2f09ce09a387ba",
			URL: "http://download.redis.io/releases/redis-3.2.13.tar.gz"},
		"redis-6.0-rc3.tar.gz": {File: "redis-6.0-rc3.tar.gz", Algo: "sha256", Hex: "aa5916b7ee9a7098032cb875f3f0bfb4405f6e2533d7f6284dfbca21f55fc289",
			URL: "http://download.redis.io/releases/redis-6.0-rc3.tar.gz"},
	}
	for name, d := range want {
		if h[name] != d {
			t.Errorf("%s: %+v, want %+v", name, h[name], d)
		}
	}
	// Upper-case digests and a missing URL are accepted.
	h, err = ParseHashes(strings.NewReader("hash redis-7.4.1.tar.gz sha256 ABCDEF\nhash short\n"))
	if err != nil || h["redis-7.4.1.tar.gz"] != (Digest{File: "redis-7.4.1.tar.gz", Algo: "sha256", Hex: "abcdef"}) || len(h) != 1 {
		t.Errorf("ParseHashes = %+v, %v", h, err)
	}
	if _, err := ParseHashes(strings.NewReader("# only comments\n\n")); err == nil || err.Error() != "no 'hash' lines found" {
		t.Errorf("a list without hash lines: err = %v", err)
	}
}

func TestLoadHashes(t *testing.T) {
	body, _ := os.ReadFile("testdata/fixture-redis-hashes-excerpt.txt")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/README" {
			http.NotFound(w, r)
			return
		}
		w.Write(body)
	}))
	defer srv.Close()
	for _, where := range []string{"testdata/fixture-redis-hashes-excerpt.txt", srv.URL + "/README"} {
		h, err := LoadHashes(context.Background(), where)
		if err != nil || len(h) != 10 {
			t.Errorf("LoadHashes(%s): %d digests, %v", where, len(h), err)
		}
	}
	for where, want := range map[string]string{
		srv.URL + "/missing":            "HTTP 404 Not Found",
		filepath.Join(t.TempDir(), "x"): "no such file",
		"testdata":                      "is a directory",
	} {
		if _, err := LoadHashes(context.Background(), where); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("LoadHashes(%s) = %v, want an error containing %q", where, err, want)
		}
	}
}

// entry is one member of a test archive.
type entry struct {
	name, body string
	typ        byte
	link       string
}

// release is a minimal Redis release tree as the download site packs it.
func release(v string) []entry {
	return []entry{
		{name: "redis-" + v + "/", typ: tar.TypeDir},
		{name: "redis-" + v + "/src/", typ: tar.TypeDir},
		{name: "redis-" + v + "/src/Makefile", body: "all:\n"},
		{name: "redis-" + v + "/src/server.c", body: "int main(void) { return 0; }\n"},
		{name: "redis-" + v + "/src/version.h", body: "#define REDIS_VERSION \"" + v + "\"\n"},
		{name: "redis-" + v + "/README.md", body: "Redis " + v + "\n"},
		{name: "redis-" + v + "/runtest", body: "#!/bin/sh\n"},
	}
}

// writeTarGz writes entries as a .tar.gz and returns its sha1 and sha256.
func writeTarGz(t *testing.T, path string, entries []entry) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Typeflag: e.typ, Mode: 0o644, Size: int64(len(e.body)), Linkname: e.link}
		if e.typ == 0 {
			h.Typeflag = tar.TypeReg
		}
		if h.Typeflag != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte(e.body))
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s1, s256 := sha1.Sum(buf.Bytes()), sha256.Sum256(buf.Bytes())
	return hex.EncodeToString(s1[:]), hex.EncodeToString(s256[:])
}

func TestTarballsFetch(t *testing.T) {
	dir := t.TempDir()
	sha1hex, sha256hex := writeTarGz(t, filepath.Join(dir, "redis-7.0.15.tar.gz"), release("7.0.15"))
	_, debian256 := writeTarGz(t, filepath.Join(dir, "redis_6.0.20.orig.tar.gz"), release("6.0.20"))
	digest := func(algo, hex string) map[string]Digest {
		return map[string]Digest{"redis-7.0.15.tar.gz": {File: "redis-7.0.15.tar.gz", Algo: algo, Hex: hex}}
	}

	t.Run("verified with sha256", func(t *testing.T) {
		dst := t.TempDir()
		tree, err := Tarballs{Dir: dir, Hashes: digest("sha256", sha256hex)}.Fetch(context.Background(), "7.0.15", dst)
		if err != nil {
			t.Fatal(err)
		}
		want := Tree{Kind: "tarball", Ref: "redis-7.0.15.tar.gz", SHA256: sha256hex, Verified: true}
		if tree != want {
			t.Errorf("tree = %+v, want %+v", tree, want)
		}
		b, err := os.ReadFile(filepath.Join(dst, "src", "server.c"))
		if err != nil || !strings.Contains(string(b), "int main") {
			t.Errorf("src/server.c not extracted with the top directory stripped: %v", err)
		}
	})
	t.Run("verified with sha1 (old releases)", func(t *testing.T) {
		tree, err := Tarballs{Dir: dir, Hashes: digest("sha1", sha1hex)}.Fetch(context.Background(), "7.0.15", t.TempDir())
		if err != nil || !tree.Verified || tree.SHA256 != sha256hex {
			t.Errorf("tree %+v, %v: want verified, sha256 recorded", tree, err)
		}
	})
	t.Run("checksum mismatch refused", func(t *testing.T) {
		dst := t.TempDir()
		bad := strings.Repeat("0", 64)
		_, err := Tarballs{Dir: dir, Hashes: digest("sha256", bad)}.Fetch(context.Background(), "7.0.15", dst)
		want := "checksum mismatch for redis-7.0.15.tar.gz: sha256 " + sha256hex + ", upstream says " + bad
		if err == nil || err.Error() != want {
			t.Errorf("err = %v, want %q", err, want)
		}
		if ents, _ := os.ReadDir(dst); len(ents) != 0 {
			t.Errorf("a refused tarball was extracted: %d entries", len(ents))
		}
	})
	t.Run("unknown algorithm refused", func(t *testing.T) {
		_, err := Tarballs{Dir: dir, Hashes: digest("md5", "00")}.Fetch(context.Background(), "7.0.15", t.TempDir())
		if err == nil || !strings.Contains(err.Error(), `unknown algorithm "md5"`) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("not in the list refused", func(t *testing.T) {
		hashes := map[string]Digest{"redis-7.4.1.tar.gz": {File: "redis-7.4.1.tar.gz", Algo: "sha256", Hex: "ab"}}
		_, err := Tarballs{Dir: dir, Hashes: hashes}.Fetch(context.Background(), "7.0.15", t.TempDir())
		if err == nil || err.Error() != "redis-7.0.15.tar.gz is not in the redis-hashes list: refusing an unverifiable tarball" {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("Debian's repacked tarball, no list: unverified", func(t *testing.T) {
		tree, err := Tarballs{Dir: dir}.Fetch(context.Background(), "6.0.20", t.TempDir())
		want := Tree{Kind: "tarball", Ref: "redis_6.0.20.orig.tar.gz", SHA256: debian256}
		if err != nil || tree != want {
			t.Errorf("tree = %+v, %v; want %+v", tree, err, want)
		}
	})
	t.Run("missing version", func(t *testing.T) {
		_, err := Tarballs{Dir: dir}.Fetch(context.Background(), "7.4.1", t.TempDir())
		if !errors.Is(err, ErrUnknownVersion) || !strings.Contains(err.Error(), "no redis-7.4.1.tar.gz in "+dir) {
			t.Errorf("err = %v", err)
		}
		if err := (Tarballs{Dir: dir}).Has("7.4.1"); !errors.Is(err, ErrUnknownVersion) {
			t.Errorf("Has(7.4.1) = %v", err)
		}
		for _, v := range []string{"7.0.15", "6.0.20"} {
			if err := (Tarballs{Dir: dir}).Has(v); err != nil {
				t.Errorf("Has(%s) = %v", v, err)
			}
		}
	})
}

func TestExtractRefusesEscapes(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(root, "outside")
	os.Mkdir(outside, 0o755)
	dst := filepath.Join(root, "out")
	tests := []struct {
		name  string
		extra entry
		want  string
	}{
		{"dot-dot path", entry{name: "redis-7.0.15/../../outside/x", body: "x"}, `archive entry "redis-7.0.15/../../outside/x" escapes the target directory`},
		{"absolute symlink", entry{name: "redis-7.0.15/src/up", typ: tar.TypeSymlink, link: outside}, `symlink "redis-7.0.15/src/up" points outside the target directory`},
		{"relative symlink out", entry{name: "redis-7.0.15/src/up", typ: tar.TypeSymlink, link: "../../outside"}, `symlink "redis-7.0.15/src/up" points outside`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(root, tt.name+".tar.gz")
			// After the symlink, a file written through it would land outside.
			writeTarGz(t, p, append(release("7.0.15"), tt.extra, entry{name: "redis-7.0.15/src/up/x", body: "pwned"}))
			os.RemoveAll(dst)
			err := extractTarGz(p, dst)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
			if _, err := os.Stat(filepath.Join(outside, "x")); err == nil {
				t.Error("a file was written outside the target directory")
			}
		})
	}
	// A symlink that stays inside the tree is kept.
	p := filepath.Join(root, "redis-7.0.15.tar.gz")
	writeTarGz(t, p, append(release("7.0.15"), entry{name: "redis-7.0.15/src/Makefile.link", typ: tar.TypeSymlink, link: "Makefile"}))
	if err := extractTarGz(p, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	if l, err := os.Readlink(filepath.Join(root, "out", "src", "Makefile.link")); err != nil || l != "Makefile" {
		t.Errorf("inner symlink: %q, %v", l, err)
	}
}

func TestExtractBrokenArchives(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.tar.gz")
	writeTarGz(t, empty, []entry{{name: "redis-7.0.15/", typ: tar.TypeDir}})
	if err := extractTarGz(empty, t.TempDir()); err == nil || err.Error() != "archive has no files" {
		t.Errorf("empty archive: %v", err)
	}
	notGz := filepath.Join(dir, "redis-7.0.15.tar.gz")
	os.WriteFile(notGz, []byte("<html>404</html>"), 0o644)
	if err := extractTarGz(notGz, t.TempDir()); err == nil || !strings.HasPrefix(err.Error(), "redis-7.0.15.tar.gz: gzip:") {
		t.Errorf("not gzip: %v", err)
	}
}

func TestDownload(t *testing.T) {
	src := t.TempDir()
	_, good := writeTarGz(t, filepath.Join(src, "redis-7.0.15.tar.gz"), release("7.0.15"))
	writeTarGz(t, filepath.Join(src, "redis-7.4.1.tar.gz"), release("7.4.1"))
	var requests int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		http.FileServer(http.Dir(src)).ServeHTTP(w, r)
	}))
	defer srv.Close()
	hashes := map[string]Digest{
		"redis-7.0.15.tar.gz": {Algo: "sha256", Hex: good},
		"redis-7.4.1.tar.gz":  {Algo: "sha256", Hex: strings.Repeat("1", 64)},
		"redis-6.0.0.tar.gz":  {Algo: "sha256", Hex: good},
	}
	d := Download{BaseURL: srv.URL + "/", Dir: filepath.Join(t.TempDir(), "tarballs"), Hashes: hashes}
	tree, err := d.Fetch(context.Background(), "7.0.15", t.TempDir())
	if err != nil || !tree.Verified || tree.Kind != "download" || tree.Ref != srv.URL+"/redis-7.0.15.tar.gz" {
		t.Fatalf("tree %+v, %v", tree, err)
	}
	if _, err := d.Fetch(context.Background(), "7.0.15", t.TempDir()); err != nil || requests != 1 {
		t.Errorf("second fetch: %v, %d requests; want the kept tarball reused", err, requests)
	}
	if _, err := d.Fetch(context.Background(), "7.4.1", t.TempDir()); err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Errorf("corrupt download: %v", err)
	}
	if _, err := os.Stat(filepath.Join(d.Dir, "redis-7.4.1.tar.gz")); !os.IsNotExist(err) {
		t.Error("a tarball that failed verification was kept")
	}
	if _, err := d.Fetch(context.Background(), "6.0.0", t.TempDir()); err == nil || !strings.Contains(err.Error(), "HTTP 404") {
		t.Errorf("missing on the server: %v", err)
	}
	if err := d.Has("7.2.6"); !errors.Is(err, ErrUnknownVersion) {
		t.Errorf("Has(7.2.6) = %v", err)
	}
	if _, err := d.Fetch(context.Background(), "7.2.6", t.TempDir()); !errors.Is(err, ErrUnknownVersion) {
		t.Errorf("Fetch(7.2.6) = %v", err)
	}
	if ents, _ := os.ReadDir(d.Dir); len(ents) != 1 {
		t.Errorf("download dir holds %d files, want only the verified tarball (no temporary files)", len(ents))
	}
}
