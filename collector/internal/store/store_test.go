package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

func ptr[T any](v T) *T { return &v }

var t0 = time.Date(2026, 11, 22, 2, 29, 1, 779_000_000, time.UTC)

// sample has every column of every table filled, nullable ones both set and null.
func sample() *Data {
	return &Data{
		Plan: []Plan{
			{CellID: "2.6.17|gcc|-O2", Version: "2.6.17", VersionIndex: 0, Compiler: "gcc", CompilerIndex: 0, FlagSet: "-O2", FlagIndex: 0,
				CC: "gcc-12", CFlags: "-O2", Modes: "data,pipe", Repeats: 3, Current: ptr(true)},
			{CellID: "7.4.0|clang|-O2 -flto", Version: "7.4.0", VersionIndex: 9, Compiler: "clang", CompilerIndex: 1, FlagSet: "-O2 -flto", FlagIndex: 3,
				CC: "clang-19", CFlags: "-O2 -flto", Modes: "data,pipe", Repeats: 1, Current: ptr(false)},
			{CellID: "7.4.1|clang|-O2 -flto", Version: "7.4.1", VersionIndex: 10, Compiler: "clang", CompilerIndex: 1, FlagSet: "-O2 -flto", FlagIndex: 3,
				CC: "clang-19", CFlags: "-O2 -flto", Modes: "data,pipe", Repeats: 3},
		},
		Builds: []Build{
			{BuildID: "2.6.17|gcc|-O2|20261122T022857.000", CellID: "2.6.17|gcc|-O2", Version: "2.6.17", Compiler: "gcc", FlagSet: "-O2",
				Status: "ok", LogTail: "gcc-12 -O2 -o redis-server ...", CC: "gcc-12", CCPath: "/usr/bin/gcc-12",
				CCVersion: "gcc-12 (Debian 12.2.0-14) 12.2.0", CFlags: "-O2", LDFlags: "-O2", CompatFlags: "", DepsGetFlags: false,
				MakeArgs: "make -C src -j2 V=1 CC=gcc-12 OPTIMIZATION=-O2 REDIS_LDFLAGS=-O2 redis-server", SourceKind: "git",
				SourceRef: "2.6.17", SourceCommit: "8ab8a3bd1b0e8d8e6fdbd9f2a8f9e5cd3b0ce0f7", SourceSHA256: "", SourceVerified: true,
				SourceSeconds: 1.25, DepsSeconds: 40.5, BuildSeconds: 12.75, BinaryBytes: 3320720,
				StartedAt: t0.Add(-4 * time.Second), FinishedAt: t0.Add(-time.Second), MachineID: "a1b2c3d4e5f6", CollectorVersion: "0.1.0+abc"},
			{BuildID: "7.4.1|clang|-O2 -flto|20261122T030000.000", CellID: "7.4.1|clang|-O2 -flto", Version: "7.4.1", Compiler: "clang",
				FlagSet: "-O2 -flto", Status: "failed", Error: ptr("make: exit status 2: clang: error: linker command failed"),
				LogTail: "...", CC: "clang-19", CCPath: "/usr/bin/clang-19", CCVersion: "Debian clang version 19.1.7",
				CFlags: "-O2 -flto -fcommon", LDFlags: "-O2 -flto -fuse-ld=lld", CompatFlags: "-fcommon", DepsGetFlags: true,
				MakeArgs: "make ...", SourceKind: "tarball", SourceRef: "redis-7.4.1.tar.gz", SourceSHA256: strings.Repeat("ab", 32),
				SourceVerified: true, BuildSeconds: 99.5, StartedAt: t0.Add(time.Hour), FinishedAt: t0.Add(time.Hour + time.Minute),
				MachineID: "a1b2c3d4e5f6", CollectorVersion: "0.1.0"},
		},
		Runs: []Run{
			{RunID: "2.6.17|gcc|-O2|data|1|20261122T022901.779", CellID: "2.6.17|gcc|-O2", Version: "2.6.17", Compiler: "gcc", FlagSet: "-O2",
				BuildID: "2.6.17|gcc|-O2|20261122T022857.000", Mode: "data", Repeat: 1, Status: "partial", ClientVersion: "redis-benchmark 7.4.1",
				ClientArgs: "-n 2000 --csv -d 64 -r 9999999999", ServerCPU: 0, ClientCPU: 1, Load1Before: 2.47, Load1After: 2.51,
				OtherCPU: "cc1:97,as:3", RawOutput: "$ redis-benchmark ...\n\"PING_INLINE\",\"80000.00\"\n", DurationSeconds: 0.94, OverheadSeconds: 0.012,
				StartedAt: t0, FinishedAt: t0.Add(940 * time.Millisecond), MachineID: "a1b2c3d4e5f6",
				MemWriteBefore: ptr(4.6e10), MemWriteAfter: ptr(2.2e10)},
			{RunID: "2.6.17|gcc|-O2|pipe|1|20261122T022902.717", CellID: "2.6.17|gcc|-O2", Version: "2.6.17", Compiler: "gcc", FlagSet: "-O2",
				BuildID: "2.6.17|gcc|-O2|20261122T022857.000", Mode: "pipe", Repeat: 1, Status: "server_failed", ClientVersion: "redis-benchmark 7.4.1",
				ClientArgs: "-P 1000", ServerCPU: -1, ClientCPU: -1, StartedAt: t0.Add(2 * time.Second), FinishedAt: t0.Add(3 * time.Second),
				MachineID: "a1b2c3d4e5f6"},
		},
		Results: []Result{
			{RunID: "2.6.17|gcc|-O2|data|1|20261122T022901.779", BuildID: "2.6.17|gcc|-O2|20261122T022857.000", CellID: "2.6.17|gcc|-O2",
				Version: "2.6.17", Compiler: "gcc", FlagSet: "-O2", Mode: "data", Repeat: 1, Test: "PING_INLINE", TestIndex: 0, Status: "ok",
				RPS: ptr(80000.0), AvgMS: ptr(0.315), MinMS: ptr(0.104), P50MS: ptr(0.311), P95MS: ptr(0.351), P99MS: ptr(0.463), MaxMS: ptr(0.551),
				ServerUserS: ptr(0.21), ServerSysS: ptr(0.62), ServerBusy: ptr(0.86), ClientUserS: ptr(0.3), ClientSysS: ptr(0.55), ClientBusy: ptr(0.91)},
			{RunID: "2.6.17|gcc|-O2|data|1|20261122T022901.779", BuildID: "2.6.17|gcc|-O2|20261122T022857.000", CellID: "2.6.17|gcc|-O2",
				Version: "2.6.17", Compiler: "gcc", FlagSet: "-O2", Mode: "data", Repeat: 1, Test: "ZPOPMIN", TestIndex: 13, Status: "unsupported",
				Error: ptr("ERR unknown command 'ZPOPMIN'")},
			{RunID: "2.6.17|gcc|-O2|data|1|20261122T022901.779", BuildID: "2.6.17|gcc|-O2|20261122T022857.000", CellID: "2.6.17|gcc|-O2",
				Version: "2.6.17", Compiler: "gcc", FlagSet: "-O2", Mode: "data", Repeat: 1, Test: "PING_BULK", TestIndex: 100, Status: "ok",
				RPS: ptr(45454.55)}, // an old client: no latency columns
		},
		Machines: []Machine{{MachineID: "a1b2c3d4e5f6", Hostname: "bench-1", CPUModel: "AMD EPYC 7B13", Cores: 2,
			MemoryBytes: 8 << 30, Kernel: "6.1.0", OS: "Debian GNU/Linux 12 (bookworm)", MemWriteBPS: 9.5e9,
			MeasuredAt: t0.Add(-time.Minute), CollectorVersion: "0.1.0"}},
	}
}

