package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/runner"
)

var update = flag.Bool("update", false, "rewrite the golden files from the current output")

// runCLI runs the command line with buffers, as main does.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	for i, a := range args {
		if a == "matrix.toml" && i > 0 && args[i-1] == "-config" {
			args[i] = referenceMatrix(t)
		}
	}
	var o, e bytes.Buffer
	err = run(context.Background(), args, &o, &e)
	return o.String(), e.String(), err
}

// referenceMatrix is matrix.toml without its extended flag sets: the
// matrix of the 12 reference configurations the command tests' figures
// and golden files are about.
func referenceMatrix(t *testing.T) string {
	t.Helper()
	text, err := os.ReadFile("matrix.toml")
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(text), "[[flag_sets]]")
	kept := blocks[0]
	for _, b := range blocks[1:] {
		if !strings.Contains(strings.SplitN(b, "\n\n", 2)[0], "extended = true") {
			kept += "[[flag_sets]]" + b
		} else if rest := strings.SplitN(b, "\n\n", 2); len(rest) == 2 {
			kept += "\n" + rest[1]
		}
	}
	path := filepath.Join(t.TempDir(), "matrix.toml")
	if err := os.WriteFile(path, []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n%s", path, got)
	}
}

func TestCommandErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("versions = [\"7.4.1\"\njobs = 2\n"), 0o644)
	tarballs := t.TempDir()
	os.WriteFile(filepath.Join(tarballs, "redis-7.4.1.tar.gz"), []byte("x"), 0o644)
	// A one-cell matrix whose only compiler is cc: one missing from PATH, and one (sh) that is
	// there, so that run gets past its compiler check.
	matrixWith := func(cc string) string {
		path := filepath.Join(t.TempDir(), "matrix.toml")
		os.WriteFile(path, []byte(fmt.Sprintf(`versions = ["7.4.1"]
[[compilers]]
name = "gcc"
cc = %q
[[flag_sets]]
name = "-O2"
[[benchmark.modes]]
name = "data"
args = ["--csv"]
`, cc)), 0o644)
		return path
	}
	noCC, anyCC := matrixWith("no-such-gcc-99"), matrixWith("sh")
	data, work := filepath.Join(t.TempDir(), "data"), filepath.Join(t.TempDir(), "work")
	dirs := []string{"-data", data, "-work", work}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no arguments", nil, "no command"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"; run 'collector help' for the commands`},
		{"unknown hardware class in plan, no machines", []string{"plan", "-config", "matrix.toml", "-data", data, "-hardware", "Nobody, 2 cores"},
			`hardware class "Nobody, 2 cores" is not in the data (no machine recorded yet; "all" counts every machine)`},
		{"unknown flag", []string{"plan", "-frob"}, "flag provided but not defined: -frob"},
		{"bad shard", []string{"plan", "-config", "matrix.toml", "-data", data, "-shard", "4/4"}, `bad shard "4/4": want i/n with 0 <= i < n`},
		{"bad shard syntax", []string{"plan", "-config", "matrix.toml", "-data", data, "-shard", "1/2/3"}, `bad shard "1/2/3"`},
		{"unknown version", []string{"plan", "-config", "matrix.toml", "-data", data, "-versions", "7.4.1,9.0.0"}, `unknown version "9.0.0" (not in /`},
		{"negative repeats", []string{"plan", "-config", "matrix.toml", "-data", data, "-repeats", "-1"}, "-repeats must be >= 1"},
		{"malformed config", []string{"plan", "-config", bad, "-data", data}, "config " + bad + ": line 2: expected a comma"},
		{"missing config", []string{"plan", "-config", filepath.Join(work, "none.toml"), "-data", data}, "read config: open "},
		{"unexpected argument", append([]string{"run", "-config", "matrix.toml", "extra"}, dirs...), `unexpected argument "extra"`},
		{"git source without a repository", append([]string{"run", "-config", "matrix.toml", "-source", "git"}, dirs...), "-source git needs -git <repository>"},
		{"git source, missing repository", append([]string{"run", "-config", "matrix.toml", "-source", "git", "-git", filepath.Join(work, "no-repo")}, dirs...),
			filepath.Join(work, "no-repo") + " is not a readable git repository"},
		{"tarballs source without a directory", append([]string{"run", "-config", "matrix.toml", "-source", "tarballs"}, dirs...), "-source tarballs needs -tarballs <directory>"},
		{"tarballs source, missing directory", append([]string{"run", "-config", "matrix.toml", "-source", "tarballs", "-tarballs", filepath.Join(work, "none")}, dirs...), "tarball directory: open "},
		{"tarballs source, missing version", append([]string{"run", "-config", "matrix.toml", "-source", "tarballs", "-tarballs", tarballs, "-versions", "2.6.17"}, dirs...),
			`unknown version "2.6.17": no redis-2.6.17.tar.gz in ` + tarballs},
		{"no source", append([]string{"run", "-config", "matrix.toml"}, dirs...), "run" + sourceChoices},
		{"download without hashes", append([]string{"run", "-config", "matrix.toml", "-source", "download"}, dirs...), "-source download needs -hashes"},
		{"unreadable hashes", append([]string{"run", "-config", "matrix.toml", "-hashes", filepath.Join(work, "none")}, dirs...), "hashes: open "},
		{"bad redo time", append([]string{"run", "-config", "matrix.toml", "-redo-before", "yesterday"}, dirs...), `want a time like 2026-11-22T04:55:00Z, got "yesterday"`},
		{"unknown source", append([]string{"run", "-config", "matrix.toml", "-source", "ftp"}, dirs...), `unknown -source "ftp" (want download, tarballs or git)`},
		{"missing compiler", append([]string{"run", "-config", noCC, "-source", "tarballs", "-tarballs", tarballs}, dirs...), `compiler gcc: "no-such-gcc-99" not found on PATH`},
		{"unknown hardware class", append([]string{"run", "-config", anyCC, "-source", "tarballs", "-tarballs", tarballs, "-hardware-class", "Nobody, 2 cores"}, dirs...),
			`hardware class "Nobody, 2 cores": no machine in the data has it`},
		{"merge without -out", []string{"merge", data}, "usage: collector merge -out DIR IN_DIR..."},
		{"merge without inputs", []string{"merge", "-out", data}, "usage: collector merge -out DIR IN_DIR..."},
		{"merge, missing input", []string{"merge", "-out", data, filepath.Join(work, "none")}, "merge input: stat "},
		{"recover without inputs", []string{"recover", "-data", data}, "usage: collector recover"},
		{"recover, missing input", []string{"recover", "-data", data, filepath.Join(work, "none")}, "recover input: stat "},
		{"recover into an empty dataset", []string{"recover", "-data", data, work}, "recover: no runs in " + data},
		{"recover, bad redo time", []string{"recover", "-data", data, "-redo-before", "now", work}, `want a time like 2026-11-22T04:55:00Z, got "now"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runCLI(t, tt.args...)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want one line containing %q", err, tt.want)
			}
		})
	}
	// Nothing was collected, so nothing may have been written.
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("failed commands created the data directory: %v", err)
	}
}

