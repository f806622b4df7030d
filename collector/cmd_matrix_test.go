package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// matrix add-releases edits the file in place and prints the added versions,
// the line the releases workflow passes on.
func TestMatrixAddReleasesEditsTheFileAndPrintsTheNewVersions(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("matrix.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, tags := filepath.Join(dir, "matrix.toml"), filepath.Join(dir, "tags")
	os.WriteFile(cfg, b, 0o644)
	os.WriteFile(tags, []byte("a\trefs/tags/7.4.1\nb\trefs/tags/7.4.2\nc\trefs/tags/7.4.2^{}\n"), 0o644)
	out, _, err := runCLI(t, "matrix", "add-releases", "-config", cfg, tags)
	if err != nil || out != "7.4.2\n" {
		t.Fatalf("add-releases: %q, %v", out, err)
	}
	edited, _ := os.ReadFile(cfg)
	if !strings.Contains(string(edited), `"7.2.6", "7.4.2", "8.0.6"]`) || !strings.Contains(string(edited), `client_version = "7.4.1"`) {
		t.Errorf("edited matrix:\n%s", edited)
	}
	// Again: nothing to add, nothing printed, the file as it was.
	out, _, err = runCLI(t, "matrix", "add-releases", "-config", cfg, tags)
	if again, _ := os.ReadFile(cfg); err != nil || out != "" || string(again) != string(edited) {
		t.Errorf("second add-releases: %q, %v", out, err)
	}
}