func TestRoundTripEveryTable(t *testing.T) {
	// Timestamps are written as plain (local) TIMESTAMP: they must read back
	// as the same instant whatever the process's time zone.
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.FixedZone("UTC+5", 5*3600)
	dir := t.TempDir()
	want := sample()
	if err := want.Save(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	normalize(got)
	if !reflect.DeepEqual(got.Plan, want.Plan) {
		t.Errorf("plan:\n got %+v\nwant %+v", got.Plan, want.Plan)
	}
	if !reflect.DeepEqual(got.Builds, want.Builds) {
		t.Errorf("builds:\n got %+v\nwant %+v", got.Builds, want.Builds)
	}
	if !reflect.DeepEqual(got.Runs, want.Runs) {
		t.Errorf("runs:\n got %+v\nwant %+v", got.Runs, want.Runs)
	}
	if !reflect.DeepEqual(got.Results, want.Results) {
		t.Errorf("results:\n got %+v\nwant %+v", got.Results, want.Results)
	}
	if !reflect.DeepEqual(got.Machines, want.Machines) {
		t.Errorf("machines:\n got %+v\nwant %+v", got.Machines, want.Machines)
	}
	// What DuckDB shows is the stored number: UTC milliseconds, not local time.
	type rawRun struct {
		StartedAt int64 `parquet:"started_at"`
	}
	raw, err := parquet.ReadFile[rawRun](filepath.Join(dir, RunsFile))
	if err != nil || len(raw) != 2 || raw[0].StartedAt != t0.UnixMilli() {
		t.Errorf("stored started_at = %+v (%v), want %d (UTC ms)", raw, err, t0.UnixMilli())
	}
	for _, name := range []string{PlanFile, BuildsFile, RunsFile, ResultsFile, MachinesFile, RedoneRunsFile, RedoneResultsFile} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil || st.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v, mode %v; want a world-readable file", name, err, st.Mode())
		}
	}
}

