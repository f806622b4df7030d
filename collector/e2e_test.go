package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/bench"
	"github.com/redis-compiler-benchmarks/collector/internal/build"
	"github.com/redis-compiler-benchmarks/collector/internal/hwclass"
	"github.com/redis-compiler-benchmarks/collector/internal/machine"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
	"github.com/redis-compiler-benchmarks/collector/internal/testenv"
)

// e2eCell is one of the two cells the end-to-end test collects.
type e2eCell struct {
	config, id, compiler, cc, flags, ldflags, ccName string
}

// clientTests are the default tests of the 7.0.15 client: all but XADD,
// which became a default test in 7.2. It gets no row, not a failure.
var clientTests = bench.DefaultTests[:len(bench.DefaultTests)-1]

var e2eCells = []e2eCell{
	{"testdata/e2e-fixture-gcc-O2-matrix.toml", "7.0.15|gcc|-O2", "gcc", "gcc-12", "-O2", "-O2", "gcc"},
	{"testdata/e2e-fixture-clang-O2-flto-matrix.toml", "7.0.15|clang|-O2 -flto", "clang", "clang-19", "-O2 -flto", "-O2 -flto -fuse-ld=lld", "clang"},
}

// TestEndToEnd builds Redis 7.0.15 from Debian's source tarball with gcc -O2
// and clang -O2 -flto, benchmarks both in both modes, merges the two data
// directories, reads the Parquet back and checks every column; then checks
// that a rerun adds nothing and that raising the repeats adds only the
// missing runs. RCB_DEBIAN_TARBALLS names the directory holding
// redis_7.0.15.orig.tar.gz (`apt-get source --download-only redis` on bookworm).
// It takes minutes: give go test a -timeout of 30m or more.
func TestEndToEnd(t *testing.T) {
	testenv.Real(t, "builds and benchmarks Redis")
	tarDir := testenv.Tarballs(t, true)
	tarball, err := os.ReadFile(filepath.Join(tarDir, "redis_7.0.15.orig.tar.gz"))
	if err != nil {
		t.Fatalf("RCB_DEBIAN_TARBALLS=%s: %v", tarDir, err)
	}
	sum := sha256.Sum256(tarball)
	tarSHA := hex.EncodeToString(sum[:])

	ctx := context.Background()
	if deadline, ok := t.Deadline(); ok { // stop cleanly, not by go test's panic
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-30*time.Second))
		defer cancel()
	}
	tmp := t.TempDir()
	work := filepath.Join(tmp, "work")
	dataDir := func(c e2eCell) string { return filepath.Join(tmp, "data-"+c.compiler) }
	collect := func(c e2eCell, extra ...string) string {
		t.Helper()
		// -quiet-wait 5s: one 5-second look for a quiet machine per run, not
		// the default wait of up to 10 minutes (a test machine may be busy).
		args := append([]string{"run", "-config", c.config, "-data", dataDir(c), "-work", work,
			"-source", "tarballs", "-tarballs", tarDir, "-no-progress", "-quiet-wait", "5s"}, extra...)
		var out, log bytes.Buffer
		if err := run(ctx, args, &out, &log); err != nil {
			t.Fatalf("collector %s: %v\n%s", strings.Join(args, " "), err, log.String())
		}
		return log.String()
	}

	start := time.Now().UTC().Truncate(time.Millisecond)
	for _, c := range e2eCells {
		t0 := time.Now()
		log := collect(c)
		t.Logf("%s collected in %s", c.id, time.Since(t0).Round(time.Second))
		if !strings.Contains(log, "1 cells, 2 runs to do") {
			t.Errorf("%s: log does not announce 2 runs:\n%s", c.id, log)
		}
	}
	merged := filepath.Join(tmp, "data")
	if _, _, err := runCLI(t, "merge", "-out", merged, dataDir(e2eCells[0]), dataDir(e2eCells[1])); err != nil {
		t.Fatal(err)
	}
	d, err := store.Load(merged)
	if err != nil {
		t.Fatal(err)
	}
	end := time.Now().UTC()
	checkPlan(t, d.Plan, 2, 1)
	machineID := checkMachines(t, d.Machines, start, end)
	builds := checkBuilds(t, d.Builds, work, tarSHA, machineID, start, end)
	checkRuns(t, d.Runs, 4, builds, machineID, start, end, 1)
	checkResults(t, d.Results, d.Runs)
	for _, c := range e2eCells {
		for _, f := range []string{"build.log", "data-1.txt", "pipe-1.txt", "build-id"} {
			if _, err := os.Stat(filepath.Join(work, "cells", build.Slug(c.id), f)); err != nil {
				t.Errorf("evidence missing: %v", err)
			}
		}
	}

	// A rerun finds nothing to do and changes no row.
	for _, c := range e2eCells {
		before, err := store.Load(dataDir(c))
		if err != nil {
			t.Fatal(err)
		}
		if log := collect(c); !strings.Contains(log, "1 cells, 0 runs to do") {
			t.Errorf("rerun of %s:\n%s", c.id, log)
		}
		after, err := store.Load(dataDir(c))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := summary(after), summary(before); got != want {
			t.Errorf("rerun of %s changed the data:\n got %s\nwant %s", c.id, got, want)
		}
	}

	// Raising the repeats adds exactly the missing runs, with the same build.
	for _, c := range e2eCells {
		if log := collect(c, "-repeats", "2"); !strings.Contains(log, "1 cells, 2 runs to do") {
			t.Errorf("-repeats 2 for %s:\n%s", c.id, log)
		}
		d, err := store.Load(dataDir(c))
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Builds) != 1 || len(d.Runs) != 4 || len(d.Results) != 4*len(clientTests) {
			t.Errorf("%s after -repeats 2: %d builds, %d runs, %d results; want 1, 4, %d",
				c.id, len(d.Builds), len(d.Runs), len(d.Results), 4*len(clientTests))
		}
		checkPlan(t, d.Plan, 1, 2)
		checkRuns(t, d.Runs, 4, builds, machineID, start, time.Now().UTC(), 2)
		checkResults(t, d.Results, d.Runs)
		out, _, err := runCLI(t, "plan", "-config", c.config, "-data", dataDir(c), "-repeats", "2")
		if err != nil || !strings.Contains(out, "1 cells: 1 done, 0 partial, 0 failed, 0 pending; 0 runs to do") {
			t.Errorf("plan after -repeats 2: %v\n%s", err, out)
		}
	}
}

