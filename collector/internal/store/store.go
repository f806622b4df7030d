package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// Data is the whole dataset in memory.
type Data struct {
	Plan     []Plan
	Builds   []Build
	Runs     []Run
	Results  []Result
	Machines []Machine
	// RedoneRuns and RedoneResults are the runs measured again and their
	// results, out of runs and results (Retire).
	RedoneRuns    []RedoneRun
	RedoneResults []Result
	// CountRuns and Counts are the counted instrument's runs and tests.
	CountRuns []CountRun
	Counts    []Count
	// SupersededCountRuns and SupersededCounts are the counting runs of
	// earlier protocols (CountProtocol) and their tests, kept as evidence.
	SupersededCountRuns []CountRun
	SupersededCounts    []Count
	// Calibrations are the precision modes' request counts per test.
	Calibrations []Calibration
	// RebuildBands are the counted metrics' rebuild bands as the data
	// directory holds them (none in directories written before the table);
	// every save that writes counts computes them again (MeasureRebuildBands).
	RebuildBands []RebuildBand
}

// File names of the tables inside a data directory.
const (
	PlanFile     = "plan.parquet"
	BuildsFile   = "builds.parquet"
	RunsFile     = "runs.parquet"
	ResultsFile  = "results.parquet"
	MachinesFile = "machines.parquet"
	// RedoneRunsFile and RedoneResultsFile hold runs that were measured again.
	RedoneRunsFile    = "redone_runs.parquet"
	RedoneResultsFile = "redone_results.parquet"
)

// Load reads every table of dir; a missing file is an empty table.
func Load(dir string) (*Data, error) {
	d := &Data{}
	var err error
	if d.Plan, err = read[Plan](dir, PlanFile); err != nil {
		return nil, err
	}
	if d.Builds, err = read[Build](dir, BuildsFile); err != nil {
		return nil, err
	}
	if d.Runs, err = read[Run](dir, RunsFile); err != nil {
		return nil, err
	}
	if d.Results, err = read[Result](dir, ResultsFile); err != nil {
		return nil, err
	}
	if d.Machines, err = read[Machine](dir, MachinesFile); err != nil {
		return nil, err
	}
	if d.RedoneRuns, err = read[RedoneRun](dir, RedoneRunsFile); err != nil {
		return nil, err
	}
	if d.RedoneResults, err = read[Result](dir, RedoneResultsFile); err != nil {
		return nil, err
	}
	if d.CountRuns, err = read[CountRun](dir, CountRunsFile); err != nil {
		return nil, err
	}
	if d.Counts, err = read[Count](dir, CountsFile); err != nil {
		return nil, err
	}
	if d.SupersededCountRuns, err = read[CountRun](dir, SupersededCountRunsFile); err != nil {
		return nil, err
	}
	if d.SupersededCounts, err = read[Count](dir, SupersededCountsFile); err != nil {
		return nil, err
	}
	if d.Calibrations, err = read[Calibration](dir, CalibrationsFile); err != nil {
		return nil, err
	}
	if d.RebuildBands, err = read[RebuildBand](dir, RebuildBandsFile); err != nil {
		return nil, err
	}
	d.Dedupe()
	return d, nil
}

