package config

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestReleaseTagsKeepsReleasesOnceInOrder(t *testing.T) {
	ls := "a1\trefs/tags/7.4.1\nb2\trefs/tags/7.4.1^{}\nc3\trefs/tags/7.4-rc1\nd4\trefs/tags/8.0.0\ne5\trefs/tags/2.6.10\nf6\trefs/tags/with-tag\n0a\trefs/tags/2.6.9\n"
	if got, want := ReleaseTags(ls), []string{"2.6.9", "2.6.10", "7.4.1", "8.0.0"}; !slices.Equal(got, want) {
		t.Errorf("ReleaseTags = %q, want %q", got, want)
	}
}

// The matrix's own lists, written back, are the file as it is.
func TestAddReleasesWithNothingNewKeepsTheMatrix(t *testing.T) {
	b, err := os.ReadFile("../../matrix.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := Parse(string(b), "matrix.toml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for name, value := range map[string]string{"versions": formatVersions(cfg.Versions), "releases": formatReleases(cfg.Releases)} {
		if !strings.Contains(text, name+" = "+value+"\n") {
			t.Errorf("%s written back is not the file's:\n%s", name, value)
		}
	}
	out, added, err := AddReleases(text, cfg.Releases)
	if err != nil || out != text || len(added) != 0 {
		t.Errorf("no new releases: added %q, %v, text changed %v", added, err, out != text)
	}
}

// New releases join their line (the newest patch becoming current), a new
// line starts, and the client stays the one the matrix had.
func TestAddReleasesMakesTheNewestPatchCurrentAndPinsTheClient(t *testing.T) {
	b, err := os.ReadFile("../../matrix.toml")
	if err != nil {
		t.Fatal(err)
	}
	tags := ReleaseTags("x\trefs/tags/7.4.2\nx\trefs/tags/7.2.7\nx\trefs/tags/8.0.0\nx\trefs/tags/8.0.0-rc1\nx\trefs/tags/7.4.1\nx\trefs/tags/2.4.18\n")
	out, added, err := AddReleases(string(b), tags)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"7.2.7", "7.4.2", "8.0.0"}; !slices.Equal(added, want) {
		t.Errorf("added %q, want %q (2.4.18 is older than the matrix)", added, want)
	}
	cfg, err := Parse(out, "new matrix")
	if err != nil {
		t.Fatal(err)
	}
	// 8.0.0 joins the 8.0 line (from Debian's tarballs), whose newest patch stays current.
	if got := cfg.Versions[len(cfg.Versions)-4:]; !slices.Equal(got, []string{"7.0.15", "7.2.7", "7.4.2", "8.0.6"}) {
		t.Errorf("current versions end %q", got)
	}
	if got := cfg.Releases[len(cfg.Releases)-5:]; !slices.Equal(got, []string{"7.4.1", "7.4.2", "8.0.0", "8.0.2", "8.0.6"}) {
		t.Errorf("releases end %q", got)
	}
	if cfg.Bench.ClientVersion != "7.4.1" {
		t.Errorf("client %s, want 7.4.1 as before", cfg.Bench.ClientVersion)
	}
	if !strings.Contains(out, "    \"7.4.0\", \"7.4.1\", \"7.4.2\",\n    \"8.0.0\", \"8.0.2\", \"8.0.6\"\n]") {
		t.Errorf("releases not written a line per row:\n%s", out[strings.Index(out, "releases = "):strings.Index(out, "deps_get_flags")])
	}
}
