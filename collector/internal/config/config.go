// Package config reads the collector's declarative matrix file (TOML) and
// expands it into cells: one cell per (Redis version, compiler, flag set).
package config

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Config is the whole matrix file. See collector/matrix.toml for a documented example.
type Config struct {
	// Versions are the current versions, in release order: the newest patch
	// release of every minor line, e.g. "2.6.17". They are the matrix's
	// default set: collected first, benchmarked with Bench.Repeats, and marked
	// current in the plan.
	Versions []string `toml:"versions"`
	// Releases are every version of the matrix, in release order; they hold
	// every current version. Empty: the matrix is Versions (ReleaseList).
	Releases  []string   `toml:"releases"`
	Compilers []Compiler `toml:"compilers"`
	FlagSets  []FlagSet  `toml:"flag_sets"`
	// DepsGetFlags builds the bundled dependencies (jemalloc, lua, hiredis...) with
	// the cell's flags too. When false they are built once per version and compiler
	// with Redis's own defaults and reused by every flag set.
	DepsGetFlags bool `toml:"deps_get_flags"`
	// Jobs is make's -j for builds.
	Jobs   int      `toml:"jobs"`
	Compat []Compat `toml:"compat"`
	Bench  Bench    `toml:"benchmark"`
	// Count is the counted instrument's protocol (collector count).
	Count Count `toml:"count"`
	// Timeouts, as Go durations ("30m").
	BuildTimeout Duration `toml:"build_timeout"`
	// SourceOverrides maps a release whose git tag is not the release (its
	// src/version.h names another version) to the full commit of the release
	// itself: the git source builds that commit instead of the tag and
	// records it as builds.source_ref. Other sources ignore it.
	SourceOverrides map[string]string `toml:"source_overrides"`
}

// Compiler is one compiler a cell can be built with.
type Compiler struct {
	Name string `toml:"name"` // short name used in cell ids, e.g. "gcc"
	CC   string `toml:"cc"`   // binary, e.g. "gcc-12"
	// AR is the archiver used when dependencies get LTO flags (e.g. "gcc-ar-12").
	AR string `toml:"ar"`
	// NM lists the symbols of LTO objects when dependencies get the flags
	// (e.g. "gcc-nm-12", "llvm-nm-19"): jemalloc's build names its private
	// symbols from nm's output, and binutils' nm cannot read LTO objects.
	NM string `toml:"nm"`
	// LTOLDFlags are added to the link flags when a flag set contains -flto
	// (clang's LTO objects are bitcode and need lld: "-fuse-ld=lld").
	LTOLDFlags string `toml:"lto_ldflags"`
	// Profdata merges clang's raw profiles for a profile-guided build
	// (llvm-profdata); empty for gcc, whose -fprofile-use reads its own.
	Profdata string `toml:"profdata"`
}

// FlagSet is one set of optimisation flags, given to both compile and link.
type FlagSet struct {
	Name   string `toml:"name"`   // e.g. "-O2 -flto"
	CFlags string `toml:"cflags"` // defaults to Name
	// Extended marks a flag set beyond the reference configurations (the 2014
	// page's): collected like the others, but a view shows the reference ones
	// by default and the extended ones on request, and headline figures keep
	// to the reference ones.
	Extended bool `toml:"extended"`
	// Stock builds with the release's own Makefile defaults: no OPTIMIZATION
	// or REDIS_LDFLAGS on make's command line (-O2 up to 7.0; -O3 with LTO
	// and -fno-omit-frame-pointer from 7.2 on). Its CFlags stay empty; the
	// build records the flags that reached the compile and the link.
	Stock bool `toml:"stock"`
	// PGO builds with CFlags twice: instrumented, then trained on a workload
	// of the collector's own (build.TrainingWorkload, not the measured one),
	// then with the profile (gcc -fprofile-use, clang -fprofile-instr-use).
	PGO bool `toml:"pgo"`
}

// Compat is a compatibility fix for old releases: when a build fails and its
// log contains Match, the cell is rebuilt once with CFlags added. It is applied
// only to cells that need it and recorded per cell.
type Compat struct {
	Name   string `toml:"name"`
	Match  string `toml:"match"`
	CFlags string `toml:"cflags"`
}

