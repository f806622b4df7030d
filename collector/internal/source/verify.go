package source

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// Refusal is a source tree that is not the release it was asked for: its
// src/version.h names another version, or it resolves to the same source
// (git commit, tarball digest) as another version of the matrix. A refused
// version is recorded as a failed build with Reason and never measured.
type Refusal struct {
	Version string
	// Reason is one line naming both versions, e.g. "6.2.15: tag 6.2.15
	// resolves to commit 91863dd..., which 6.2.14 also resolves to
	// (src/version.h says 6.2.14)".
	Reason string
	// Tree is where the refused source came from (Dir empty: nothing kept).
	Tree Tree
}

func (r *Refusal) Error() string { return r.Reason }

// IsRefusal returns the refusal in err's chain, if any.
func IsRefusal(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}

// Origin is what a version resolves to before it is extracted: the source
// identity two versions must not share.
type Origin struct {
	// Kind is the kind of source (Tree.Kind: git, tarball or download).
	Kind string
	// ID is the identity compared between versions: the commit (git), the
	// tarball's sha256 (tarballs) or the upstream digest (download).
	ID string
	// Says names it in a refusal, e.g. "tag 6.2.15 resolves to commit 91863dd...".
	Says string
}

// Resolver is a Getter that can say what a version resolves to without
// extracting it.
type Resolver interface {
	Resolve(ctx context.Context, version string) (Origin, error)
}

var versionLine = regexp.MustCompile(`(?m)^#define REDIS_VERSION "([^"]*)"`)

// ReleaseVersion is the version a source tree says it is: REDIS_VERSION of
// its src/version.h.
func ReleaseVersion(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "src", "version.h"))
	if err != nil {
		return "", fmt.Errorf("no src/version.h: %w", err)
	}
	m := versionLine.FindSubmatch(b)
	if m == nil {
		return "", errors.New("src/version.h defines no REDIS_VERSION")
	}
	return string(m[1]), nil
}

// sharers maps each version of releases that resolves to the same origin
// as an earlier one to that earlier version. Versions the getter does not
// have are left out.
func sharers(ctx context.Context, r Resolver, releases []string) (map[string]string, map[string]Origin, error) {
	first := map[string]string{} // origin id -> first version resolving to it
	shared := map[string]string{}
	origins := map[string]Origin{}
	for _, v := range releases {
		o, err := r.Resolve(ctx, v)
		if errors.Is(err, ErrUnknownVersion) {
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("source %s: %w", v, err)
		}
		origins[v] = o
		if w, ok := first[o.ID]; ok {
			shared[v] = w
			continue
		}
		first[o.ID] = v
	}
	return shared, origins, nil
}

// verify refuses the tree of version when its version.h names another
// version or when it resolves to an earlier version's origin (earlier in
// the matrix's release order): one line names both.
func (c *Cache) verify(version string, t Tree) error {
	says, err := ReleaseVersion(t.Dir)
	if err != nil {
		return &Refusal{Version: version, Tree: t, Reason: fmt.Sprintf("%s: %s: %v", version, describe(t), err)}
	}
	if other, ok := c.shared[version]; ok {
		return &Refusal{Version: version, Tree: t, Reason: fmt.Sprintf("%s: %s, which %s also resolves to (src/version.h says %s)",
			version, c.origins[version].Says, other, says)}
	}
	if says != version {
		return &Refusal{Version: version, Tree: t, Reason: fmt.Sprintf("%s: %s holds src/version.h of %s", version, describe(t), says)}
	}
	return nil
}

// describe names where a tree came from, for a refusal.
func describe(t Tree) string {
	switch {
	case t.Commit != "" && t.Ref != t.Commit:
		return fmt.Sprintf("tag %s (commit %s)", t.Ref, t.Commit)
	case t.Commit != "":
		return "commit " + t.Commit
	case t.SHA256 != "":
		return fmt.Sprintf("%s (sha256 %s)", filepath.Base(t.Ref), t.SHA256)
	}
	return t.Ref
}
