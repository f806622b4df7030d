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
	"strings"
	"sync"
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

// Cache wraps a Getter so every version is extracted at most once under Dir,
// and verifies every tree it hands out (Refusal): its src/version.h must
// name the version, and, with Releases set and a Getter that is a Resolver,
// no earlier version of Releases may resolve to the same source.
type Cache struct {
	Dir    string
	Getter Getter
	// Releases are the matrix's versions in release order.
	Releases []string

	mu      sync.Mutex
	checked bool
	shared  map[string]string // version -> earlier version of the same origin
	origins map[string]Origin
}

// resolveAll resolves every release once, to find versions sharing an origin.
func (c *Cache) resolveAll(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.Getter.(Resolver)
	if c.checked || !ok || c.Releases == nil {
		return nil
	}
	shared, origins, err := sharers(ctx, r, c.Releases)
	if err != nil {
		return err
	}
	c.shared, c.origins, c.checked = shared, origins, true
	return nil
}

// Shared maps each version that resolves to the same source as an earlier
// release to that release (empty until the first Get).
func (c *Cache) Shared() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.shared
}

// Stale says whether a tree recorded earlier (its Kind, Commit and SHA256,
// e.g. a recorded build's) is not what version resolves to now, e.g. a git
// tag the matrix has overridden since, or a version refused now. A tree of
// another kind of source than the one version resolves to now cannot be
// compared, nor can a nil Cache's: not stale.
func (c *Cache) Stale(ctx context.Context, version string, t Tree) (bool, error) {
	if c == nil {
		return false, nil
	}
	if err := c.resolveAll(ctx); err != nil {
		return false, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, refused := c.shared[version]; refused {
		return true, nil
	}
	return c.stale(version, t), nil
}

func (c *Cache) stale(version string, t Tree) bool {
	o, ok := c.origins[version]
	switch {
	case !ok || t.Kind != o.Kind:
		return false
	case t.Kind == "git":
		return t.Commit != o.ID
	case t.Kind == "tarball":
		return t.SHA256 != o.ID
	case t.Kind == "download":
		return strings.HasPrefix(o.ID, "sha256:") && "sha256:"+t.SHA256 != o.ID
	}
	return false
}

const marker = ".rcb-source.json"

// Get returns the verified tree of version from the cache, extracting it
// first if needed. A half-extracted tree (killed mid-way) has no marker and
// is redone, and so is a cached tree that is no longer what the version
// resolves to. A tree that is not the release is refused (a *Refusal) and
// removed.
func (c *Cache) Get(ctx context.Context, version string) (Tree, error) {
	if err := c.resolveAll(ctx); err != nil {
		return Tree{}, err
	}
	t, err := c.get(ctx, version)
	if err != nil {
		return Tree{}, err
	}
	if err := c.verify(version, t); err != nil {
		os.RemoveAll(t.Dir)
		if r, ok := IsRefusal(err); ok {
			r.Tree.Dir = ""
		}
		return Tree{}, err
	}
	return t, nil
}

func (c *Cache) get(ctx context.Context, version string) (Tree, error) {
	dir := filepath.Join(c.Dir, version)
	if b, err := os.ReadFile(filepath.Join(dir, marker)); err == nil {
		var t Tree
		if json.Unmarshal(b, &t) == nil && !c.stale(version, t) {
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