// normalize puts read-back timestamps in UTC so DeepEqual compares instants.
func normalize(d *Data) {
	for i := range d.Builds {
		d.Builds[i].StartedAt, d.Builds[i].FinishedAt = d.Builds[i].StartedAt.UTC(), d.Builds[i].FinishedAt.UTC()
	}
	for i := range d.Runs {
		d.Runs[i].StartedAt, d.Runs[i].FinishedAt = d.Runs[i].StartedAt.UTC(), d.Runs[i].FinishedAt.UTC()
	}
	for i := range d.Machines {
		d.Machines[i].MeasuredAt = d.Machines[i].MeasuredAt.UTC()
	}
}

// planV019 is a plan row as collector 0.1.9 wrote it, before current.
type planV019 struct {
	CellID  string `parquet:"cell_id"`
	Version string `parquet:"version"`
	Repeats int32  `parquet:"repeats"`
}

func TestLoadPlanWrittenBeforeTheCurrentColumn(t *testing.T) {
	dir := t.TempDir()
	if err := write(dir, PlanFile, []planV019{{CellID: "2.6.17|gcc|-O2", Version: "2.6.17", Repeats: 3}}); err != nil {
		t.Fatal(err)
	}
	d, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Plan) != 1 || d.Plan[0].Version != "2.6.17" || d.Plan[0].Repeats != 3 || d.Plan[0].Current != nil {
		t.Fatalf("old plan read as %+v, want its row with a null current", d.Plan)
	}
}

// runV011 is a run row as collector 0.1.1 wrote it, before mem_write_before/after.
type runV011 struct {
	RunID     string    `parquet:"run_id"`
	CellID    string    `parquet:"cell_id"`
	Status    string    `parquet:"status"`
	StartedAt time.Time `parquet:"started_at,timestamp(millisecond:local)"`
	MachineID string    `parquet:"machine_id"`
}

func TestLoadRunsWrittenBeforeTheProbeColumns(t *testing.T) {
	dir := t.TempDir()
	old := []runV011{{RunID: "r1", CellID: "2.6.17|gcc|-O2", Status: "ok", StartedAt: t0, MachineID: "a1b2c3d4e5f6"}}
	if err := write(dir, RunsFile, old); err != nil {
		t.Fatal(err)
	}
	d, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) != 1 || d.Runs[0].RunID != "r1" || !d.Runs[0].StartedAt.Equal(t0) || d.Runs[0].MemWriteBefore != nil || d.Runs[0].MemWriteAfter != nil {
		t.Fatalf("old runs read as %+v", d.Runs)
	}
	// Saved again with a new run, the old row keeps null probes.
	d.Runs = append(d.Runs, Run{RunID: "r2", StartedAt: t0, MemWriteBefore: ptr(4e10), MemWriteAfter: ptr(3e10)})
	if err := d.Save(dir); err != nil {
		t.Fatal(err)
	}
	d2, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d2.Runs[0].MemWriteBefore != nil || *d2.Runs[1].MemWriteBefore != 4e10 || *d2.Runs[1].MemWriteAfter != 3e10 {
		t.Fatalf("after a save: %+v", d2.Runs)
	}
}