// summary lists the rows that identify a dataset's content.
func summary(d *store.Data) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d plan, %d machines;", len(d.Plan), len(d.Machines))
	for _, x := range d.Builds {
		b.WriteString(" " + x.BuildID)
	}
	for _, x := range d.Runs {
		b.WriteString(" " + x.RunID)
	}
	fmt.Fprintf(&b, "; %d results", len(d.Results))
	return b.String()
}

func checkPlan(t *testing.T, plan []store.Plan, rows int, repeats int32) {
	t.Helper()
	if len(plan) != rows {
		t.Fatalf("%d plan rows, want %d", len(plan), rows)
	}
	current, extended := true, false
	for _, p := range plan {
		c := cellByID(t, p.CellID)
		want := store.Plan{CellID: c.id, Version: "7.0.15", Compiler: c.compiler, FlagSet: c.flags, CC: c.cc, CFlags: c.flags,
			Modes: "data,pipe", Repeats: repeats, Current: &current, Extended: &extended}
		if !reflect.DeepEqual(p, want) {
			t.Errorf("plan row %+v\nwant %+v", p, want)
		}
	}
}

func cellByID(t *testing.T, id string) e2eCell {
	t.Helper()
	for _, c := range e2eCells {
		if c.id == id {
			return c
		}
	}
	t.Fatalf("unexpected cell %q", id)
	return e2eCell{}
}

func checkMachines(t *testing.T, ms []store.Machine, start, end time.Time) string {
	t.Helper()
	if len(ms) != 1 {
		t.Fatalf("%d machine rows, want 1", len(ms))
	}
	m := ms[0]
	if len(m.MachineID) != 12 || m.Hostname == "" || m.CPUModel == "" || int(m.Cores) != runtime.NumCPU() ||
		m.MemoryBytes < 1<<28 || m.Kernel == "" || m.OS == "" || m.MemWriteBPS < 1e8 ||
		!within(m.MeasuredAt, start, end) || m.CollectorVersion != collectorVersion() {
		t.Errorf("machine row %+v", m)
	}
	// The class it measured for is recorded: its CPU's family and model where x86 gives them.
	id := machine.CPUID()
	if m.HardwareClass == nil || *m.HardwareClass != hwclass.DefaultLabel(m.CPUModel, id, int(m.Cores)) ||
		(id != "") != (m.CPUID != nil) || (m.CPUID != nil && *m.CPUID != id) {
		t.Errorf("machine class %v, cpu id %v; want %q, %q", m.HardwareClass, m.CPUID, hwclass.DefaultLabel(m.CPUModel, id, int(m.Cores)), id)
	}
	return m.MachineID
}

