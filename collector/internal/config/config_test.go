package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// minimal is the smallest valid matrix; tests append or replace parts of it.
const minimal = `
versions = ["6.2.16", "7.4.1"]
[[compilers]]
name = "gcc"
cc = "gcc-12"
[[flag_sets]]
name = "-O2"
[[benchmark.modes]]
name = "data"
args = ["-n", "100", "--csv"]
`

func TestLoadReferenceMatrix(t *testing.T) {
	c, err := Load("../../matrix.toml")
	if err != nil {
		t.Fatal(err)
	}
	wantVersions := []string{"2.6.17", "2.8.24", "3.0.7", "3.2.13", "4.0.14", "5.0.14",
		"6.0.20", "6.2.16", "7.0.15", "7.2.6", "7.4.1", "8.0.6"}
	if !reflect.DeepEqual(c.Versions, wantVersions) {
		t.Errorf("versions = %v, want %v", c.Versions, wantVersions)
	}
	wantCompilers := []Compiler{
		{Name: "gcc", CC: "gcc-12", AR: "gcc-ar-12", NM: "gcc-nm-12"},
		{Name: "clang", CC: "clang-19", AR: "llvm-ar-19", NM: "llvm-nm-19", LTOLDFlags: "-fuse-ld=lld", Profdata: "llvm-profdata-19"},
	}
	if !reflect.DeepEqual(c.Compilers, wantCompilers) {
		t.Errorf("compilers = %+v, want %+v", c.Compilers, wantCompilers)
	}
	if want := map[string]string{"6.2.15": "0e9710d4dd595452ac38d6caa8c6d00d25facb33"}; !reflect.DeepEqual(c.SourceOverrides, want) {
		t.Errorf("source_overrides = %v, want %v", c.SourceOverrides, want)
	}
	var flags, extended []string
	for _, f := range c.FlagSets {
		if f.CFlags != f.Name && !f.Stock && !f.PGO {
			t.Errorf("flag set %q: cflags %q, want the name as default", f.Name, f.CFlags)
		}
		if f.Extended {
			extended = append(extended, f.Name)
		} else {
			flags = append(flags, f.Name)
		}
	}
	wantFlags := []string{"-O2", "-Os", "-Ofast", "-O2 -flto", "-Os -flto", "-Ofast -flto"}
	if !reflect.DeepEqual(flags, wantFlags) {
		t.Errorf("reference flag sets = %v, want %v", flags, wantFlags)
	}
	if want := []string{"-O3", "-O3 -flto", "stock", "pgo"}; !reflect.DeepEqual(extended, want) {
		t.Errorf("extended flag sets = %v, want %v", extended, want)
	}
	// The preload runs in every counted server: one compiler for all, named
	// apart from the compilers, so a matrix of clang alone counts alike.
	if c.Count.PreloadCC != "gcc-12" {
		t.Errorf("count.preload_cc = %q, want gcc-12", c.Count.PreloadCC)
	}
	if got := len(c.Compilers) * len(flags); got != 12 {
		t.Errorf("%d reference configurations, want 12", got)
	}
	// The 158 release tags from 2.6.0 to 7.4.1, and 8.0.2 and 8.0.6 from Debian's tarballs.
	if len(c.Releases) != 160 || c.Releases[0] != "2.6.0" || c.Releases[157] != "7.4.1" || c.Releases[159] != "8.0.6" {
		t.Errorf("%d releases from %s to %s, want the 160 from 2.6.0 to 8.0.6", len(c.Releases), c.Releases[0], c.Releases[len(c.Releases)-1])
	}
	perLine := map[string]int{}
	for _, v := range c.Releases {
		perLine[MinorLine(v)]++
	}
	wantLines := map[string]int{"2.6": 18, "2.8": 25, "3.0": 8, "3.2": 14, "4.0": 15, "5.0": 15, "6.0": 21, "6.2": 17, "7.0": 16, "7.2": 7, "7.4": 2, "8.0": 2}
	if !reflect.DeepEqual(perLine, wantLines) {
		t.Errorf("releases per line = %v, want %v", perLine, wantLines)
	}
	if all := len(c.Cells()); all != 20*160 {
		t.Errorf("%d cells, want 20 configurations (12 reference, 8 extended) x 160 releases", all)
	}
	cells := ReferenceCells(c.Cells())
	if len(cells) != 1920 {
		t.Fatalf("%d reference cells, want 12 configurations x 160 releases = 1920", len(cells))
	}
	if first, last := cells[0].ID(), cells[1919].ID(); first != "2.6.0|gcc|-O2" || last != "8.0.6|clang|-Ofast -flto" {
		t.Errorf("cells run from %q to %q, want 2.6.0|gcc|-O2 to 8.0.6|clang|-Ofast -flto", first, last)
	}
	current := 0
	for _, cell := range cells {
		if cell.Current {
			current++
			if c.RepeatsOf(cell.Version) != 3 {
				t.Errorf("%s: %d repeats, want 3", cell.ID(), c.RepeatsOf(cell.Version))
			}
		} else if c.RepeatsOf(cell.Version) != 1 {
			t.Errorf("%s: %d repeats, want 1", cell.ID(), c.RepeatsOf(cell.Version))
		}
	}
	if current != 144 {
		t.Errorf("%d cells of current versions, want 144", current)
	}
	if c.DepsGetFlags {
		t.Error("deps_get_flags = true, want false (the documented default)")
	}
	if c.Jobs != 2 || c.BuildTimeout.Duration != 30*time.Minute {
		t.Errorf("jobs %d, build_timeout %s; want 2, 30m", c.Jobs, c.BuildTimeout)
	}
	b := c.Bench
	if b.Repeats != 3 || b.ClientVersion != "7.4.1" || b.RunTimeout.Duration != 15*time.Minute || b.StartTimeout.Duration != 15*time.Second {
		t.Errorf("benchmark = %+v", b)
	}
	wantModes := []Mode{
		{Name: "data", Args: []string{"-n", "120000", "--csv", "-d", "64", "-r", "9999999999"}},
		{Name: "pipe", Args: []string{"-n", "120000", "--csv", "-d", "64", "-r", "9999999999", "-P", "1000"}},
	}
	if !reflect.DeepEqual(b.Modes, wantModes) {
		t.Errorf("modes = %v, want the reference protocol %v", b.Modes, wantModes)
	}
	if len(c.Compat) != 4 || c.Compat[0].CFlags != "-fcommon" {
		t.Errorf("compat = %+v", c.Compat)
	}
}

