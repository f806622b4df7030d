package source

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// countingGetter counts Fetch calls of the wrapped getter.
type countingGetter struct {
	Getter
	calls int
}

func (c *countingGetter) Fetch(ctx context.Context, version, dst string) (Tree, error) {
	c.calls++
	return c.Getter.Fetch(ctx, version, dst)
}

func TestCacheExtractsOnce(t *testing.T) {
	tarballs := t.TempDir()
	_, sum := writeTarGz(t, filepath.Join(tarballs, "redis-7.0.15.tar.gz"), release("7.0.15"))
	g := &countingGetter{Getter: Tarballs{Dir: tarballs}}
	c := &Cache{Dir: filepath.Join(t.TempDir(), "src"), Getter: g}
	first, err := c.Get(context.Background(), "7.0.15")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(c.Dir, "7.0.15")
	if first.Dir != dir || first.Version != "7.0.15" || first.SHA256 != sum || first.Kind != "tarball" || first.Seconds <= 0 {
		t.Errorf("first Get = %+v", first)
	}
	second, err := c.Get(context.Background(), "7.0.15")
	if err != nil {
		t.Fatal(err)
	}
	if g.calls != 1 {
		t.Errorf("%d fetches, want 1: the second Get must come from the cache", g.calls)
	}
	first.Seconds = 0
	if second != first {
		t.Errorf("cached Get = %+v, want %+v with Seconds 0", second, first)
	}

	// A tree killed mid-extraction has no marker: it is cleared and redone.
	if err := os.Remove(filepath.Join(dir, marker)); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "README.md"))
	os.WriteFile(filepath.Join(dir, "half-written.o"), nil, 0o644)
	redone, err := c.Get(context.Background(), "7.0.15")
	if err != nil || g.calls != 2 || redone.Seconds <= 0 {
		t.Fatalf("Get after a half extraction: %+v, %v, %d fetches", redone, err, g.calls)
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Error("the redone tree misses README.md")
	}
	if _, err := os.Stat(filepath.Join(dir, "half-written.o")); !os.IsNotExist(err) {
		t.Error("the half-extracted leftovers were kept")
	}
}

func TestCacheErrors(t *testing.T) {
	tarballs := t.TempDir()
	// Not a Redis tree: no src/Makefile.
	writeTarGz(t, filepath.Join(tarballs, "redis-1.0.0.tar.gz"), []entry{{name: "x-1.0.0/README", body: "hi"}})
	c := &Cache{Dir: t.TempDir(), Getter: Tarballs{Dir: tarballs}}
	_, err := c.Get(context.Background(), "1.0.0")
	if err == nil || err.Error() != "source 1.0.0: not a Redis source tree (no src/Makefile)" {
		t.Errorf("err = %v", err)
	}
	_, err = c.Get(context.Background(), "9.9.9")
	if !errors.Is(err, ErrUnknownVersion) || !strings.HasPrefix(err.Error(), "source 9.9.9: ") {
		t.Errorf("err = %v, want the version named and ErrUnknownVersion", err)
	}
	if ents, _ := os.ReadDir(c.Dir); len(ents) != 0 {
		t.Errorf("failed gets left %d directories in the cache", len(ents))
	}
}

// gitRepo makes a repository with one tagged release commit.
func gitRepo(t *testing.T) (repo, commit string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo = t.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com",
			"-c", "init.defaultBranch=unstable", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q")
	os.MkdirAll(filepath.Join(repo, "src"), 0o755)
	os.WriteFile(filepath.Join(repo, "src", "Makefile"), []byte("all:\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "src", "server.c"), []byte("int x;\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "src", "version.h"), []byte("#define REDIS_VERSION \"7.0.15\"\n"), 0o644)
	run("add", ".")
	run("commit", "-q", "-m", "Redis 7.0.15")
	run("tag", "-a", "7.0.15", "-m", "7.0.15") // an annotated tag, as Redis's are
	commit = run("rev-parse", "HEAD")
	os.WriteFile(filepath.Join(repo, "src", "server.c"), []byte("int y;\n"), 0o644)
	run("commit", "-q", "-am", "after the release")
	return repo, commit
}

func TestGit(t *testing.T) {
	repo, commit := gitRepo(t)
	g := Git{Repo: repo}
	dst := t.TempDir()
	tree, err := g.Fetch(context.Background(), "7.0.15", dst)
	if err != nil {
		t.Fatal(err)
	}
	if tree.Kind != "git" || tree.Ref != "7.0.15" || tree.Commit != commit {
		t.Errorf("tree = %+v, want git 7.0.15 at commit %s", tree, commit)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "src", "server.c")); string(b) != "int x;\n" {
		t.Errorf("src/server.c = %q, want the tagged content", b)
	}
	if err := g.Has("7.0.15"); err != nil {
		t.Errorf("Has(7.0.15) = %v", err)
	}
	if _, err := g.Fetch(context.Background(), "7.0.16", t.TempDir()); !errors.Is(err, ErrUnknownVersion) || !strings.Contains(err.Error(), `no tag "7.0.16"`) {
		t.Errorf("unknown tag: %v", err)
	}
	if err := g.Has("7.0.16"); !errors.Is(err, ErrUnknownVersion) {
		t.Errorf("Has(7.0.16) = %v", err)
	}
	missing := Git{Repo: filepath.Join(t.TempDir(), "nope")}
	if err := missing.Has("7.0.15"); err == nil || err.Error() != missing.Repo+" is not a readable git repository" {
		t.Errorf("missing repo: Has = %v", err)
	}
	if _, err := missing.Fetch(context.Background(), "7.0.15", t.TempDir()); err == nil || errors.Is(err, ErrUnknownVersion) || strings.Contains(err.Error(), "\n") {
		t.Errorf("missing repo: Fetch = %v, want a one-line error that is not 'unknown version'", err)
	}
}

func TestCacheWithGit(t *testing.T) {
	repo, commit := gitRepo(t)
	c := &Cache{Dir: t.TempDir(), Getter: Git{Repo: repo}}
	if _, err := c.Get(context.Background(), "7.0.15"); err != nil {
		t.Fatal(err)
	}
	tree, err := c.Get(context.Background(), "7.0.15")
	if err != nil || tree.Commit != commit || tree.Kind != "git" || tree.Seconds != 0 {
		t.Errorf("cached git tree = %+v, %v", tree, err)
	}
}
