// Package runner drives a collection: it works out which (cell, mode, repeat)
// runs are missing, builds cells as needed, benchmarks them and saves after
// every run so that an interruption loses at most the run in progress.
package runner

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/hwclass"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// Task is one benchmark run to do.
type Task struct {
	Cell   config.Cell
	Mode   config.Mode
	Repeat int
	// Redo, for a run measured again, says why (Redo.Reason); the run it
	// replaces is kept in the redone tables.
	Redo string
	// Identify, for a counting run, says that it is counted first to
	// identify its cell's build recorded without a code hash by its counts
	// (identifyFirst).
	Identify bool
	// Round, for a precision mode, is the task's round (PendingRounds): its
	// seed and the task's 1-based position in its random order. Nil for the
	// reference modes.
	Round *Round
}

// CellStatus summarises one cell for the plan command.
type CellStatus struct {
	Cell config.Cell
	// State is "pending" (nothing yet), "failed" (latest build failed),
	// "partial" (some runs missing) or "done".
	State string
	// Done counts finished runs per mode, up to Repeats, the runs planned per mode.
	Done    map[string]int
	Repeats int
	Error   string
}

// LatestBuilds maps cell id to the cell's most recent build.
func LatestBuilds(d *store.Data) map[string]store.Build {
	out := map[string]store.Build{}
	for _, b := range d.Builds {
		if prev, ok := out[b.CellID]; !ok || !b.StartedAt.Before(prev.StartedAt) {
			out[b.CellID] = b
		}
	}
	return out
}

// Redo says which finished work to do again.
type Redo struct {
	// Failed rebuilds cells whose latest build failed and redoes runs whose server failed.
	Failed bool
	// NoisyPercent, when > 0, redoes runs during which other processes used
	// more than this percent of a CPU (runs.other_cpu "others:N"); the new run
	// replaces the noisy one.
	NoisyPercent float64
	// StealPercent, when > 0, redoes runs during which the VM's host took more
	// than this percent of a CPU (runs.steal_pct; runs without it are kept).
	StealPercent float64
	// Before, when set, redoes runs started before it (e.g. measured before a fix).
	Before time.Time
}

// Reason says why run r is to be measured again, "" if it is not: every rule
// it falls under, "; "-separated (stored as redone_runs.redo_reason).
func (redo Redo) Reason(r store.Run) string {
	var why []string
	if redo.Failed && r.Status == "server_failed" {
		why = append(why, "server failed")
	}
	if others := OthersPercent(r.OtherCPU); redo.NoisyPercent > 0 && others > redo.NoisyPercent {
		why = append(why, fmt.Sprintf("other processes %g%% of a CPU > %g%%", others, redo.NoisyPercent))
	}
	if redo.StealPercent > 0 && r.StealPct != nil && *r.StealPct > redo.StealPercent {
		why = append(why, fmt.Sprintf("host steal %.1f%% > %g%%", *r.StealPct, redo.StealPercent))
	}
	if !redo.Before.IsZero() && r.StartedAt.Before(redo.Before) {
		why = append(why, "started before "+redo.Before.UTC().Format(time.RFC3339))
	}
	return strings.Join(why, "; ")
}

// OthersPercent reads N from a runs.other_cpu value "others:N,..." (0 if absent).
func OthersPercent(otherCPU string) float64 {
	first, _, _ := strings.Cut(otherCPU, ",")
	v, ok := strings.CutPrefix(first, "others:")
	if !ok {
		return 0
	}
	n, _ := strconv.ParseFloat(v, 64)
	return n
}

// Pending lists the runs still missing on hardware class hw (hwclass.Of;
// "" counts every machine), coverage first: every cell's first repeat (all
// modes) before any cell's second, and so on. Repeats are counted per hardware
// class, because figures from different CPUs are never combined: a class's
// n-th run of a (cell, mode) is its n-th repeat, whatever number it carries.
// A new run takes the lowest repeat number no machine has used for that
// (cell, mode), so numbers stay unique across classes. A run to redo keeps its
// place and number. Cells whose latest build on hw failed are skipped, and runs
// whose server failed count as done, unless retryFailed.
func Pending(cells []config.Cell, modes []config.Mode, repeats int, d *store.Data, hw string, redo Redo) []Task {
	retryFailed := redo.Failed
	inClass := classFilter(d, hw)
	type cellMode struct{ cell, mode string }
	used := map[string]bool{}           // store.RunKey of every run on any machine: repeat numbers taken
	slots := map[cellMode][]store.Run{} // the class's runs of each (cell, mode), by repeat number
	for _, r := range d.Runs {
		used[store.RunKey(r.CellID, r.Mode, int(r.Repeat))] = true
		if inClass(r.MachineID) {
			k := cellMode{r.CellID, r.Mode}
			slots[k] = append(slots[k], r)
		}
	}
	for _, rs := range slots {
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].Repeat < rs[j].Repeat })
	}
	builds := LatestBuilds(classBuilds(d, inClass))
	var tasks []Task
	for level := 1; level <= repeats; level++ {
		for _, c := range cells {
			if b, ok := builds[c.ID()]; ok && b.Status != "ok" && !retryFailed {
				continue
			}
			for _, m := range modes {
				if rs := slots[cellMode{c.ID(), m.Name}]; level <= len(rs) {
					if why := redo.Reason(rs[level-1]); why != "" {
						tasks = append(tasks, Task{Cell: c, Mode: m, Repeat: int(rs[level-1].Repeat), Redo: why})
					}
					continue
				}
				n := 1
				for used[store.RunKey(c.ID(), m.Name, n)] {
					n++
				}
				used[store.RunKey(c.ID(), m.Name, n)] = true
				tasks = append(tasks, Task{Cell: c, Mode: m, Repeat: n})
			}
		}
	}
	return tasks
}