func read[T any](dir, name string) ([]T, error) {
	path := filepath.Join(dir, name)
	rows, err := parquet.ReadFile[T](path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return rows, nil
}

// Save writes every table of d into dir, each atomically. Results are
// written before runs: a save cut short between the two leaves results of a
// run not in runs (dropped by Load, the run is redone), never a run row
// without its results (which would count as done). Redone runs come first of
// all: cut short after them, the discarded run is both in runs and in
// redone_runs, is redone again and recorded once (keyed by run_id).
func (d *Data) Save(dir string) error {
	// A run redone (-redo-noisy, -retry-failed) is appended: the files keep only
	// the last one, the earlier one having been moved to the redone tables (Retire).
	d.Dedupe()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := write(dir, PlanFile, d.Plan); err != nil {
		return err
	}
	// Calibrations before the runs that use them.
	if len(d.Calibrations) > 0 {
		if err := write(dir, CalibrationsFile, d.Calibrations); err != nil {
			return err
		}
	}
	if err := write(dir, BuildsFile, d.Builds); err != nil {
		return err
	}
	if err := write(dir, RedoneResultsFile, d.RedoneResults); err != nil {
		return err
	}
	if err := write(dir, RedoneRunsFile, d.RedoneRuns); err != nil {
		return err
	}
	if err := write(dir, ResultsFile, d.Results); err != nil {
		return err
	}
	if err := write(dir, RunsFile, d.Runs); err != nil {
		return err
	}
	// Superseded counting runs first: cut short after them, a run both there
	// and in count_runs is moved again by the next load.
	if len(d.SupersededCountRuns) > 0 {
		if err := write(dir, SupersededCountsFile, d.SupersededCounts); err != nil {
			return err
		}
		if err := write(dir, SupersededCountRunsFile, d.SupersededCountRuns); err != nil {
			return err
		}
	}
	return d.writeCountsAndMachines(dir)
}

// writeCountsAndMachines ends every save: counts before their runs (as
// results before runs), the rebuild bands they give (when anything was
// counted), then machines.
func (d *Data) writeCountsAndMachines(dir string) error {
	if err := write(dir, CountsFile, d.Counts); err != nil {
		return err
	}
	if err := write(dir, CountRunsFile, d.CountRuns); err != nil {
		return err
	}
	if len(d.CountRuns)+len(d.SupersededCountRuns) > 0 {
		if err := d.WriteRebuildBands(dir); err != nil {
			return err
		}
	}
	return write(dir, MachinesFile, d.Machines)
}

// WriteRebuildBands computes the rebuild bands of d's counts (MeasureRebuildBands)
// and writes them, alone, into dir.
func (d *Data) WriteRebuildBands(dir string) error {
	d.RebuildBands = d.MeasureRebuildBands()
	return write(dir, RebuildBandsFile, d.RebuildBands)
}

// SaveBuildsAndCounts writes only the tables a build or a counting run adds
// to: builds, counts, count_runs and machines, in Save's order, deduped as
// Save would. It is for data saved whole (Save) into dir since they were
// loaded, as a collection does when it starts: every other table is then the
// same on disk as in d. A counting collection saves after every run, and the
// tables it leaves alone (throughput runs and results, superseded counts) are
// most of the bytes and of the time a whole save takes.
func (d *Data) SaveBuildsAndCounts(dir string) error {
	d.Builds = dedupeBuilds(d.Builds)
	for _, r := range d.CountRuns {
		if ProtocolOf(r) != CountProtocol {
			return d.Save(dir) // a run for the superseded tables: those change too
		}
	}
	d.Machines = dedupe(d.Machines, func(m Machine) string { return m.MachineID })
	d.dedupeCurrentCounts()
	if err := write(dir, BuildsFile, d.Builds); err != nil {
		return err
	}
	return d.writeCountsAndMachines(dir)
}

// pageBytes is the most a column's page holds uncompressed (see write).
const pageBytes = 64 << 20

// write stores rows in a temporary file next to the target, syncs it and
// renames it over the target: readers see the old or the new table, never a mix.
func write[T any](dir, name string, rows []T) error {
	path := filepath.Join(dir, name)
	tmp, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	// zstd compresses each page on its own: pages of up to 64 MiB let it see hundreds of runs' raw
	// output at once, which repeat each other (the repeats of a cell, the cells of a release). The
	// counting runs' file (raw output 190 MB at 1,528 cells) is 12.0 MB so, against 16.2 MB with
	// 4 MiB pages and 24 MB with the default 256 KiB ones; writing it takes ~2 s instead of ~1 s.
	w := parquet.NewGenericWriter[T](tmp, parquet.Compression(&zstd.Codec{Level: zstd.SpeedBetterCompression}), parquet.PageBufferSize(pageBytes))
	if _, err := w.Write(rows); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := w.Close(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if df, err := os.Open(dir); err == nil {
		df.Sync()
		df.Close()
	}
	return nil
}

// Dedupe keeps one row per key in every table (the last one) and sorts the
// tables, so merging or resuming never duplicates rows and files are stable.
func (d *Data) Dedupe() {
	d.Plan = dedupe(d.Plan, func(p Plan) string { return p.CellID })
	sort.SliceStable(d.Plan, func(i, j int) bool {
		a, b := d.Plan[i], d.Plan[j]
		if a.VersionIndex != b.VersionIndex {
			return a.VersionIndex < b.VersionIndex
		}
		if a.CompilerIndex != b.CompilerIndex {
			return a.CompilerIndex < b.CompilerIndex
		}
		return a.FlagIndex < b.FlagIndex
	})
	d.Builds = dedupeBuilds(d.Builds)
	d.Runs = dedupe(d.Runs, func(r Run) string { return RunKey(r.CellID, r.Mode, int(r.Repeat)) })
	sort.SliceStable(d.Runs, func(i, j int) bool { return d.Runs[i].StartedAt.Before(d.Runs[j].StartedAt) })
	// Results belong to the run that owns their (cell, mode, repeat).
	keep := map[string]bool{}
	for _, r := range d.Runs {
		keep[r.RunID] = true
	}
	d.Results = ownedResults(d.Results, keep)
	d.Machines = dedupe(d.Machines, func(m Machine) string { return m.MachineID })
	d.RedoneRuns = dedupe(d.RedoneRuns, func(r RedoneRun) string { return r.RunID })
	sort.SliceStable(d.RedoneRuns, func(i, j int) bool { return d.RedoneRuns[i].StartedAt.Before(d.RedoneRuns[j].StartedAt) })
	redone := map[string]bool{}
	for _, r := range d.RedoneRuns {
		redone[r.RunID] = true
	}
	d.RedoneResults = ownedResults(d.RedoneResults, redone)
	d.splitProtocols()
	d.dedupeCounts()
	d.Calibrations = dedupe(d.Calibrations, func(c Calibration) string {
		return CalibrationKey(c.HardwareClass, c.Version, c.Mode, c.Test)
	})
}

// dedupeCounts keeps one row per key in the counting tables, superseded and
// current, and sorts them.
func (d *Data) dedupeCounts() {
	superseded := d.dedupeSupersededCounts()
	// A run moved aside (in another copy of the data, merged in) is not current.
	d.CountRuns = slices.DeleteFunc(d.CountRuns, func(r CountRun) bool { return superseded[r.RunID] })
	d.dedupeCurrentCounts()
}

// dedupeSupersededCounts dedupes the superseded tables and returns their run ids.
func (d *Data) dedupeSupersededCounts() map[string]bool {
	d.SupersededCountRuns = dedupe(d.SupersededCountRuns, func(r CountRun) string { return r.RunID })
	sort.SliceStable(d.SupersededCountRuns, func(i, j int) bool {
		return d.SupersededCountRuns[i].StartedAt.Before(d.SupersededCountRuns[j].StartedAt)
	})
	superseded := map[string]bool{}
	for _, r := range d.SupersededCountRuns {
		superseded[r.RunID] = true
	}
	d.SupersededCounts = dedupe(d.SupersededCounts, func(c Count) string { return c.RunID + "\x00" + c.Test })
	var kept []Count
	for _, c := range d.SupersededCounts {
		if superseded[c.RunID] {
			kept = append(kept, c)
		}
	}
	d.SupersededCounts = kept
	return superseded
}

func (d *Data) dedupeCurrentCounts() {
	d.CountRuns = dedupe(d.CountRuns, func(r CountRun) string { return RunKey(r.CellID, r.Mode, int(r.Repeat)) })
	sort.SliceStable(d.CountRuns, func(i, j int) bool { return d.CountRuns[i].StartedAt.Before(d.CountRuns[j].StartedAt) })
	counted := map[string]bool{}
	for _, r := range d.CountRuns {
		counted[r.RunID] = true
	}
	var counts []Count
	for _, c := range d.Counts {
		if counted[c.RunID] {
			counts = append(counts, c)
		}
	}
	d.Counts = dedupe(counts, func(c Count) string { return c.RunID + "\x00" + c.Test })
}

// dedupeBuilds keeps one row per build id, in the order the builds started.
func dedupeBuilds(builds []Build) []Build {
	builds = dedupe(builds, func(b Build) string { return b.BuildID })
	sort.SliceStable(builds, func(i, j int) bool { return builds[i].StartedAt.Before(builds[j].StartedAt) })
	return builds
}

// ownedResults keeps the results of the runs in runIDs, one per (run, test).
func ownedResults(results []Result, runIDs map[string]bool) []Result {
	var out []Result
	for _, r := range results {
		if runIDs[r.RunID] {
			out = append(out, r)
		}
	}
	return dedupe(out, func(r Result) string { return r.RunID + "\x00" + r.Test })
}

// Retire moves the run of (cell, mode, repeat) now in d, if any, to the redone
// tables with its results, as replaced by run replacedBy for reason. The caller
// then appends the new run; Save keeps only the new one in runs.
func (d *Data) Retire(cell, mode string, repeat int, reason, replacedBy string) {
	key := RunKey(cell, mode, repeat)
	for _, r := range d.Runs {
		if RunKey(r.CellID, r.Mode, int(r.Repeat)) != key || r.RunID == replacedBy {
			continue
		}
		d.RedoneRuns = append(d.RedoneRuns, RedoneRun{Run: r, RedoReason: reason, ReplacedBy: replacedBy})
		for _, res := range d.Results {
			if res.RunID == r.RunID {
				d.RedoneResults = append(d.RedoneResults, res)
			}
		}
	}
}

// RunKey identifies a (cell, mode, repeat).
func RunKey(cell, mode string, repeat int) string {
	return cell + "\x00" + mode + "\x00" + strconv.Itoa(repeat)
}

func dedupe[T any](rows []T, key func(T) string) []T {
	last := map[string]int{}
	for i, r := range rows {
		last[key(r)] = i
	}
	out := rows[:0:0]
	for i, r := range rows {
		if last[key(r)] == i {
			out = append(out, r)
		}
	}
	return out
}

// MachineConflict is an error when other names a machine by an ID that d
// gives to another CPU (a different cpu_id or hardware class): merged, the
// newer record would replace the older, and the older machine's runs would
// move to the other CPU's hardware class. VMs made from one image share the
// facts a plain machine ID hashes; a collector working in an empty data
// folder cannot tell that the ID is taken.
func (d *Data) MachineConflict(other *Data) error {
	mine := map[string]Machine{}
	for _, m := range d.Machines {
		mine[m.MachineID] = m
	}
	for _, m := range other.Machines {
		have, ok := mine[m.MachineID]
		if !ok {
			continue
		}
		if a, b := deref(have.CPUID), deref(m.CPUID); a != "" && b != "" && a != b {
			return fmt.Errorf("machine %s is %q in one dataset and %q in the other: two CPUs under one ID", m.MachineID, a, b)
		}
		if a, b := deref(have.HardwareClass), deref(m.HardwareClass); a != "" && b != "" && a != b {
			return fmt.Errorf("machine %s is in hardware class %q in one dataset and %q in the other: two CPUs under one ID", m.MachineID, a, b)
		}
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Merge adds other's rows to d (other wins on equal keys).
func (d *Data) Merge(other *Data) {
	d.Plan = append(d.Plan, other.Plan...)
	d.Builds = append(d.Builds, other.Builds...)
	d.Runs = append(d.Runs, other.Runs...)
	d.Results = append(d.Results, other.Results...)
	d.Machines = append(d.Machines, other.Machines...)
	d.RedoneRuns = append(d.RedoneRuns, other.RedoneRuns...)
	d.RedoneResults = append(d.RedoneResults, other.RedoneResults...)
	d.CountRuns = append(d.CountRuns, other.CountRuns...)
	d.Counts = append(d.Counts, other.Counts...)
	d.SupersededCountRuns = append(d.SupersededCountRuns, other.SupersededCountRuns...)
	d.SupersededCounts = append(d.SupersededCounts, other.SupersededCounts...)
	d.Calibrations = append(d.Calibrations, other.Calibrations...)
	d.Dedupe()
}