func TestLoadMissingDirIsEmpty(t *testing.T) {
	d, err := Load(filepath.Join(t.TempDir(), "none"))
	if err != nil || len(d.Plan)+len(d.Builds)+len(d.Runs)+len(d.Results)+len(d.Machines) != 0 {
		t.Errorf("Load of a missing dir = %+v, %v", d, err)
	}
}

func TestLoadCorruptFileFails(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, RunsFile), []byte("not parquet"), 0o644)
	_, err := Load(dir)
	if err == nil || !strings.HasPrefix(err.Error(), "read "+filepath.Join(dir, RunsFile)+": ") {
		t.Errorf("err = %v", err)
	}
}

// withFileSizeLimit runs f with writes beyond limit bytes failing (EFBIG), as
// on a full disk.
func withFileSizeLimit(t *testing.T, limit uint64, f func()) {
	t.Helper()
	signal.Ignore(syscall.SIGXFSZ)
	defer signal.Reset(syscall.SIGXFSZ)
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	small := lim
	small.Cur = limit
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &small); err != nil {
		t.Skipf("cannot lower the file size limit: %v", err)
	}
	defer func() {
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			t.Fatal(err)
		}
	}()
	f()
}

// incompressible is a string that stays large in a zstd-compressed file.
func incompressible() string {
	noise := make([]byte, 1<<20)
	rand.Read(noise)
	return hex.EncodeToString(noise)
}

func TestFailedWriteKeepsThePreviousFile(t *testing.T) {
	dir := t.TempDir()
	if err := sample().Save(dir); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, RunsFile))
	big := sample()
	big.Runs[0].RawOutput = incompressible()
	var err error
	withFileSizeLimit(t, 256<<10, func() { err = write(dir, RunsFile, big.Runs) })
	if err == nil || !errors.Is(err, syscall.EFBIG) || !strings.HasPrefix(err.Error(), "write "+filepath.Join(dir, RunsFile)) {
		t.Fatalf("write = %v, want EFBIG naming the file", err)
	}
	assertUnchanged(t, dir, RunsFile, before)
}

// A save that stops part way (disk full, kill) must never leave a run whose
// results are missing: such a run would count as done and never be redone.
func TestInterruptedSaveNeverLeavesARunWithoutResults(t *testing.T) {
	for _, failing := range []string{RunsFile, ResultsFile} {
		t.Run(failing, func(t *testing.T) {
			dir := t.TempDir()
			d := sample()
			if err := d.Save(dir); err != nil {
				t.Fatal(err)
			}
			// One more finished run with its results; the failing table gets a huge row.
			run := d.Runs[0]
			run.RunID, run.Repeat, run.StartedAt = "2.6.17|gcc|-O2|data|2|x", 2, t0.Add(time.Hour)
			res := d.Results[0]
			res.RunID, res.Repeat = run.RunID, 2
			if failing == RunsFile {
				run.RawOutput = incompressible()
			} else {
				res.Error = ptr(incompressible())
			}
			d.Runs, d.Results = append(d.Runs, run), append(d.Results, res)
			var err error
			withFileSizeLimit(t, 256<<10, func() { err = d.Save(dir) })
			if !errors.Is(err, syscall.EFBIG) {
				t.Fatalf("Save = %v, want EFBIG", err)
			}
			got, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			runs, results := 0, 0
			for _, r := range got.Runs {
				if r.RunID == run.RunID {
					runs++
				}
			}
			for _, r := range got.Results {
				if r.RunID == run.RunID {
					results++
				}
			}
			if runs != results { // both 0 (redone on resume) or both 1
				t.Errorf("the new run is stored %d times with %d results", runs, results)
			}
			assertNoTemp(t, dir)
		})
	}
}