// PendingRuns lists the benchmark runs of cells missing on hardware class hw,
// in collection order: every current version's cell with all its repeats
// (Bench.Repeats, coverage first), then the other releases' cells with theirs
// (Bench.OtherRepeats), each part as Pending orders it.
func PendingRuns(cfg *config.Config, cells []config.Cell, d *store.Data, hw string, redo Redo) []Task {
	current, others := splitCurrent(cfg.InCollectionOrder(cells))
	return append(Pending(current, cfg.Bench.Modes, cfg.Bench.Repeats, d, hw, redo),
		Pending(others, cfg.Bench.Modes, cfg.Bench.OtherRepeats, d, hw, redo)...)
}

// MatrixStatus is Status of cells, in their order, each counted up to the
// repeats the matrix plans for it (cfg.RepeatsOf).
func MatrixStatus(cfg *config.Config, cells []config.Cell, d *store.Data, hw string) []CellStatus {
	current, others := splitCurrent(cells)
	by := map[string]CellStatus{}
	for _, s := range append(Status(current, cfg.Bench.Modes, cfg.Bench.Repeats, d, hw),
		Status(others, cfg.Bench.Modes, cfg.Bench.OtherRepeats, d, hw)...) {
		by[s.Cell.ID()] = s
	}
	out := make([]CellStatus, len(cells))
	for i, c := range cells {
		out[i] = by[c.ID()]
	}
	return out
}

// splitCurrent splits cells, keeping their order, into those of current
// versions and the others.
func splitCurrent(cells []config.Cell) (current, others []config.Cell) {
	for _, c := range cells {
		if c.Current {
			current = append(current, c)
		} else {
			others = append(others, c)
		}
	}
	return current, others
}

// classFilter says whether a machine id belongs to hardware class hw ("": every machine).
func classFilter(d *store.Data, hw string) func(string) bool {
	if hw == "" {
		return func(string) bool { return true }
	}
	of := hwclass.ByMachine(d)
	return func(id string) bool { return of[id] == hw }
}

// classBuilds is d with only the builds made on machines inClass.
func classBuilds(d *store.Data, inClass func(string) bool) *store.Data {
	out := &store.Data{}
	for _, b := range d.Builds {
		if inClass(b.MachineID) {
			out.Builds = append(out.Builds, b)
		}
	}
	return out
}

// Status summarises every cell on hardware class hw ("": every machine): runs
// per mode count up to repeats, and a cell's state follows its latest build there.
func Status(cells []config.Cell, modes []config.Mode, repeats int, d *store.Data, hw string) []CellStatus {
	inClass := classFilter(d, hw)
	done := map[string]map[string]int{}
	for _, r := range d.Runs {
		if !inClass(r.MachineID) {
			continue
		}
		if done[r.CellID] == nil {
			done[r.CellID] = map[string]int{}
		}
		if done[r.CellID][r.Mode] < repeats {
			done[r.CellID][r.Mode]++
		}
	}
	builds := LatestBuilds(classBuilds(d, inClass))
	var out []CellStatus
	for _, c := range cells {
		s := CellStatus{Cell: c, Done: done[c.ID()], Repeats: repeats, State: "pending"}
		if s.Done == nil {
			s.Done = map[string]int{}
		}
		total := 0
		for _, m := range modes {
			total += s.Done[m.Name]
		}
		b, built := builds[c.ID()]
		switch {
		case built && b.Status != "ok":
			s.State = "failed"
			if b.Error != nil {
				s.Error = *b.Error
			}
		case total == repeats*len(modes):
			s.State = "done"
		case total > 0 || built:
			s.State = "partial"
		}
		out = append(out, s)
	}
	return out
}

// PlanRows is the plan table for a config.
func PlanRows(c *config.Config) []store.Plan {
	var modes []string
	for _, m := range c.Bench.Modes {
		modes = append(modes, m.Name)
	}
	var rows []store.Plan
	for _, cell := range c.Cells() {
		current, extended := cell.Current, cell.FlagSet.Extended
		rows = append(rows, store.Plan{
			CellID: cell.ID(), Version: cell.Version, VersionIndex: int32(cell.VersionIndex),
			Compiler: cell.Compiler.Name, CompilerIndex: int32(cell.CompilerIndex),
			FlagSet: cell.FlagSet.Name, FlagIndex: int32(cell.FlagIndex),
			CC: cell.Compiler.CC, CFlags: cell.FlagSet.CFlags,
			Modes: strings.Join(modes, ","), Repeats: int32(c.RepeatsOf(cell.Version)), Current: &current,
			Extended: &extended,
		})
	}
	return rows
}