// Bench is the benchmark protocol.
type Bench struct {
	// Repeats are the current versions' repeats per mode; OtherRepeats those
	// of the other releases (default: Repeats).
	Repeats      int    `toml:"repeats"`
	OtherRepeats int    `toml:"other_repeats"`
	Modes        []Mode `toml:"modes"`
	// Precision are the precision protocol's modes (collector run -precision):
	// the reference's arguments without -n, each test run on its own for at
	// least MinTime, in interleaved rounds of a version's configurations.
	Precision []Mode `toml:"precision"`
	// Rounds is the precision modes' repeats: rounds of every configuration
	// of a version.
	Rounds int `toml:"rounds"`
	// ClientVersion selects the version whose redis-benchmark is the one client
	// for every server; empty means the newest current version (the last of Versions).
	ClientVersion string `toml:"client_version"`
	// RunTimeout bounds one client invocation; StartTimeout bounds server start.
	RunTimeout   Duration `toml:"run_timeout"`
	StartTimeout Duration `toml:"start_timeout"`
}

// Count is the counted instrument: each cell's server under Valgrind, the
// instructions (and simulated cache and branch events) it executes per
// request of each test. Counts do not depend on the machine, so repeats count
// over all machines, not per hardware class.
type Count struct {
	Repeats int    `toml:"repeats"`
	Modes   []Mode `toml:"modes"`
	// Valgrind is the valgrind binary; ToolArgs its options (tool, simulated
	// cache geometry).
	Valgrind string   `toml:"valgrind"`
	ToolArgs []string `toml:"tool_args"`
	// Settings are CONFIG SET after the server starts ("hz 1").
	Settings []string `toml:"settings"`
	// Env is added to the server's environment ("LD_BIND_NOW=1").
	Env []string `toml:"env"`
	// Warmup are the client arguments of an uncounted run before the first test.
	Warmup []string `toml:"warmup"`
	// Parallel is how many counting runs go at once (each is one
	// single-threaded Valgrind process).
	Parallel int `toml:"parallel"`
	// PreloadCC compiles the clock-freezing preload, whose code runs in
	// every counted server, and the guest CPU probe (default: the first
	// compiler's cc). Fixed apart from the matrix, so a matrix of other
	// compilers counts alike.
	PreloadCC    string   `toml:"preload_cc"`
	TestTimeout  Duration `toml:"test_timeout"`
	StartTimeout Duration `toml:"start_timeout"`
}

// Mode is one way of running the client, e.g. "data" or "pipe".
type Mode struct {
	Name string   `toml:"name"`
	Args []string `toml:"args"`
	// MinTime, in a precision mode only, is how long each test lasts at least:
	// its request count is calibrated to it (e.g. "1.5s"). Zero in the
	// reference modes, whose -n is in Args.
	MinTime Duration `toml:"min_time"`
	// StartRequests, in a precision mode only, is the calibration's first
	// request count (default 1000).
	StartRequests int64 `toml:"start_requests"`
	// TestsPerServer, in a precision mode only, runs a run's tests in groups
	// of at least this many, each on a fresh server of its own (bench.Groups;
	// 0: every test on one server).
	TestsPerServer int `toml:"tests_per_server"`
	// Env, in a count mode only, is added to the counted server's
	// environment after count.env ("FREEZECLOCK_SETTLE_READS=no").
	Env []string `toml:"env"`
}

// IsPrecision reports whether m is a precision mode (its tests are timed to MinTime).
func (m Mode) IsPrecision() bool { return m.MinTime.Duration > 0 }

// ReferenceOf is the reference mode a precision mode lengthens: the one its
// name starts with ("data-long": "data"), else the first of reference.
func ReferenceOf(mode string, reference []string) string {
	for _, m := range reference {
		if strings.HasPrefix(mode, m+"-") {
			return m
		}
	}
	if len(reference) == 0 {
		return ""
	}
	return reference[0]
}

// Duration is a time.Duration read from a TOML string such as "10m".
type Duration struct{ time.Duration }

// UnmarshalText parses a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("bad duration %q: %w", b, err)
	}
	d.Duration = v
	return nil
}

// Load reads and validates a matrix file.
func Load(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return Parse(string(b), path)
}

// Parse decodes and validates matrix TOML; name is used in error messages.
func Parse(text, name string) (*Config, error) {
	var c Config
	md, err := toml.Decode(text, &c)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", name, oneLine(err))
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("config %s: unknown key %q", name, und[0].String())
	}
	c.applyDefaults()
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("config %s: %w", name, err)
	}
	return &c, nil
}

func oneLine(err error) error {
	var perr toml.ParseError
	if errors.As(err, &perr) {
		return fmt.Errorf("line %d: %s", perr.Position.Line, perr.Message)
	}
	return err
}

