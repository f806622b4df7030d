package source

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Git builds releases from tags of a local git repository (bare or not).
type Git struct {
	Repo string
	// Overrides maps a version whose tag is not the release (e.g. 6.2.15's
	// tag on 6.2.14's commit) to the full commit of the release
	// (matrix.toml source_overrides): that commit is built instead of the tag.
	Overrides map[string]string
}

// Resolve says which commit version is built from: its override, else its tag.
func (g Git) Resolve(ctx context.Context, version string) (Origin, error) {
	if sha, ok := g.Overrides[version]; ok {
		commit, err := g.revParse(ctx, sha+"^{commit}")
		if err != nil {
			return Origin{}, err
		}
		if commit == "" {
			return Origin{}, fmt.Errorf("source_overrides: %s = %q is not a commit of git repository %s", version, sha, g.Repo)
		}
		return Origin{Kind: "git", ID: commit, Says: fmt.Sprintf("commit %s (source_overrides)", commit)}, nil
	}
	commit, err := g.revParse(ctx, "refs/tags/"+version+"^{commit}")
	if err != nil {
		return Origin{}, err
	}
	if commit == "" {
		return Origin{}, fmt.Errorf("%w: no tag %q in git repository %s", ErrUnknownVersion, version, g.Repo)
	}
	return Origin{Kind: "git", ID: commit, Says: fmt.Sprintf("tag %s resolves to commit %s", version, commit)}, nil
}

// revParse is the object name rev resolves to, "" when the repository has none.
func (g Git) revParse(ctx context.Context, rev string) (string, error) {
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, "git", "-C", g.Repo, "rev-parse", "--verify", "--quiet", rev)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if errb.Len() > 0 {
			return "", fmt.Errorf("git repository %s: %s", g.Repo, firstLine(errb.String()))
		}
		return "", nil
	}
	return strings.TrimSpace(out.String()), nil
}

// Fetch exports the tree of version's commit (Resolve) with `git archive`
// and records it: Ref is the tag, or the commit when overridden.
func (g Git) Fetch(ctx context.Context, version, dst string) (Tree, error) {
	o, err := g.Resolve(ctx, version)
	if err != nil {
		return Tree{}, err
	}
	archive := exec.CommandContext(ctx, "git", "-C", g.Repo, "archive", "--format=tar", o.ID)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return Tree{}, err
	}
	var errb bytes.Buffer
	archive.Stderr = &errb
	if err := archive.Start(); err != nil {
		return Tree{}, fmt.Errorf("git archive: %w", err)
	}
	xerr := extractTar(pipe, dst, false)
	werr := archive.Wait()
	if werr != nil {
		return Tree{}, fmt.Errorf("git archive %s: %v %s", version, werr, firstLine(errb.String()))
	}
	if xerr != nil {
		return Tree{}, xerr
	}
	ref := version
	if _, ok := g.Overrides[version]; ok {
		ref = o.ID
	}
	return Tree{Kind: "git", Ref: ref, Commit: o.ID}, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Has checks that the repository has the version (its tag, or its override's commit).
func (g Git) Has(version string) error {
	if err := exec.Command("git", "-C", g.Repo, "rev-parse", "--git-dir").Run(); err != nil {
		return fmt.Errorf("%s is not a readable git repository", g.Repo)
	}
	if _, err := g.Resolve(context.Background(), version); err != nil {
		if errors.Is(err, ErrUnknownVersion) {
			return fmt.Errorf("%w %q: no such tag in %s", ErrUnknownVersion, version, g.Repo)
		}
		return err
	}
	return nil
}
