// Package store keeps the collector's results as Parquet tables (plan, builds,
// runs, results, machines; schema in docs/data-schema.md). The tables are read
// whole, changed in memory and rewritten atomically, so a kill at any moment
// leaves either the old or the new file, never a half-written one.
package store

import "time"

// Plan is one planned cell.
type Plan struct {
	CellID        string `parquet:"cell_id"`
	Version       string `parquet:"version"`
	VersionIndex  int32  `parquet:"version_index"`
	Compiler      string `parquet:"compiler"`
	CompilerIndex int32  `parquet:"compiler_index"`
	FlagSet       string `parquet:"flag_set"`
	FlagIndex     int32  `parquet:"flag_index"`
	CC            string `parquet:"cc"`
	CFlags        string `parquet:"cflags"`
	Modes         string `parquet:"modes"`
	// Repeats are the benchmark runs planned per mode and hardware class.
	Repeats int32 `parquet:"repeats"`
	// Current says the version is one of the matrix's current versions (its
	// default set); null in plans written before collector 0.2.0, which held
	// only current versions.
	Current *bool `parquet:"current,optional"`
	// Extended says the cell's flag set is an extended configuration
	// (matrix.toml `extended`), beyond the 12 reference ones; null in plans
	// written before extended configurations existed (all reference ones).
	Extended *bool `parquet:"extended,optional"`
}

// Build is one build attempt of a cell.
type Build struct {
	BuildID          string    `parquet:"build_id"`
	CellID           string    `parquet:"cell_id"`
	Version          string    `parquet:"version"`
	Compiler         string    `parquet:"compiler"`
	FlagSet          string    `parquet:"flag_set"`
	Status           string    `parquet:"status"`
	Error            *string   `parquet:"error,optional"`
	LogTail          string    `parquet:"log_tail"`
	CC               string    `parquet:"cc"`
	CCPath           string    `parquet:"cc_path"`
	CCVersion        string    `parquet:"cc_version"`
	CFlags           string    `parquet:"cflags"`
	LDFlags          string    `parquet:"ldflags"`
	CompatFlags      string    `parquet:"compat_flags"`
	DepsGetFlags     bool      `parquet:"deps_get_flags"`
	MakeArgs         string    `parquet:"make_args"`
	SourceKind       string    `parquet:"source_kind"`
	SourceRef        string    `parquet:"source_ref"`
	SourceCommit     string    `parquet:"source_commit"`
	SourceSHA256     string    `parquet:"source_sha256"`
	SourceVerified   bool      `parquet:"source_verified"`
	SourceSeconds    float64   `parquet:"source_seconds"`
	DepsSeconds      float64   `parquet:"deps_seconds"`
	BuildSeconds     float64   `parquet:"build_seconds"`
	BinaryBytes      int64     `parquet:"binary_bytes"`
	StartedAt        time.Time `parquet:"started_at,timestamp(millisecond:local)"`
	FinishedAt       time.Time `parquet:"finished_at,timestamp(millisecond:local)"`
	MachineID        string    `parquet:"machine_id"`
	CollectorVersion string    `parquet:"collector_version"`
	// RedisBuildID is the REDIS_BUILD_ID compiled in (release.h): "" for a
	// release without one (2.6), null for builds recorded before it was kept
	// (their IDs held the host name and the time of the build).
	RedisBuildID *string `parquet:"redis_build_id,optional"`
	// CodeSHA256 is the SHA-256 of the server's mapped code: every allocated
	// section but the notes (build.CodeSHA256). Two builds with one code
	// hash are the same binary to the instruction, wherever they were built.
	// Null for failed builds and builds recorded before the column.
	CodeSHA256 *string `parquet:"code_sha256,optional"`
	// CodeIdentifiedBy, for a build recorded without a code hash whose
	// binary is gone, names the counting run of a later build of its cell
	// whose counts equal its own (Data.IdentifyByCounts): CodeSHA256 is then
	// that build's, given for the code the runs counted, not read from this
	// build's bytes. Null for every build hashed from its own binary.
	CodeIdentifiedBy *string `parquet:"code_identified_by,optional"`
	// JemallocLgVaddr is the LG_VADDR (virtual address bits) the bundled
	// jemalloc was configured with (build.FixedLgVaddr): 0 for a release
	// whose jemalloc has none (before Redis 5.0). Null for builds recorded
	// before the column whose dependency tree was no longer at hand; before
	// the value was fixed, configure took it from the build host's CPU.
	JemallocLgVaddr *int32 `parquet:"jemalloc_lg_vaddr,optional"`
	// PGOTraining describes a profile-guided build's training workload
	// (build.TrainingWorkload) and PGOProfileSHA256 is the digest of the
	// profile it was built with; null for every other build.
	PGOTraining      *string `parquet:"pgo_training,optional"`
	PGOProfileSHA256 *string `parquet:"pgo_profile_sha256,optional"`
	// DepsJemalloc, DepsLua, DepsHiredis and DepsLinenoise are the bundled
	// dependencies as the release's source ships them in deps/
	// (source.ReadDeps): jemalloc's VERSION ("4.4.0"), Lua's LUA_RELEASE
	// ("5.1.5"), hiredis's HIREDIS_MAJOR.MINOR.PATCH ("0.11.0"), and, for
	// linenoise, which names no version, 12 hex digits of linenoise.c's
	// SHA-256. "" where the release ships none; null for builds recorded
	// before the columns whose source was not read since.
	DepsJemalloc  *string `parquet:"deps_jemalloc,optional"`
	DepsLua       *string `parquet:"deps_lua,optional"`
	DepsHiredis   *string `parquet:"deps_hiredis,optional"`
	DepsLinenoise *string `parquet:"deps_linenoise,optional"`
}