// -ccache without ccache on PATH stops before anything is built or written.
func TestCcacheMissingIsAOneLineError(t *testing.T) {
	tarballs := t.TempDir()
	os.WriteFile(filepath.Join(tarballs, "redis-7.4.1.tar.gz"), []byte("x"), 0o644)
	data, work := filepath.Join(t.TempDir(), "data"), filepath.Join(t.TempDir(), "work")
	t.Setenv("PATH", t.TempDir())
	_, _, err := runCLI(t, "count", "-config", "matrix.toml", "-versions", "7.4.1", "-source", "tarballs", "-tarballs", tarballs,
		"-data", data, "-work", work, "-ccache")
	if err == nil || err.Error() != "-ccache: ccache is not on PATH (apt-get install ccache)" {
		t.Fatalf("error %v, want the one-line -ccache error", err)
	}
	for _, dir := range []string{data, work} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s created: %v", dir, err)
		}
	}
}

// An unknown command is one line that says where help is, not the usage.
func TestUnknownCommandIsOneErrorLine(t *testing.T) {
	out, stderr, err := runCLI(t, "frobnicate")
	if err == nil || out != "" || stderr != "" {
		t.Errorf("stdout %q, stderr %q, error %v; want only the error", out, stderr, err)
	}
}

// run with no source names every choice, in one line, and nothing else.
func TestRunWithoutSourceNamesTheChoices(t *testing.T) {
	_, stderr, err := runCLI(t, "run", "-config", "matrix.toml", "-data", filepath.Join(t.TempDir(), "data"), "-work", t.TempDir())
	if err == nil || stderr != "" {
		t.Fatalf("error %v, stderr %q", err, stderr)
	}
	for _, choice := range []string{"-source git -git REPO", "-source tarballs -tarballs DIR", "-source download -hashes LIST"} {
		if !strings.Contains(err.Error(), choice) {
			t.Errorf("error %q does not name %q", err, choice)
		}
	}
}

