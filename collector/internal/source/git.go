package source

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Git builds releases from tags of a local git repository (bare or not).
type Git struct {
	Repo string
}

// Fetch exports the tree of tag <version> with `git archive` and records its commit.
func (g Git) Fetch(ctx context.Context, version, dst string) (Tree, error) {
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, "git", "-C", g.Repo, "rev-parse", "--verify", "--quiet", "refs/tags/"+version+"^{commit}")
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if errb.Len() > 0 {
			return Tree{}, fmt.Errorf("git repository %s: %s", g.Repo, firstLine(errb.String()))
		}
		return Tree{}, fmt.Errorf("%w: no tag %q in git repository %s", ErrUnknownVersion, version, g.Repo)
	}
	commit := strings.TrimSpace(out.String())
	archive := exec.CommandContext(ctx, "git", "-C", g.Repo, "archive", "--format=tar", commit)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return Tree{}, err
	}
	errb.Reset()
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
	return Tree{Kind: "git", Ref: version, Commit: commit}, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Has checks that the repository has the tag.
func (g Git) Has(version string) error {
	if err := exec.Command("git", "-C", g.Repo, "rev-parse", "--git-dir").Run(); err != nil {
		return fmt.Errorf("%s is not a readable git repository", g.Repo)
	}
	if err := exec.Command("git", "-C", g.Repo, "rev-parse", "--verify", "--quiet", "refs/tags/"+version+"^{commit}").Run(); err != nil {
		return fmt.Errorf("%w %q: no such tag in %s", ErrUnknownVersion, version, g.Repo)
	}
	return nil
}
