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
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/hwclass"
	"github.com/redis-compiler-benchmarks/collector/internal/machine"
	"github.com/redis-compiler-benchmarks/collector/internal/runner"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
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

func TestPlanReferenceMatrixEmptyData(t *testing.T) {
	out, _, err := runCLI(t, "plan", "-config", "matrix.toml", "-data", t.TempDir(), "-hardware", "all", "-versions", "current")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "golden-plan-current-empty.txt", out)
	if !strings.HasSuffix(out, "144 cells: 0 done, 0 partial, 0 failed, 144 pending; 864 runs to do counting every machine's runs together\n") {
		t.Errorf("summary line wrong:\n%s", out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:])
	}
	// Every release: the current versions with 3 repeats, the 146 others with 1.
	out, _, err = runCLI(t, "plan", "-config", "matrix.toml", "-data", t.TempDir(), "-hardware", "all")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\n2.6.0    gcc       -O2           pending  data 0/1, pipe 0/1  \n", "\n2.6.17   gcc       -O2           pending  data 0/3, pipe 0/3  \n",
		"1920 cells: 0 done, 0 partial, 0 failed, 1920 pending; 4416 runs to do counting every machine's runs together\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan of every release lacks %q", want)
		}
	}
}

func TestPlanCountPrintsTheCountOrderWithItsProgress(t *testing.T) {
	data := t.TempDir()
	at := time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	reason := "make: exit status 2: error: x"
	d := &store.Data{Builds: []store.Build{{BuildID: "b1", CellID: "2.6.0|clang|-O2", Status: "failed", Error: &reason, StartedAt: at}}}
	for _, cell := range []string{"2.6.17|gcc|-O2", "2.6.17|gcc|-Os"} {
		for _, m := range []string{"data", "pipe"} {
			for r := 1; r <= 2; r++ {
				d.CountRuns = append(d.CountRuns, store.CountRun{RunID: cell + m + fmt.Sprint(r), CellID: cell, Mode: m, Repeat: int32(r), Status: "ok", StartedAt: at, Protocol: store.CountProtocol})
			}
		}
	}
	d.CountRuns = append(d.CountRuns, store.CountRun{RunID: "p", CellID: "2.6.17|gcc|-Ofast", Mode: "data", Repeat: 1, Status: "ok", StartedAt: at, Protocol: store.CountProtocol})
	if err := d.Save(data); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "plan", "-count", "-config", "matrix.toml", "-data", data)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "golden-plan-count.txt", out)
	// -versions selects, in count order still.
	out, _, err = runCLI(t, "plan", "-count", "-config", "matrix.toml", "-data", data, "-versions", "2.6.0,2.6.17")
	if err != nil {
		t.Fatal(err)
	}
	want := "ORDER  VERSION  PHASE    COUNTED  PARTIAL  FAILED  PENDING  STATE\n" +
		"1      2.6.17   current  2/12     1        0       9        next\n" +
		"2      2.6.0    first    0/12     0        1       11       pending\n" +
		"2 versions, 24 cells (4 counting runs each): 2 counted, 1 partial, 1 failed to build, 20 pending; next: 2.6.17\n"
	if out != want {
		t.Errorf("plan -count -versions 2.6.0,2.6.17:\n%s\nwant\n%s", out, want)
	}
}

