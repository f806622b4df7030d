package source

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// fakeMember has the versions in its map; Fetch reports which member served.
type fakeMember struct {
	name     string
	versions map[string]bool
	broken   error
}

func (f fakeMember) Has(version string) error {
	if f.broken != nil {
		return f.broken
	}
	if !f.versions[version] {
		return fmt.Errorf("%w %q", ErrUnknownVersion, version)
	}
	return nil
}

func (f fakeMember) Fetch(_ context.Context, version, _ string) (Tree, error) {
	return Tree{Kind: f.name, Ref: version}, nil
}

func TestChainTakesEachReleaseFromTheFirstSourceThatHasIt(t *testing.T) {
	git := fakeMember{name: "git", versions: map[string]bool{"7.4.1": true}}
	tarballs := fakeMember{name: "tarball", versions: map[string]bool{"7.4.1": true, "8.0.2": true}}
	c := Chain{git, tarballs}
	for version, want := range map[string]string{"7.4.1": "git", "8.0.2": "tarball"} {
		tree, err := c.Fetch(context.Background(), version, t.TempDir())
		if err != nil || tree.Kind != want {
			t.Errorf("%s: from %q (%v), want %s", version, tree.Kind, err, want)
		}
	}
	if err := c.Has("9.0.0"); !errors.Is(err, ErrUnknownVersion) {
		t.Errorf("a release no source has: %v, want ErrUnknownVersion", err)
	}
}

func TestChainStopsAtABrokenSource(t *testing.T) {
	broken := errors.New("/nowhere is not a readable git repository")
	c := Chain{fakeMember{name: "git", broken: broken}, fakeMember{name: "tarball", versions: map[string]bool{"8.0.2": true}}}
	if _, err := c.Fetch(context.Background(), "8.0.2", t.TempDir()); !errors.Is(err, broken) {
		t.Errorf("a broken first source: %v, want its error, not the next source's tree", err)
	}
}