// A table that cannot be replaced (a directory stands where results.parquet
// goes) makes Save fail with the file named; no temporary file remains.
func TestSaveFailureLeavesNoTempFiles(t *testing.T) {
	dir := t.TempDir()
	if err := sample().Save(dir); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, ResultsFile))
	os.MkdirAll(filepath.Join(dir, ResultsFile, "x"), 0o755)
	err := sample().Save(dir)
	if err == nil || !strings.HasPrefix(err.Error(), "write "+filepath.Join(dir, ResultsFile)) {
		t.Fatalf("Save = %v, want an error naming results.parquet", err)
	}
	assertNoTemp(t, dir)
}

func TestReadOnlyDirKeepsThePreviousFile(t *testing.T) {
	dir := t.TempDir()
	if err := sample().Save(dir); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, RunsFile))
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	if f, err := os.CreateTemp(dir, "probe"); err == nil {
		f.Close()
		os.Remove(f.Name())
		t.Skip("running as root: a read-only directory is still writable")
	}
	if err := write(dir, RunsFile, sample().Runs); err == nil || !errors.Is(err, os.ErrPermission) {
		t.Fatalf("write = %v, want permission denied", err)
	}
	assertUnchanged(t, dir, RunsFile, before)
}

func assertUnchanged(t *testing.T, dir, name string, before []byte) {
	t.Helper()
	after, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil || string(after) != string(before) {
		t.Errorf("%s changed by a failed write (%v)", name, err)
	}
	if d, err := Load(dir); err != nil || len(d.Runs) != 2 {
		t.Errorf("the previous table no longer loads: %v", err)
	}
	assertNoTemp(t, dir)
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// A machines file written before collector 0.1.8 (no cpu_id, no hardware_class) still loads.
func TestLoadReadsMachinesWithoutTheClassColumns(t *testing.T) {
	type oldMachine struct {
		MachineID string `parquet:"machine_id"`
		CPUModel  string `parquet:"cpu_model"`
		Cores     int32  `parquet:"cores"`
	}
	dir := t.TempDir()
	if err := parquet.WriteFile(filepath.Join(dir, MachinesFile), []oldMachine{{"m", "AMD EPYC", 2}}); err != nil {
		t.Fatal(err)
	}
	d, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Machines) != 1 || d.Machines[0].HardwareClass != nil || d.Machines[0].CPUID != nil || d.Machines[0].CPUModel != "AMD EPYC" {
		t.Errorf("machines = %+v", d.Machines)
	}
}

// Raw outputs that share their lines with many others (a release's cells,
// a cell's repeats) compress against each other across the whole file: the
// counting runs' raw output is most of the published bytes. 256 outputs of
// 64 KiB (16 MiB) cut from one 512 KiB text of random bytes take under 2.5
// times that text (0.9 MB); in pages of 4 MiB every page takes it again (3.4 MB).
func TestRawOutputsCompressAcrossPages(t *testing.T) {
	text := make([]byte, 512<<10)
	rand.Read(text)
	var runs []CountRun
	for i := 0; i < 256; i++ {
		var out []byte
		for j := 0; j < 16; j++ { // 16 chunks of 4 KiB from anywhere in the text
			at := (i*7919 + j*104729) % (len(text) / 4096) * 4096
			out = append(out, text[at:at+4096]...)
		}
		runs = append(runs, CountRun{RunID: fmt.Sprintf("r%03d", i), CellID: "7.4.1|gcc|-O2", Mode: "data", RawOutput: string(out)})
	}
	dir := t.TempDir()
	if err := write(dir, CountRunsFile, runs); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, CountRunsFile))
	if err != nil {
		t.Fatal(err)
	}
	if once := int64(len(text)); st.Size() > once*5/2 {
		t.Fatalf("16 MiB of raw output cut from a %d-byte text take %d bytes, want under 2.5 times the text: pages do not share what they repeat", once, st.Size())
	}
}