func TestPlanWithCollectedData(t *testing.T) {
	data := t.TempDir()
	at := time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	reason := "make: exit status 2: clang: error: linker command failed with exit code 1"
	// Two machines of one hardware class (m1, m2) and one of another (o): repeats count per class.
	d := &store.Data{
		Machines: []store.Machine{{MachineID: "m1", CPUModel: "Test CPU", Cores: 2}, {MachineID: "m2", CPUModel: "Test CPU", Cores: 2},
			{MachineID: "o", CPUModel: "Other CPU", Cores: 2}},
		Builds: []store.Build{
			{BuildID: "b1", CellID: "2.6.17|gcc|-O2", Status: "ok", StartedAt: at, MachineID: "m1"},
			{BuildID: "b2", CellID: "2.6.17|clang|-Ofast -flto", Status: "failed", Error: &reason, StartedAt: at, MachineID: "m1"},
			{BuildID: "b3", CellID: "2.6.17|gcc|-Ofast", Status: "ok", StartedAt: at, MachineID: "o"},
		}}
	for rep := 1; rep <= 3; rep++ {
		for _, m := range []string{"data", "pipe"} {
			d.Runs = append(d.Runs, store.Run{RunID: m + string(rune('0'+rep)), CellID: "2.6.17|gcc|-O2", Mode: m, Repeat: int32(rep), StartedAt: at,
				MachineID: []string{"m1", "m2", "m2"}[rep-1]})
		}
	}
	d.Runs = append(d.Runs, store.Run{RunID: "x", CellID: "2.6.17|gcc|-Os", Mode: "pipe", Repeat: 1, StartedAt: at, MachineID: "m2"},
		store.Run{RunID: "y", CellID: "2.6.17|gcc|-Ofast", Mode: "data", Repeat: 1, StartedAt: at, MachineID: "o"})
	if err := d.Save(data); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "plan", "-config", "matrix.toml", "-data", data, "-versions", "2.6.17", "-hardware", "Test CPU, 2 cores")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "golden-plan-2.6.17-some-collected.txt", out)
	// The other class has one run of gcc -Ofast; every run counts with -hardware all.
	out, _, err = runCLI(t, "plan", "-config", "matrix.toml", "-data", data, "-versions", "2.6.17", "-hardware", "Other CPU, 2 cores")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "2.6.17   gcc       -Ofast        partial  data 1/3, pipe 0/3") || !strings.Contains(out, "71 runs to do on Other CPU, 2 cores") {
		t.Errorf("plan on the other class:\n%s", out)
	}
	// A class the data does not have is an error that names the classes it has.
	out, _, err = runCLI(t, "plan", "-config", "matrix.toml", "-data", data, "-versions", "2.6.17", "-hardware", "Test CPU, 4 cores")
	if want := `hardware class "Test CPU, 4 cores" is not in the data (its classes: "Other CPU, 2 cores", "Test CPU, 2 cores"; or "all")`; err == nil || err.Error() != want || out != "" {
		t.Errorf("plan -hardware of an unknown class: error %v, stdout %q; want error %q and no table", err, out, want)
	}
	out, _, err = runCLI(t, "plan", "-config", "matrix.toml", "-data", data, "-versions", "2.6.17", "-hardware", "all")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out, "12 cells: 1 done, 2 partial, 1 failed, 8 pending; 58 runs to do counting every machine's runs together\n") {
		t.Errorf("plan -hardware all:\n%s", out)
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

// This machine's own class is known to plan before it has measured anything.
func TestPlanTakesThisMachinesOwnClassOnEmptyData(t *testing.T) {
	d := &store.Data{}
	own, err := hwclass.Choose(d, hwclass.Identify(d, machine.Identify()), "")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "plan", "-config", "matrix.toml", "-data", t.TempDir(), "-hardware", own)
	if err != nil || !strings.HasSuffix(out, "4416 runs to do on "+own+"\n") {
		t.Errorf("plan -hardware %q: %v\n%s", own, err, out)
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

func TestMergeCommand(t *testing.T) {
	at := time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	shard := func(cell string) string {
		dir := t.TempDir()
		d := &store.Data{
			Plan:    []store.Plan{{CellID: cell}},
			Builds:  []store.Build{{BuildID: cell + "|b", CellID: cell, Status: "ok", StartedAt: at}},
			Runs:    []store.Run{{RunID: cell + "|r", CellID: cell, Mode: "data", Repeat: 1, StartedAt: at}},
			Results: []store.Result{{RunID: cell + "|r", CellID: cell, Test: "SET"}, {RunID: cell + "|r", CellID: cell, Test: "GET"}},
		}
		if err := d.Save(dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	a, b, out := shard("7.4.1|gcc|-O2"), shard("7.4.1|clang|-O2"), filepath.Join(t.TempDir(), "merged")
	stdout, _, err := runCLI(t, "merge", "-out", out, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if want := "merged 2 inputs into " + out + ": 2 builds, 2 runs, 4 results\n"; stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	// Merging again into the same output adds nothing.
	stdout, _, err = runCLI(t, "merge", "-out", out, b)
	if err != nil || !strings.HasSuffix(stdout, ": 2 builds, 2 runs, 4 results\n") {
		t.Errorf("second merge: %q, %v", stdout, err)
	}
}

// Two VMs from one image can share a plain machine ID; a merge that would
// give one's record to the other (and move its runs to the other's hardware
// class) is refused, and the output is left as it was.
func TestMergeRefusesOneMachineIDForTwoCPUs(t *testing.T) {
	at := time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	dataset := func(cpu, class string) string {
		dir := t.TempDir()
		d := &store.Data{
			Machines: []store.Machine{{MachineID: "6dfb9b388c55", CPUModel: "AMD EPYC", Cores: 2, MeasuredAt: at, CPUID: &cpu, HardwareClass: &class}},
			Builds:   []store.Build{{BuildID: cpu + "|b", CellID: "7.4.1|gcc|-O2", Status: "ok", StartedAt: at, MachineID: "6dfb9b388c55"}},
		}
		if err := d.Save(dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	out := dataset("family 25 model 17 stepping 1", "AMD EPYC (family 25 model 17), 2 cores")
	in := dataset("family 26 model 2 stepping 1", "AMD EPYC (family 26 model 2), 2 cores")
	before, _ := os.ReadFile(filepath.Join(out, store.MachinesFile))
	_, _, err := runCLI(t, "merge", "-out", out, in)
	if err == nil || !strings.Contains(err.Error(), "two CPUs under one ID") || !strings.Contains(err.Error(), "nothing merged") {
		t.Fatalf("merge: %v, want a refusal", err)
	}
	if after, _ := os.ReadFile(filepath.Join(out, store.MachinesFile)); string(after) != string(before) {
		t.Error("the refused merge changed the output's machines")
	}
	// The same CPU under its ID merges.
	if _, _, err := runCLI(t, "merge", "-out", out, dataset("family 25 model 17 stepping 1", "AMD EPYC (family 25 model 17), 2 cores")); err != nil {
		t.Errorf("merge of the same machine: %v", err)
	}
}

func TestRecoverCommand(t *testing.T) {
	at := time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	const cell = "7.4.1|gcc|-O2"
	version := func(id string, at time.Time, other string) string {
		dir := t.TempDir()
		d := &store.Data{
			Runs:    []store.Run{{RunID: id, CellID: cell, Mode: "data", Repeat: 1, Status: "ok", OtherCPU: other, StartedAt: at}},
			Results: []store.Result{{RunID: id, CellID: cell, Mode: "data", Repeat: 1, Test: "SET"}},
		}
		if err := d.Save(dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	earlier := version("old", at, "others:30")
	data := version("new", at.Add(time.Hour), "others:0")
	stdout, _, err := runCLI(t, "recover", "-data", data, "-redo-noisy", "5", earlier, data)
	if err != nil {
		t.Fatal(err)
	}
	if want := "recovered 1 runs measured again from 2 earlier versions (0 left out: their cell, mode and repeat is not in " + data + "); 1 redone runs in all\n"; stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	d, err := store.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) != 1 || d.Runs[0].RunID != "new" || len(d.RedoneRuns) != 1 || len(d.RedoneResults) != 1 ||
		d.RedoneRuns[0].RedoReason != "other processes 30% of a CPU > 5%"+runner.RecoveredNote || d.RedoneRuns[0].ReplacedBy != "new" {
		t.Errorf("after recover: runs %+v, redone %+v", d.Runs, d.RedoneRuns)
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

func TestDumpDiffCommand(t *testing.T) {
	dump, err := os.ReadFile("internal/count/testdata/fixture-callgrind-dump.out")
	if err != nil {
		t.Fatal(err)
	}
	a, b := t.TempDir(), t.TempDir()
	for dir, text := range map[string]string{a: string(dump), b: strings.Replace(string(dump), "30 8000 2400", "30 8100 2400", 1)} {
		for _, name := range []string{"test-00.callgrind", "test-01.callgrind"} {
			body := text
			if name == "test-00.callgrind" {
				body = string(dump)
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	out, _, err := runCLI(t, "dumpdiff", a, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"test-00.callgrind: same in every event and function\n",
		"test-01.callgrind: the same totals, spread differently over the functions\n", "  own Ir: readQueryFromClient 8000 / 8100\n",
		"1 of 2 tests differ, the first test-01.callgrind\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := runCLI(t, "dumpdiff", a); err == nil || !strings.HasPrefix(err.Error(), "usage: collector dumpdiff") {
		t.Errorf("one folder: %v", err)
	}
}
