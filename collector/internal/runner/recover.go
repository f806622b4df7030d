package runner

import (
	"sort"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// RecoveredNote ends the redo_reason of a run recovered from an earlier
// version of the dataset: the rule is inferred from the run as recorded, by
// the thresholds given to Recover, not recorded when it was redone.
const RecoveredNote = " (recovered from an earlier version of the dataset)"

// Recover finds the runs of earlier versions of a dataset (e.g. its git
// history) that d has since measured again, dropped from runs by a collector
// older than the redone tables, and adds them with their results to d's
// redone tables. Each names the next run of its (cell, mode, repeat) as its
// replacement, and why by redo's rules ("unknown" when none applies). Runs
// whose (cell, mode, repeat) d no longer has, or has from an earlier run, are
// left out and counted apart.
func Recover(d *store.Data, earlier []*store.Data, redo Redo) (recovered, orphans int) {
	known := map[string]bool{}
	current := map[string]store.Run{} // RunKey -> the run in d
	for _, r := range d.Runs {
		known[r.RunID] = true
		current[store.RunKey(r.CellID, r.Mode, int(r.Repeat))] = r
	}
	for _, r := range d.RedoneRuns {
		known[r.RunID] = true
	}
	found := map[string]store.Run{}
	results := map[string][]store.Result{}
	for _, e := range earlier {
		for _, r := range e.Runs {
			if !known[r.RunID] {
				found[r.RunID] = r
			}
		}
		for _, res := range e.Results {
			if !known[res.RunID] {
				results[res.RunID] = append(results[res.RunID], res)
			}
		}
	}
	// Each (cell, mode, repeat): its discarded runs and its current one, in start order.
	chains := map[string][]store.Run{}
	for _, r := range found {
		key := store.RunKey(r.CellID, r.Mode, int(r.Repeat))
		if cur, ok := current[key]; !ok || !r.StartedAt.Before(cur.StartedAt) {
			orphans++
			continue
		}
		chains[key] = append(chains[key], r)
	}
	for key, runs := range chains {
		runs = append(runs, current[key])
		sort.SliceStable(runs, func(i, j int) bool { return runs[i].StartedAt.Before(runs[j].StartedAt) })
		for i, r := range runs[:len(runs)-1] {
			why := redo.Reason(r)
			if why == "" {
				why = "unknown"
			}
			d.RedoneRuns = append(d.RedoneRuns, store.RedoneRun{Run: r, RedoReason: why + RecoveredNote, ReplacedBy: runs[i+1].RunID})
			d.RedoneResults = append(d.RedoneResults, results[r.RunID]...)
			recovered++
		}
	}
	d.Dedupe()
	return recovered, orphans
}