func (c *Config) applyDefaults() {
	if c.Jobs == 0 {
		c.Jobs = 2
	}
	if c.Bench.Repeats == 0 {
		c.Bench.Repeats = 3
	}
	if c.BuildTimeout.Duration == 0 {
		c.BuildTimeout.Duration = 30 * time.Minute
	}
	if c.Bench.RunTimeout.Duration == 0 {
		c.Bench.RunTimeout.Duration = 15 * time.Minute
	}
	if c.Bench.StartTimeout.Duration == 0 {
		c.Bench.StartTimeout.Duration = 15 * time.Second
	}
	if c.Bench.OtherRepeats == 0 {
		c.Bench.OtherRepeats = c.Bench.Repeats
	}
	if c.Bench.Rounds == 0 {
		c.Bench.Rounds = 5
	}
	for i := range c.Bench.Precision {
		if c.Bench.Precision[i].StartRequests == 0 {
			c.Bench.Precision[i].StartRequests = 1000
		}
	}
	if c.Count.Repeats == 0 {
		c.Count.Repeats = 2
	}
	if c.Count.Valgrind == "" {
		c.Count.Valgrind = "valgrind"
	}
	if c.Count.Parallel == 0 {
		c.Count.Parallel = 1
	}
	if c.Count.PreloadCC == "" && len(c.Compilers) > 0 {
		c.Count.PreloadCC = c.Compilers[0].CC
	}
	if c.Count.TestTimeout.Duration == 0 {
		c.Count.TestTimeout.Duration = 20 * time.Minute
	}
	if c.Count.StartTimeout.Duration == 0 {
		c.Count.StartTimeout.Duration = 2 * time.Minute
	}
	for i := range c.FlagSets {
		if c.FlagSets[i].CFlags == "" && !c.FlagSets[i].Stock {
			c.FlagSets[i].CFlags = c.FlagSets[i].Name
		}
	}
	if c.Bench.ClientVersion == "" && len(c.Versions) > 0 {
		c.Bench.ClientVersion = c.Versions[len(c.Versions)-1]
	}
}

func (c *Config) validate() error {
	if len(c.Versions) == 0 {
		return errors.New("no versions")
	}
	if len(c.Compilers) == 0 {
		return errors.New("no compilers")
	}
	if len(c.FlagSets) == 0 {
		return errors.New("no flag_sets")
	}
	if len(c.Bench.Modes) == 0 {
		return errors.New("no benchmark modes")
	}
	if c.Bench.Repeats < 1 {
		return fmt.Errorf("benchmark.repeats must be >= 1, got %d", c.Bench.Repeats)
	}
	if c.Bench.OtherRepeats < 1 {
		return fmt.Errorf("benchmark.other_repeats must be >= 1, got %d", c.Bench.OtherRepeats)
	}
	if err := validVersions(c.Versions, c.Releases); err != nil {
		return err
	}
	var names []string
	for _, cc := range c.Compilers {
		if cc.CC == "" {
			return fmt.Errorf("compiler %q has no cc", cc.Name)
		}
		names = append(names, cc.Name)
	}
	if err := unique("compiler", names, idName); err != nil {
		return err
	}
	names = names[:0]
	for _, f := range c.FlagSets {
		names = append(names, f.Name)
	}
	if err := unique("flag set", names, func(n string) error {
		if n == "" || strings.Contains(n, "|") {
			return fmt.Errorf("flag set name %q must be non-empty and without '|'", n)
		}
		return nil
	}); err != nil {
		return err
	}
	if c.Bench.Rounds < 1 {
		return fmt.Errorf("benchmark.rounds must be >= 1, got %d", c.Bench.Rounds)
	}
	if err := validPrecision(c.Bench.Modes, c.Bench.Precision); err != nil {
		return err
	}
	for _, m := range append(append([]Mode(nil), c.Bench.Modes...), c.Bench.Precision...) {
		if len(m.Env) > 0 {
			return fmt.Errorf("benchmark mode %q: env belongs to count modes", m.Name)
		}
	}
	names = names[:0]
	for _, m := range c.Count.Modes {
		if m.IsPrecision() {
			return fmt.Errorf("count mode %q: min_time belongs to benchmark.precision modes", m.Name)
		}
		for _, e := range m.Env {
			if !strings.Contains(e, "=") {
				return fmt.Errorf("count mode %q: env entry %q is not NAME=value", m.Name, e)
			}
		}
		names = append(names, m.Name)
	}
	if err := unique("count mode", names, idName); err != nil {
		return err
	}
	if c.Count.Repeats < 1 || c.Count.Parallel < 1 {
		return fmt.Errorf("count.repeats and count.parallel must be >= 1")
	}
	for _, f := range c.FlagSets {
		if f.Stock && f.PGO {
			return fmt.Errorf("flag set %q: stock and pgo exclude each other", f.Name)
		}
		if f.Stock && f.CFlags != "" {
			return fmt.Errorf("flag set %q: stock builds with the release's own flags and takes no cflags", f.Name)
		}
	}
	for _, k := range c.Compat {
		if k.Match == "" || k.CFlags == "" {
			return fmt.Errorf("compat %q needs match and cflags", k.Name)
		}
	}
	if !contains(c.ReleaseList(), c.Bench.ClientVersion) {
		return fmt.Errorf("benchmark.client_version %q is not in the matrix's versions", c.Bench.ClientVersion)
	}
	for v, sha := range c.SourceOverrides {
		if !contains(c.ReleaseList(), v) {
			return fmt.Errorf("source_overrides: %q is not in the matrix's versions", v)
		}
		if !fullCommit.MatchString(sha) {
			return fmt.Errorf("source_overrides: %s = %q is not a full commit (40 hex digits)", v, sha)
		}
	}
	return nil
}