// SetDeps records the bundled dependencies' versions (source.Deps's fields).
func (b *Build) SetDeps(jemalloc, lua, hiredis, linenoise string) {
	b.DepsJemalloc, b.DepsLua, b.DepsHiredis, b.DepsLinenoise = &jemalloc, &lua, &hiredis, &linenoise
}

// Run is one finished benchmark run (cell × mode × repeat).
type Run struct {
	RunID           string  `parquet:"run_id"`
	CellID          string  `parquet:"cell_id"`
	Version         string  `parquet:"version"`
	Compiler        string  `parquet:"compiler"`
	FlagSet         string  `parquet:"flag_set"`
	BuildID         string  `parquet:"build_id"`
	Mode            string  `parquet:"mode"`
	Repeat          int32   `parquet:"repeat"`
	Status          string  `parquet:"status"`
	ClientVersion   string  `parquet:"client_version"`
	ClientArgs      string  `parquet:"client_args"`
	ServerCPU       int32   `parquet:"server_cpu"`
	ClientCPU       int32   `parquet:"client_cpu"`
	Load1Before     float64 `parquet:"load1_before"`
	Load1After      float64 `parquet:"load1_after"`
	OtherCPU        string  `parquet:"other_cpu"`
	RawOutput       string  `parquet:"raw_output"`
	DurationSeconds float64 `parquet:"duration_seconds"`
	// OverheadSeconds is the collector's own time around the run (bookkeeping,
	// saving the tables) and, for a cell's first run, around its build.
	OverheadSeconds float64   `parquet:"overhead_seconds"`
	StartedAt       time.Time `parquet:"started_at,timestamp(millisecond:local)"`
	FinishedAt      time.Time `parquet:"finished_at,timestamp(millisecond:local)"`
	MachineID       string    `parquet:"machine_id"`
	// MemWriteBefore and MemWriteAfter are the machine's memory write rate
	// (bytes/s, machine.MemWriteBandwidth) measured just before and just after
	// the benchmark: a probe of the host's speed at the time, since slow spells
	// of a VM's host show up in neither /proc/stat nor the load average. Null
	// for runs collected before collector 0.1.3 (0.1.3 took a shorter probe,
	// docs/data-schema.md).
	MemWriteBefore *float64 `parquet:"mem_write_before,optional"`
	MemWriteAfter  *float64 `parquet:"mem_write_after,optional"`
	// StealPct is the CPU time the VM's host gave to others while this VM had
	// work to run (/proc/stat steal, all CPUs) during the benchmark, in percent
	// of one CPU. Null for runs collected before collector 0.1.6.
	StealPct *float64 `parquet:"steal_pct,optional"`
	// RoundSeed, for a run of a precision mode, seeds the random order of its
	// round (repeat) of the version's configurations; RoundPosition is the
	// run's 1-based place in that order. Null for the reference modes.
	RoundSeed     *int64 `parquet:"round_seed,optional"`
	RoundPosition *int32 `parquet:"round_position,optional"`
}