func TestUsageAndHelp(t *testing.T) {
	_, stderr, _ := runCLI(t)
	if !strings.HasPrefix(stderr, "usage: collector <command>") {
		t.Errorf("no arguments: stderr %q, want the usage", stderr)
	}
	for _, args := range [][]string{{"help"}, {"-h"}} {
		out, _, err := runCLI(t, args...)
		if err != nil || !strings.Contains(out, "  plan    print the matrix") {
			t.Errorf("%v: %v, stdout %q", args, err, out)
		}
	}
	// A command's -h prints its flags and is not an error.
	for _, cmd := range []string{"run", "plan", "merge", "stats"} {
		_, stderr, err := runCLI(t, cmd, "-h")
		if err != nil || !strings.Contains(stderr, "Usage of "+cmd) {
			t.Errorf("%s -h: %v, stderr %q", cmd, err, stderr)
		}
	}
	out, _, err := runCLI(t, "version")
	if err != nil || !strings.HasPrefix(out, Version) {
		t.Errorf("version: %q, %v", out, err)
	}
}

// count's -repeats sets the counted instrument's repeats (count.repeats), so
// a cell can be counted once more, e.g. on another machine; run's sets the
// benchmark's and leaves the count's alone.
func TestRepeatsFlagOfCountSetsTheCountsRepeats(t *testing.T) {
	for _, tc := range []struct {
		counted              bool
		countReps, benchReps int
	}{{true, 3, 3}, {false, 2, 5}} {
		m := matrixFlags{config: "matrix.toml", repeats: 5, counted: tc.counted}
		if tc.counted {
			m.repeats = 3
		}
		cfg, _, err := m.load()
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Count.Repeats != tc.countReps || cfg.Bench.Repeats != tc.benchReps {
			t.Errorf("counted=%v: count.repeats %d, benchmark.repeats %d; want %d, %d",
				tc.counted, cfg.Count.Repeats, cfg.Bench.Repeats, tc.countReps, tc.benchReps)
		}
	}
}

// run -precision -repeats N sets the rounds; the reference repeats, and the
// plan table that holds them, stay as matrix.toml says (a precision run
// wrote a plan of 5 reference repeats before).
func TestPrecisionRepeatsAreRoundsNotReferenceRepeats(t *testing.T) {
	yes := true
	m := matrixFlags{config: "matrix.toml", repeats: 5, versions: "7.4.1", rounds: &yes}
	cfg, _, err := m.load()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Bench.Rounds != 5 || cfg.Bench.Repeats != 3 || cfg.Bench.OtherRepeats != 1 {
		t.Errorf("rounds %d, repeats %d, other repeats %d; want 5, 3, 1", cfg.Bench.Rounds, cfg.Bench.Repeats, cfg.Bench.OtherRepeats)
	}
	for _, p := range runner.PlanRows(cfg) {
		if want := map[bool]int32{true: 3, false: 1}[*p.Current]; p.Repeats != want {
			t.Fatalf("plan row %s: %d repeats, want %d", p.CellID, p.Repeats, want)
		}
	}
	m.rounds = nil
	if cfg, _, err = m.load(); err != nil || cfg.Bench.Repeats != 5 || cfg.Bench.OtherRepeats != 5 {
		t.Errorf("run -repeats 5 (reference): %v, repeats %d, other %d", err, cfg.Bench.Repeats, cfg.Bench.OtherRepeats)
	}
}