func within(at, start, end time.Time) bool {
	return !at.Before(start.Add(-time.Second)) && !at.After(end.Add(time.Second))
}

// checkBuilds checks both builds and returns the build id of each cell.
func checkBuilds(t *testing.T, bs []store.Build, work, tarSHA, machineID string, start, end time.Time) map[string]string {
	t.Helper()
	if len(bs) != 2 {
		t.Fatalf("%d builds, want 2", len(bs))
	}
	ids := map[string]string{}
	for _, b := range bs {
		c := cellByID(t, b.CellID)
		ids[c.id] = b.BuildID
		binPath := filepath.Join(work, "cells", build.Slug(c.id), "redis-server")
		bin, err := os.Stat(binPath)
		if err != nil {
			t.Fatal(err)
		}
		code, err := build.CodeSHA256(binPath)
		if err != nil {
			t.Fatal(err)
		}
		for _, check := range []struct {
			ok   bool
			what string
		}{
			{strings.HasPrefix(b.BuildID, c.id+"|"), "build_id names the cell"},
			{b.Version == "7.0.15" && b.Compiler == c.compiler && b.FlagSet == c.flags, "version, compiler, flag_set"},
			{b.Status == "ok" && b.Error == nil, "status ok, no error"},
			{strings.Contains(b.LogTail, "redis-server"), "log_tail shows the link"},
			{b.CC == c.cc && filepath.IsAbs(b.CCPath) && strings.Contains(strings.ToLower(b.CCVersion), c.ccName), "cc, cc_path, cc_version"},
			{b.CFlags == c.flags && b.LDFlags == c.ldflags && b.CompatFlags == "" && !b.DepsGetFlags, "cflags, ldflags, compat_flags, deps_get_flags"},
			{strings.HasPrefix(b.MakeArgs, "make -C src -j2 V=1 CC="+c.cc+" "+shellQuote("OPTIMIZATION="+c.flags)+" "+shellQuote("REDIS_LDFLAGS="+c.ldflags)+" "),
				"make_args has the compiler, compile and link flags"},
			{(c.compiler == "clang") == strings.Contains(b.MakeArgs, "-fuse-ld=lld"), "-fuse-ld=lld exactly for clang LTO"},
			{b.SourceKind == "tarball" && b.SourceRef == "redis_7.0.15.orig.tar.gz" && b.SourceCommit == "", "source_kind, source_ref, source_commit"},
			{b.SourceSHA256 == tarSHA && !b.SourceVerified, "source_sha256 of Debian's tarball, not verified (repacked)"},
			{b.SourceSeconds > 0 && b.DepsSeconds > 0 && b.BuildSeconds > 0, "source, deps and build seconds"},
			{b.BinaryBytes == bin.Size() && b.BinaryBytes > 1<<20, "binary_bytes is redis-server's size"},
			{b.CodeSHA256 != nil && *b.CodeSHA256 == code, "code_sha256 is redis-server's code hash"},
			{within(b.StartedAt, start, end) && within(b.FinishedAt, start, end) && !b.FinishedAt.Before(b.StartedAt), "started_at, finished_at"},
			{b.MachineID == machineID && b.CollectorVersion == collectorVersion(), "machine_id, collector_version"},
		} {
			if !check.ok {
				t.Errorf("build %s: %s: %+v", c.id, check.what, b)
			}
		}
	}
	return ids
}