// RedoneRun is a run that was measured again (-redo-noisy, -redo-steal,
// -retry-failed, -redo-before): the discarded run as it was, why it was
// redone, and the run that replaced it. Its results are kept, as they were, in
// redone_results. Nothing measured is thrown away: a reader can see what was
// redone and how different the discarded figures were.
type RedoneRun struct {
	Run
	// RedoReason says which rule redid it, e.g. "host steal 26.9% > 10%".
	RedoReason string `parquet:"redo_reason"`
	// ReplacedBy is the run_id of the run measured in its place (in runs, or
	// itself in redone_runs when it was redone again).
	ReplacedBy string `parquet:"replaced_by"`
}

// Result is one test of a run.
type Result struct {
	RunID     string   `parquet:"run_id"`
	BuildID   string   `parquet:"build_id"`
	CellID    string   `parquet:"cell_id"`
	Version   string   `parquet:"version"`
	Compiler  string   `parquet:"compiler"`
	FlagSet   string   `parquet:"flag_set"`
	Mode      string   `parquet:"mode"`
	Repeat    int32    `parquet:"repeat"`
	Test      string   `parquet:"test"`
	TestIndex int32    `parquet:"test_index"`
	Status    string   `parquet:"status"`
	RPS       *float64 `parquet:"rps,optional"`
	AvgMS     *float64 `parquet:"avg_latency_ms,optional"`
	MinMS     *float64 `parquet:"min_latency_ms,optional"`
	P50MS     *float64 `parquet:"p50_latency_ms,optional"`
	P95MS     *float64 `parquet:"p95_latency_ms,optional"`
	P99MS     *float64 `parquet:"p99_latency_ms,optional"`
	MaxMS     *float64 `parquet:"max_latency_ms,optional"`
	Error     *string  `parquet:"error,optional"`
	// Requests, in a precision mode, is the -n the test ran with (its
	// calibration's); null for the reference modes, whose -n is in client_args.
	Requests *int64 `parquet:"requests,optional"`
	// Where the server's and the client's time went during the test
	// (bench.TestCPU, from /proc): CPU seconds in user mode and in the
	// kernel, and the busy fraction (on-CPU time / the test's wall time).
	// Null for results collected before collector 0.3.0, for tests without
	// a row, and where /proc could not be read.
	ServerUserS *float64 `parquet:"server_user_s,optional"`
	ServerSysS  *float64 `parquet:"server_sys_s,optional"`
	ServerBusy  *float64 `parquet:"server_busy,optional"`
	ClientUserS *float64 `parquet:"client_user_s,optional"`
	ClientSysS  *float64 `parquet:"client_sys_s,optional"`
	ClientBusy  *float64 `parquet:"client_busy,optional"`
}

// Machine describes a machine the collector ran on.
type Machine struct {
	MachineID        string    `parquet:"machine_id"`
	Hostname         string    `parquet:"hostname"`
	CPUModel         string    `parquet:"cpu_model"`
	Cores            int32     `parquet:"cores"`
	MemoryBytes      int64     `parquet:"memory_bytes"`
	Kernel           string    `parquet:"kernel"`
	OS               string    `parquet:"os"`
	MemWriteBPS      float64   `parquet:"mem_write_bytes_per_s"`
	MeasuredAt       time.Time `parquet:"measured_at,timestamp(millisecond:local)"`
	CollectorVersion string    `parquet:"collector_version"`
	// CPUID is the CPU's family, model and stepping ("family 25 model 17
	// stepping 1"); null before collector 0.1.8 or where the kernel gives none.
	CPUID *string `parquet:"cpu_id,optional"`
	// HardwareClass is the hardware class the machine measured for (see
	// hwclass.Of); null before collector 0.1.8.
	HardwareClass *string `parquet:"hardware_class,optional"`
}