// fullCommit is a git commit named in full, as an override must be.
var fullCommit = regexp.MustCompile(`^[0-9a-f]{40}$`)

// validVersions checks that versions and releases are release numbers, each
// once, and that releases, when given, hold every current version in the same order.
func validVersions(versions, releases []string) error {
	release := func(v string) error {
		if !validVersion(v) {
			return fmt.Errorf("version %q is not a Redis release number like 7.4.1", v)
		}
		return nil
	}
	if err := unique("version", versions, release); err != nil {
		return err
	}
	if len(releases) == 0 {
		return nil
	}
	if err := unique("release", releases, release); err != nil {
		return err
	}
	at := -1
	for _, v := range versions {
		i := slices.Index(releases, v)
		if i < 0 {
			return fmt.Errorf("version %q is not in releases", v)
		}
		if i < at {
			return fmt.Errorf("version %q comes before %q in releases, after it in versions", v, releases[at])
		}
		at = i
	}
	return nil
}

// validPrecision checks the precision modes: names unique among all benchmark
// modes, a min_time, no -n (it is calibrated), and a positive start; the
// reference modes have no min_time.
func validPrecision(reference, precision []Mode) error {
	var names []string
	for _, m := range reference {
		if m.IsPrecision() {
			return fmt.Errorf("mode %q: min_time belongs to benchmark.precision modes", m.Name)
		}
		if m.TestsPerServer != 0 {
			return fmt.Errorf("mode %q: tests_per_server belongs to benchmark.precision modes", m.Name)
		}
		names = append(names, m.Name)
	}
	for _, m := range precision {
		if !m.IsPrecision() {
			return fmt.Errorf("precision mode %q needs a min_time", m.Name)
		}
		if contains(m.Args, "-n") {
			return fmt.Errorf("precision mode %q: -n is calibrated per test, leave it out of args", m.Name)
		}
		if m.StartRequests < 1 {
			return fmt.Errorf("precision mode %q: start_requests must be >= 1", m.Name)
		}
		if m.TestsPerServer < 0 {
			return fmt.Errorf("precision mode %q: tests_per_server must be >= 0", m.Name)
		}
		names = append(names, m.Name)
	}
	return unique("mode", names, idName)
}

func idName(n string) error {
	if n == "" || strings.ContainsAny(n, "| /\t") {
		return fmt.Errorf("name %q must be non-empty without spaces, '/' or '|'", n)
	}
	return nil
}

func unique(what string, xs []string, check func(string) error) error {
	seen := map[string]bool{}
	for _, x := range xs {
		if err := check(x); err != nil {
			return err
		}
		if seen[x] {
			return fmt.Errorf("duplicate %s %q", what, x)
		}
		seen[x] = true
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// validVersion accepts release numbers such as 2.6.17 and 7.0-rc1 / 7.0.0-rc2.
func validVersion(v string) bool {
	main, rc, hasRC := strings.Cut(v, "-")
	if hasRC && (!strings.HasPrefix(rc, "rc") || !digits(rc[2:])) {
		return false
	}
	parts := strings.Split(main, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if !digits(p) {
			return false
		}
	}
	return true
}

func digits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
