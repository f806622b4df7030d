package source

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitReleases makes a repository of release commits: commit(v, tags...)
// commits a tree whose src/version.h says v and tags it with each of tags.
func gitReleases(t *testing.T) (repo string, commit func(says string, tags ...string) string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo = t.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com",
			"-c", "init.defaultBranch=6.2", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q")
	os.MkdirAll(filepath.Join(repo, "src"), 0o755)
	os.WriteFile(filepath.Join(repo, "src", "Makefile"), []byte("all:\n"), 0o644)
	return repo, func(says string, tags ...string) string {
		os.WriteFile(filepath.Join(repo, "src", "version.h"), []byte("#define REDIS_VERSION \""+says+"\"\n#define REDIS_VERSION_NUM 0x00060200\n"), 0o644)
		run("add", ".")
		run("commit", "-q", "--allow-empty", "-m", "Release Redis "+says)
		for _, tag := range tags {
			run("tag", "-a", tag, "-m", tag)
		}
		return run("rev-parse", "HEAD")
	}
}

// As in redis/redis: the tag 6.2.15 is on 6.2.14's commit, and the release's
// own commit (version.h 6.2.15) comes later on the branch, untagged.
func TestGitTagsOnOneCommitRefused(t *testing.T) {
	repo, commit := gitReleases(t)
	c14 := commit("6.2.14", "6.2.14", "6.2.15")
	real15 := commit("6.2.15")
	commit("6.2.16", "6.2.16")
	releases := []string{"6.2.14", "6.2.15", "6.2.16"}
	cache := &Cache{Dir: t.TempDir(), Getter: Git{Repo: repo}, Releases: releases}
	ctx := context.Background()

	if tree, err := cache.Get(ctx, "6.2.14"); err != nil || tree.Commit != c14 || tree.Ref != "6.2.14" {
		t.Fatalf("6.2.14: %+v, %v", tree, err)
	}
	_, err := cache.Get(ctx, "6.2.15")
	want := "6.2.15: tag 6.2.15 resolves to commit " + c14 + ", which 6.2.14 also resolves to (src/version.h says 6.2.14)"
	r, ok := IsRefusal(err)
	if !ok || err.Error() != want {
		t.Fatalf("6.2.15: err = %v, want the refusal %q", err, want)
	}
	if r.Version != "6.2.15" || r.Tree.Commit != c14 || r.Tree.Kind != "git" || r.Tree.Dir != "" {
		t.Errorf("refusal = %+v, want 6.2.15's tree at %s, not kept", r, c14)
	}
	if _, err := os.Stat(filepath.Join(cache.Dir, "6.2.15")); !os.IsNotExist(err) {
		t.Error("the refused tree was kept in the cache")
	}
	if got := cache.Shared(); len(got) != 1 || got["6.2.15"] != "6.2.14" {
		t.Errorf("Shared() = %v, want 6.2.15 -> 6.2.14", got)
	}

	// The matrix's override builds the release's own commit, recorded as the ref.
	over := &Cache{Dir: cache.Dir, Releases: releases, Getter: Git{Repo: repo, Overrides: map[string]string{"6.2.15": real15}}}
	tree, err := over.Get(ctx, "6.2.15")
	if err != nil || tree.Commit != real15 || tree.Ref != real15 || tree.Kind != "git" {
		t.Fatalf("6.2.15 overridden: %+v, %v; want commit and ref %s", tree, err, real15)
	}
	if v, _ := ReleaseVersion(tree.Dir); v != "6.2.15" {
		t.Errorf("the overridden tree says %q", v)
	}
	if len(over.Shared()) != 0 {
		t.Errorf("Shared() = %v with the override, want none", over.Shared())
	}

	// An override that is no commit of the repository is an error, not a tree.
	bad := &Cache{Dir: t.TempDir(), Releases: releases, Getter: Git{Repo: repo, Overrides: map[string]string{"6.2.15": strings.Repeat("0", 40)}}}
	if _, err := bad.Get(ctx, "6.2.16"); err == nil || !strings.Contains(err.Error(), `source_overrides: 6.2.15 = "`+strings.Repeat("0", 40)+`" is not a commit`) {
		t.Errorf("bad override: %v", err)
	}
}

// A tree cached from a tag is extracted again once the matrix overrides the
// tag: the cache hands out what the version resolves to now.
func TestGitCachedTreeFollowsOverride(t *testing.T) {
	repo, commit := gitReleases(t)
	tagged := commit("7.0.15", "7.0.15")
	fixed := commit("7.0.15")
	dir := t.TempDir()
	if tree, err := (&Cache{Dir: dir, Getter: Git{Repo: repo}}).Get(context.Background(), "7.0.15"); err != nil || tree.Commit != tagged {
		t.Fatalf("tag: %+v, %v", tree, err)
	}
	c := &Cache{Dir: dir, Releases: []string{"7.0.15"}, Getter: Git{Repo: repo, Overrides: map[string]string{"7.0.15": fixed}}}
	tree, err := c.Get(context.Background(), "7.0.15")
	if err != nil || tree.Commit != fixed || tree.Seconds == 0 {
		t.Errorf("after the override: %+v, %v; want commit %s extracted anew", tree, err, fixed)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "7.0.15", marker))
	var kept Tree
	if json.Unmarshal(b, &kept) != nil || kept.Commit != fixed {
		t.Errorf("cache marker %s, want commit %s", b, fixed)
	}
}