func checkRuns(t *testing.T, runs []store.Run, want int, builds map[string]string, machineID string, start, end time.Time, repeats int) {
	t.Helper()
	if len(runs) != want {
		t.Fatalf("%d runs, want %d", len(runs), want)
	}
	serverCPU, clientCPU := int32(-1), int32(-1)
	if runtime.NumCPU() >= 2 {
		serverCPU, clientCPU = 0, 1
	}
	seen := map[string]bool{}
	for _, r := range runs {
		c := cellByID(t, r.CellID)
		key := store.RunKey(r.CellID, r.Mode, int(r.Repeat))
		mode := map[string]string{"data": "-n 2000 --csv -d 64 -r 9999999999", "pipe": "-n 10000 --csv -d 64 -r 9999999999 -P 1000"}[r.Mode]
		for _, check := range []struct {
			ok   bool
			what string
		}{
			{!seen[key] && !seen[r.RunID], "one row per (cell, mode, repeat)"},
			{strings.HasPrefix(r.RunID, fmt.Sprintf("%s|%s|%d|", c.id, r.Mode, r.Repeat)), "run_id"},
			{r.Version == "7.0.15" && r.Compiler == c.compiler && r.FlagSet == c.flags && r.BuildID == builds[c.id], "cell and build_id"},
			{mode != "" && r.ClientArgs == mode && r.Repeat >= 1 && int(r.Repeat) <= repeats, "mode, client_args, repeat"},
			{r.Status == "ok", "status ok (every test of the 7.0.15 client ran)"},
			{strings.HasPrefix(r.ClientVersion, "redis-benchmark 7.0.15"), "client_version"},
			{r.ServerCPU == serverCPU && r.ClientCPU == clientCPU, "server_cpu, client_cpu"},
			{r.Load1Before >= 0 && r.Load1After >= 0 && strings.HasPrefix(r.OtherCPU, "others:") && !strings.Contains(r.OtherCPU, "redis-server"), "load1, other_cpu"},
			{strings.Contains(r.RawOutput, "$ redis-benchmark -h 127.0.0.1 -p ") && strings.Contains(r.RawOutput, `"PING_INLINE","`), "raw_output"},
			{r.DurationSeconds > 0 && r.OverheadSeconds > 0 && r.OverheadSeconds < r.DurationSeconds+60, "duration_seconds, overhead_seconds"},
			{within(r.StartedAt, start, end) && within(r.FinishedAt, start, end) && !r.FinishedAt.Before(r.StartedAt), "started_at, finished_at"},
			{r.MachineID == machineID, "machine_id"},
			{r.MemWriteBefore != nil && *r.MemWriteBefore > 1e8 && r.MemWriteAfter != nil && *r.MemWriteAfter > 1e8, "mem_write_before, mem_write_after"},
			{r.StealPct != nil && *r.StealPct >= 0, "steal_pct"},
		} {
			if !check.ok {
				shown := r
				shown.RawOutput = fmt.Sprintf("(%d bytes)", len(r.RawOutput))
				t.Errorf("run %s: %s: %+v", r.RunID, check.what, shown)
			}
		}
		seen[key], seen[r.RunID] = true, true
	}
}

func checkResults(t *testing.T, results []store.Result, runs []store.Run) {
	t.Helper()
	byRun := map[string][]store.Result{}
	for _, r := range results {
		byRun[r.RunID] = append(byRun[r.RunID], r)
	}
	if len(byRun) != len(runs) {
		t.Errorf("results for %d runs, want %d", len(byRun), len(runs))
	}
	for _, run := range runs {
		rs := byRun[run.RunID]
		if len(rs) != len(clientTests) {
			t.Errorf("run %s: %d results, want %d; the client printed:\n%s", run.RunID, len(rs), len(clientTests), run.RawOutput)
			continue
		}
		for i, r := range rs {
			ok := r.BuildID == run.BuildID && r.CellID == run.CellID && r.Version == run.Version && r.Compiler == run.Compiler &&
				r.FlagSet == run.FlagSet && r.Mode == run.Mode && r.Repeat == run.Repeat &&
				r.Test == clientTests[i].Name && int(r.TestIndex) == i && r.Status == "ok" && r.Error == nil &&
				r.RPS != nil && *r.RPS > 0
			lat := []*float64{r.MinMS, r.P50MS, r.P95MS, r.P99MS, r.MaxMS}
			for k, p := range lat {
				ok = ok && p != nil && *p >= 0 && (k == 0 || *p >= *lat[k-1])
			}
			ok = ok && r.AvgMS != nil && *r.AvgMS >= *r.MinMS && *r.AvgMS <= *r.MaxMS
			if !ok {
				t.Errorf("run %s result %d: %s", run.RunID, i, describe(r))
			}
		}
	}
}

func describe(r store.Result) string {
	f := func(p *float64) string {
		if p == nil {
			return "null"
		}
		return fmt.Sprint(*p)
	}
	e := "null"
	if r.Error != nil {
		e = *r.Error
	}
	return fmt.Sprintf("%s #%d %s rps=%s avg=%s min=%s p50=%s p95=%s p99=%s max=%s error=%s (%+v)", r.Test, r.TestIndex, r.Status,
		f(r.RPS), f(r.AvgMS), f(r.MinMS), f(r.P50MS), f(r.P95MS), f(r.P99MS), f(r.MaxMS), e, r)
}

// shellQuote quotes a make argument as the recorded command line does.
func shellQuote(s string) string {
	if strings.ContainsAny(s, " $'") {
		return "'" + s + "'"
	}
	return s
}
