// Package source gets the source tree of a Redis release: from the official
// download site, from a directory of release tarballs, or from a local git
// repository's tag. Each version is extracted once into a cache directory.
package source

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Tree is an extracted, read-only source tree of one release and where it came from.
type Tree struct {
	Version  string `json:"version"`
	Dir      string `json:"dir"`
	Kind     string `json:"kind"` // "download", "tarball" or "git"
	Ref      string `json:"ref"`  // tarball name or URL, or git tag
	Commit   string `json:"commit,omitempty"`
	SHA256   string `json:"sha256,omitempty"`
	Verified bool   `json:"verified"`
	// Seconds is the time spent getting the tree now (0 when it came from the cache).
	Seconds float64 `json:"-"`
}

// Getter fetches (or finds) the raw source of one version and extracts it into dst.
type Getter interface {
	// Fetch extracts the release into dst (an empty directory) and describes it.
	Fetch(ctx context.Context, version, dst string) (Tree, error)
}

// Cache wraps a Getter so every version is extracted at most once under Dir.
type Cache struct {
	Dir    string
	Getter Getter
}

const marker = ".rcb-source.json"

// Get returns the cached tree of version, extracting it first if needed. A
// half-extracted tree (killed mid-way) has no marker and is redone.
func (c *Cache) Get(ctx context.Context, version string) (Tree, error) {
	dir := filepath.Join(c.Dir, version)
	if b, err := os.ReadFile(filepath.Join(dir, marker)); err == nil {
		var t Tree
		if json.Unmarshal(b, &t) == nil {
			t.Dir = dir
			return t, nil
		}
	}
	start := time.Now()
	if err := os.RemoveAll(dir); err != nil {
		return Tree{}, fmt.Errorf("source %s: clear cache: %w", version, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Tree{}, fmt.Errorf("source %s: %w", version, err)
	}
	t, err := c.Getter.Fetch(ctx, version, dir)
	if err != nil {
		os.RemoveAll(dir)
		return Tree{}, fmt.Errorf("source %s: %w", version, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "src", "Makefile")); err != nil {
		os.RemoveAll(dir)
		return Tree{}, fmt.Errorf("source %s: not a Redis source tree (no src/Makefile)", version)
	}
	t.Version, t.Dir = version, dir
	b, _ := json.Marshal(t)
	if err := writeFileAtomic(filepath.Join(dir, marker), b); err != nil {
		return Tree{}, fmt.Errorf("source %s: %w", version, err)
	}
	t.Seconds = time.Since(start).Seconds()
	return t, nil
}

func writeFileAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// ErrUnknownVersion is returned when a source has no such release.
var ErrUnknownVersion = errors.New("unknown version")
