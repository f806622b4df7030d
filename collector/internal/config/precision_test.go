package config

import (
	"strings"
	"testing"
	"time"
)

func TestReferenceMatrixHasPrecisionModesWithoutRequestCount(t *testing.T) {
	c, err := Load("../../matrix.toml")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Bench.Precision) != 2 || c.Bench.Precision[0].Name != "data-long" || c.Bench.Precision[1].Name != "pipe-long" {
		t.Fatalf("precision modes = %+v, want data-long and pipe-long", c.Bench.Precision)
	}
	for i, m := range c.Bench.Precision {
		ref := strings.Join(c.Bench.Modes[i].Args, " ")
		// The reference's arguments, except the request count.
		if want := strings.TrimPrefix(ref, "-n 120000 "); strings.Join(m.Args, " ") != want {
			t.Errorf("%s args %q, want the reference's without -n: %q", m.Name, m.Args, want)
		}
		// One millisecond is at most 0.1% of a test.
		if m.MinTime.Duration < time.Second || !m.IsPrecision() {
			t.Errorf("%s min_time %s, want >= 1s", m.Name, m.MinTime)
		}
	}
	if c.Bench.Modes[0].IsPrecision() || c.Bench.Rounds < 5 {
		t.Errorf("reference mode marked precision, or rounds %d < 5", c.Bench.Rounds)
	}
}

func TestPrecisionModeDefaultsAndErrors(t *testing.T) {
	good := minimal + "[[benchmark.precision]]\nname = \"data-long\"\nargs = [\"--csv\"]\nmin_time = \"1.5s\"\n"
	c, err := Parse(good, "m.toml")
	if err != nil {
		t.Fatal(err)
	}
	if p := c.Bench.Precision[0]; p.StartRequests != 1000 || p.MinTime.Duration != 1500*time.Millisecond || c.Bench.Rounds != 5 || p.TestsPerServer != 0 {
		t.Errorf("defaults not applied: %+v, rounds %d", p, c.Bench.Rounds)
	}
	c, err = Parse(good+"tests_per_server = 4\n", "m.toml")
	if err != nil || c.Bench.Precision[0].TestsPerServer != 4 {
		t.Errorf("tests_per_server = 4: %v, %+v", err, c)
	}
	for _, tt := range []struct{ name, text, want string }{
		{"no min_time", strings.Replace(good, "min_time = \"1.5s\"\n", "", 1), `precision mode "data-long" needs a min_time`},
		{"-n given", strings.Replace(good, `args = ["--csv"]`, `args = ["-n", "5", "--csv"]`, 1), "-n is calibrated"},
		{"same name as a reference mode", strings.Replace(good, `"data-long"`, `"data"`, 1), `duplicate mode "data"`},
		{"min_time in a reference mode", strings.Replace(minimal, `args = ["-n", "100", "--csv"]`, "args = []\nmin_time = \"1s\"", 1), "min_time belongs to benchmark.precision"},
		{"zero rounds", strings.Replace(good, "[[benchmark.modes]]", "[benchmark]\nrounds = -1\n[[benchmark.modes]]", 1), "benchmark.rounds must be >= 1"},
		{"negative tests_per_server", good + "tests_per_server = -1\n", "tests_per_server must be >= 0"},
		{"tests_per_server in a reference mode", strings.Replace(minimal, `args = ["-n", "100", "--csv"]`, "args = [\"-n\", \"100\"]\ntests_per_server = 4", 1), "tests_per_server belongs to benchmark.precision"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Parse(tt.text, "m.toml"); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