func TestParseDefaults(t *testing.T) {
	c, err := Parse(minimal, "m.toml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Jobs != 2 || c.Bench.Repeats != 3 || c.BuildTimeout.Duration != 30*time.Minute ||
		c.Bench.RunTimeout.Duration != 15*time.Minute || c.Bench.StartTimeout.Duration != 15*time.Second {
		t.Errorf("defaults not applied: %+v", c)
	}
	if c.Bench.ClientVersion != "7.4.1" {
		t.Errorf("client_version = %q, want the newest version 7.4.1", c.Bench.ClientVersion)
	}
	if c.Bench.OtherRepeats != 3 || !reflect.DeepEqual(c.ReleaseList(), c.Versions) {
		t.Errorf("other_repeats %d, releases %v; want the repeats (3) and the matrix of versions alone", c.Bench.OtherRepeats, c.ReleaseList())
	}
	if c.FlagSets[0].CFlags != "-O2" {
		t.Errorf("cflags = %q, want the flag set's name", c.FlagSets[0].CFlags)
	}
	if c.Count.PreloadCC != c.Compilers[0].CC {
		t.Errorf("count.preload_cc = %q, want the first compiler's %q", c.Count.PreloadCC, c.Compilers[0].CC)
	}
}

func TestParseExplicitValues(t *testing.T) {
	text := `
versions = ["6.2.16", "7.4.1"]
jobs = 8
build_timeout = "1h"
deps_get_flags = true
[[compilers]]
name = "gcc"
cc = "gcc-12"
[[flag_sets]]
name = "native"
cflags = "-O3 -march=native"
[benchmark]
repeats = 5
client_version = "6.2.16"
run_timeout = "90s"
start_timeout = "2s"
[[benchmark.modes]]
name = "data"
args = ["--csv"]
`
	c, err := Parse(text, "m.toml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Jobs != 8 || c.BuildTimeout.Duration != time.Hour || !c.DepsGetFlags || c.Bench.Repeats != 5 ||
		c.Bench.ClientVersion != "6.2.16" || c.Bench.RunTimeout.Duration != 90*time.Second ||
		c.Bench.StartTimeout.Duration != 2*time.Second || c.FlagSets[0].CFlags != "-O3 -march=native" {
		t.Errorf("explicit values not kept: %+v", c)
	}
}

func TestParseErrors(t *testing.T) {
	replace := func(old, new string) string { return strings.Replace(minimal, old, new, 1) }
	tests := []struct {
		name, text, want string
	}{
		{"malformed TOML names the line", replace(`args = ["-n", "100", "--csv"]`, `args = ["-n", "100" "--csv"]`), "line 10:"},
		{"duplicate key", "versions = [\"7.4.1\"]\n" + minimal, "line 3:"},
		{"wrong type", replace(`[[compilers]]`, "jobs = \"two\"\n[[compilers]]"), "incompatible types"},
		{"bad duration", replace(`[[compilers]]`, "build_timeout = \"10x\"\n[[compilers]]"), `bad duration "10x"`},
		{"unknown top-level key", "job = 2\n" + minimal, `unknown key "job"`},
		{"unknown key in a compiler", replace(`cc = "gcc-12"`, "cc = \"gcc-12\"\nflags = \"-O2\""), `unknown key "compilers.flags"`},
		{"unknown key in benchmark", replace(`[[benchmark.modes]]`, "[benchmark]\nrepeat = 2\n[[benchmark.modes]]"), `unknown key "benchmark.repeat"`},
		{"no versions", replace(`versions = ["6.2.16", "7.4.1"]`, ``), "no versions"},
		{"no compilers", replace("[[compilers]]\nname = \"gcc\"\ncc = \"gcc-12\"", ""), "no compilers"},
		{"no flag sets", replace("[[flag_sets]]\nname = \"-O2\"", ""), "no flag_sets"},
		{"no modes", replace("[[benchmark.modes]]\nname = \"data\"\nargs = [\"-n\", \"100\", \"--csv\"]", ""), "no benchmark modes"},
		{"duplicate version", replace(`"6.2.16", "7.4.1"`, `"6.2.16", "7.4.1", "6.2.16"`), `duplicate version "6.2.16"`},
		{"invalid version", replace(`"6.2.16"`, `"v6.2.16"`), `version "v6.2.16" is not a Redis release`},
		{"version with one part", replace(`"6.2.16"`, `"6"`), `version "6" is not`},
		{"version with a trailing dash", replace(`"6.2.16"`, `"6.2.16-"`), `version "6.2.16-" is not`},
		{"version with a bad suffix", replace(`"6.2.16"`, `"6.2.16-beta"`), `version "6.2.16-beta" is not`},
		{"duplicate compiler", replace("[[flag_sets]]", "[[compilers]]\nname = \"gcc\"\ncc = \"gcc-13\"\n[[flag_sets]]"), `duplicate compiler "gcc"`},
		{"compiler without cc", replace(`cc = "gcc-12"`, ``), `compiler "gcc" has no cc`},
		{"compiler name with a space", replace(`name = "gcc"`, `name = "gcc 12"`), `name "gcc 12" must be non-empty`},
		{"compiler name with a slash", replace(`name = "gcc"`, `name = "gcc/12"`), `name "gcc/12"`},
		{"duplicate flag set", replace("[[benchmark.modes]]", "[[flag_sets]]\nname = \"-O2\"\ncflags = \"-O2 -g\"\n[[benchmark.modes]]"), `duplicate flag set "-O2"`},
		{"flag set with a pipe", replace(`name = "-O2"`, `name = "-O2|-flto"`), `flag set name "-O2|-flto"`},
		{"empty flag set name", replace(`name = "-O2"`, `name = ""`), `flag set name ""`},
		{"duplicate mode", minimal + "[[benchmark.modes]]\nname = \"data\"\nargs = []\n", `duplicate mode "data"`},
		{"negative repeats", replace(`[[benchmark.modes]]`, "[benchmark]\nrepeats = -1\n[[benchmark.modes]]"), "benchmark.repeats must be >= 1, got -1"},
		{"stock flag set with cflags", replace("[[benchmark.modes]]", "[[flag_sets]]\nname = \"stock\"\nstock = true\ncflags = \"-O2\"\n[[benchmark.modes]]"), `flag set "stock": stock builds with the release's own flags and takes no cflags`},
		{"stock and pgo together", replace("[[benchmark.modes]]", "[[flag_sets]]\nname = \"sp\"\nstock = true\npgo = true\n[[benchmark.modes]]"), `flag set "sp": stock and pgo exclude each other`},
		{"compat without cflags", minimal + "[[compat]]\nname = \"fcommon\"\nmatch = \"multiple definition of\"\n", `compat "fcommon" needs match and cflags`},
		{"client_version not in versions", replace(`[[benchmark.modes]]`, "[benchmark]\nclient_version = \"7.2.6\"\n[[benchmark.modes]]"), `benchmark.client_version "7.2.6" is not in the matrix's versions`},
		{"zero other_repeats", replace(`[[benchmark.modes]]`, "[benchmark]\nother_repeats = -1\n[[benchmark.modes]]"), "benchmark.other_repeats must be >= 1, got -1"},
		{"a current version not in releases", "releases = [\"6.2.16\"]\n" + minimal, `version "7.4.1" is not in releases`},
		{"current versions in another order than releases", "releases = [\"7.4.1\", \"6.2.16\"]\n" + minimal, `version "7.4.1" comes before "6.2.16" in releases`},
		{"duplicate release", "releases = [\"6.2.16\", \"7.4.1\", \"6.2.16\"]\n" + minimal, `duplicate release "6.2.16"`},
		{"invalid release", "releases = [\"6.2\", \"6.2.16\", \"7.4.1\", \"7.x\"]\n" + minimal, `version "7.x" is not a Redis release`},
		{"env in a benchmark mode", replace(`args = ["-n", "100", "--csv"]`, "args = []\nenv = [\"A=1\"]"), `benchmark mode "data": env belongs to count modes`},
		{"override of a version not in the matrix", minimal + "[source_overrides]\n\"6.2.15\" = \"0e9710d4dd595452ac38d6caa8c6d00d25facb33\"\n", `source_overrides: "6.2.15" is not in the matrix's versions`},
		{"override by a short commit", minimal + "[source_overrides]\n\"6.2.16\" = \"0e9710d4d\"\n", `source_overrides: 6.2.16 = "0e9710d4d" is not a full commit`},
		{"count env entry without =", minimal + "[[count.modes]]\nname = \"data\"\nargs = []\nenv = [\"FREEZECLOCK_SETTLE_READS\"]\n", `count mode "data": env entry "FREEZECLOCK_SETTLE_READS" is not NAME=value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.text, "m.toml")
			if err == nil {
				t.Fatalf("no error, want one containing %q", tt.want)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "config m.toml: ") || !strings.Contains(msg, tt.want) {
				t.Errorf("error %q, want it to name the file and contain %q", msg, tt.want)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error %q spans several lines", msg)
			}
		})
	}
}

func TestValidVersion(t *testing.T) {
	for v, want := range map[string]bool{
		"2.6.17": true, "7.4.1": true, "7.0": true, "7.0-rc1": true, "7.0.0-rc2": true,
		"": false, "7": false, "7.4.1.2": false, "7..1": false, "v7.4.1": false, "7.4.x": false,
		"7.0-": false, "7.0-rc": false, "7.0-beta1": false, "7.0-rc1x": false,
	} {
		if got := validVersion(v); got != want {
			t.Errorf("validVersion(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.toml"))
	if err == nil || !strings.HasPrefix(err.Error(), "read config: ") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want a wrapped not-exist error", err)
	}
}

func TestParseReleases(t *testing.T) {
	c, err := Parse("releases = [\"6.2.0\", \"6.2.16\", \"7.4.0\", \"7.4.1\"]\n"+strings.Replace(minimal, "[[benchmark.modes]]", "[benchmark]\nother_repeats = 1\n[[benchmark.modes]]", 1), "m.toml")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, cell := range c.Cells() {
		got = append(got, fmt.Sprintf("%s#%d current=%v repeats=%d", cell.Version, cell.VersionIndex, cell.Current, c.RepeatsOf(cell.Version)))
	}
	want := []string{"6.2.0#0 current=false repeats=1", "6.2.16#1 current=true repeats=3", "7.4.0#2 current=false repeats=1", "7.4.1#3 current=true repeats=3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cells = %q, want %q", got, want)
	}
	if c.Bench.ClientVersion != "7.4.1" {
		t.Errorf("client_version = %q, want the newest current version 7.4.1", c.Bench.ClientVersion)
	}
}
