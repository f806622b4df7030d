package source

import (
	"context"
	"errors"
	"fmt"
)

// Member is a source a Chain can hold: it fetches releases and says which it has.
type Member interface {
	Getter
	Has(version string) error
}

// Chain takes each release from the first of its sources that has it: e.g. a
// git clone for the releases it tags and a folder of tarballs for newer ones
// (Debian's source packages of 8.0, which the clone here does not reach). A
// source's other errors stop the search: a broken tarball is not skipped.
type Chain []Member

// Fetch extracts version from the first source that has it.
func (c Chain) Fetch(ctx context.Context, version, dst string) (Tree, error) {
	m, err := c.member(version)
	if err != nil {
		return Tree{}, err
	}
	return m.Fetch(ctx, version, dst)
}

// Has checks that some source of the chain has version.
func (c Chain) Has(version string) error {
	_, err := c.member(version)
	return err
}

// Resolve says what version resolves to in the first source that has it (a
// source that cannot say has it unknown): a chain checks, as each of its
// sources does, that no two versions share one origin.
func (c Chain) Resolve(ctx context.Context, version string) (Origin, error) {
	m, err := c.member(version)
	if err != nil {
		return Origin{}, err
	}
	r, ok := m.(Resolver)
	if !ok {
		return Origin{}, fmt.Errorf("%w: the source of %q cannot say what it resolves to", ErrUnknownVersion, version)
	}
	return r.Resolve(ctx, version)
}

func (c Chain) member(version string) (Member, error) {
	var errs []error
	for _, m := range c {
		err := m.Has(version)
		if err == nil {
			return m, nil
		}
		if !errors.Is(err, ErrUnknownVersion) {
			return nil, err
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("%w %q in none of the sources: %v", ErrUnknownVersion, version, errors.Join(errs...))
}