func TestTarballVersionRefused(t *testing.T) {
	dir := t.TempDir()
	// 6.2.15's tarball holds 6.2.14's tree; 7.0.15's is a byte-for-byte copy of 7.0.14's.
	mislabelled := release("6.2.14")
	for i := range mislabelled {
		mislabelled[i].name = strings.Replace(mislabelled[i].name, "redis-6.2.14", "redis-6.2.15", 1)
	}
	_, sum15 := writeTarGz(t, filepath.Join(dir, "redis-6.2.15.tar.gz"), mislabelled)
	_, sum14 := writeTarGz(t, filepath.Join(dir, "redis-7.0.14.tar.gz"), release("7.0.14"))
	b, _ := os.ReadFile(filepath.Join(dir, "redis-7.0.14.tar.gz"))
	os.WriteFile(filepath.Join(dir, "redis-7.0.15.tar.gz"), b, 0o644)
	c := &Cache{Dir: t.TempDir(), Getter: Tarballs{Dir: dir}, Releases: []string{"6.2.14", "6.2.15", "7.0.14", "7.0.15"}}
	ctx := context.Background()
	for version, want := range map[string]string{
		"6.2.15": "6.2.15: redis-6.2.15.tar.gz (sha256 " + sum15 + ") holds src/version.h of 6.2.14",
		"7.0.15": "7.0.15: redis-7.0.15.tar.gz has sha256 " + sum14 + ", which 7.0.14 also resolves to (src/version.h says 7.0.14)",
	} {
		_, err := c.Get(ctx, version)
		if _, ok := IsRefusal(err); !ok || err.Error() != want {
			t.Errorf("%s: err = %v, want the refusal %q", version, err, want)
		}
	}
	if _, err := c.Get(ctx, "7.0.14"); err != nil {
		t.Errorf("7.0.14: %v", err)
	}
	// A tree without a version.h is no release either.
	writeTarGz(t, filepath.Join(dir, "redis-7.4.1.tar.gz"), release("7.4.1")[:4])
	if _, err := c.Get(ctx, "7.4.1"); err == nil || !strings.Contains(err.Error(), "7.4.1: redis-7.4.1.tar.gz (sha256 ") || !strings.Contains(err.Error(), "no src/version.h") {
		t.Errorf("7.4.1 without version.h: %v", err)
	}
}

func TestDownloadSharedDigestRefused(t *testing.T) {
	d := Download{Hashes: map[string]Digest{
		"redis-3.2.7.tar.gz": {Algo: "sha256", Hex: "aa"},
		"redis-3.2.8.tar.gz": {Algo: "sha256", Hex: "aa"},
		"redis-3.2.9.tar.gz": {Algo: "sha256", Hex: "bb"},
	}}
	shared, _, err := sharers(context.Background(), d, []string{"3.2.7", "3.2.8", "3.2.9", "3.2.10"})
	if err != nil || len(shared) != 1 || shared["3.2.8"] != "3.2.7" {
		t.Errorf("sharers = %v, %v; want 3.2.8 -> 3.2.7 (3.2.10, not listed, left out)", shared, err)
	}
}

// A chain (the git clone, then a folder of tarballs for newer releases) checks
// what each of its sources does: tags on one commit are refused, and a build
// recorded from a tag the matrix overrides since is stale.
func TestChainRefusesSharedCommitsAndFollowsOverrides(t *testing.T) {
	repo, commit := gitReleases(t)
	c14 := commit("6.2.14", "6.2.14", "6.2.15")
	real15 := commit("6.2.15")
	tarballs := t.TempDir()
	writeTarGz(t, filepath.Join(tarballs, "redis-8.0.2.tar.gz"), release("8.0.2"))
	releases := []string{"6.2.14", "6.2.15", "8.0.2"}
	ctx := context.Background()

	tagged := &Cache{Dir: t.TempDir(), Releases: releases, Getter: Chain{Git{Repo: repo}, Tarballs{Dir: tarballs}}}
	if _, err := tagged.Get(ctx, "6.2.15"); err == nil || !strings.Contains(err.Error(), "which 6.2.14 also resolves to") {
		t.Errorf("6.2.15 through the chain: %v, want the shared-commit refusal", err)
	}
	if tree, err := tagged.Get(ctx, "8.0.2"); err != nil || tree.Kind != "tarball" {
		t.Errorf("8.0.2 through the chain: %+v, %v", tree, err)
	}

	over := &Cache{Dir: t.TempDir(), Releases: releases, Getter: Chain{Git{Repo: repo, Overrides: map[string]string{"6.2.15": real15}}, Tarballs{Dir: tarballs}}}
	for _, c := range []struct {
		tree Tree
		want bool
	}{
		{Tree{Kind: "git", Ref: "6.2.15", Commit: c14}, true},
		{Tree{Kind: "git", Ref: real15, Commit: real15}, false},
		{Tree{Kind: "tarball", Ref: "redis-6.2.15.tar.gz", SHA256: "aa"}, false}, // another kind: not compared
	} {
		if stale, err := over.Stale(ctx, "6.2.15", c.tree); err != nil || stale != c.want {
			t.Errorf("Stale(6.2.15, %+v) = %v, %v; want %v", c.tree, stale, err, c.want)
		}
	}
}
