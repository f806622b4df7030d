package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// actionlint is the pinned actionlint the workflows are checked with, fetched
// through the Go module proxy (go run pkg@version leaves go.mod alone).
const actionlint = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12"

// Every workflow under .github/workflows passes actionlint (with
// .github/actionlint.yaml): expressions, job outputs, matrix references,
// action inputs, runner labels, and the shell of each run step when
// shellcheck is installed.
func TestWorkflowsPassActionlint(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command to run actionlint")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// A module that cannot be fetched (no proxy, no cache) skips, saying so;
	// anything else that fails is the workflows'.
	if out, err := goRun(root, "-version"); err != nil {
		t.Skipf("cannot fetch or build %s through the Go module proxy: %v\n%s", actionlint, err, out)
	}
	workflows, err := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.yml"))
	if err != nil || len(workflows) == 0 {
		t.Fatalf("no workflows under %s/.github/workflows: %v", root, err)
	}
	args := append([]string{"-config-file", filepath.Join(root, ".github", "actionlint.yaml")}, workflows...)
	if out, err := goRun(root, args...); err != nil {
		t.Errorf("actionlint: %v\n%s", err, out)
	}
}

// goRun runs the pinned actionlint in dir with args.
func goRun(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", append([]string{"run", actionlint}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}
