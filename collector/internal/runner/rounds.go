package runner

import (
	"sort"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/stats"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// Round places a precision run in its round: the seed of the round's order
// and the run's 1-based position in it (runs.round_seed, round_position).
type Round struct {
	Seed     int64
	Position int
}

// Order is the random order of n configurations that seed gives: a
// Fisher-Yates shuffle driven by stats.Rand, so the same seed gives the same
// order on any machine and Go release, and a resumed round keeps its order.
func Order(n int, seed int64) []int {
	rng := stats.NewRand(uint32(seed) ^ uint32(uint64(seed)>>32))
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := rng.Intn(i + 1)
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// PendingRounds lists the precision runs still missing on hardware class hw
// ("" counts every machine), in interleaved rounds: a round measures every
// configuration of a version once, in the random order its seed gives, and a
// mode's repeats are rounds. Coverage first: every version's first round (in
// each mode) before any second round. A round is the class's runs of a
// version and mode with one repeat number; the class's k-th round is its k-th
// repeat number. A round already begun keeps its seed (read from its runs),
// its order and its number, so a resumed collection finishes it in order; a
// new round takes the lowest repeat number no machine has used for that
// version and mode, and newSeed's seed. The order covers all of the version's
// cells given, so positions do not move when a cell's build fails (its runs
// are skipped unless retryFailed). Runs to redo (redo) keep their round and
// position.
func PendingRounds(cells []config.Cell, modes []config.Mode, rounds int, d *store.Data, hw string, redo Redo, newSeed func() int64) []Task {
	inClass := classFilter(d, hw)
	builds := LatestBuilds(classBuilds(d, inClass))
	versions, byVersion := groupByVersion(cells)
	var tasks []Task
	for level := 1; level <= rounds; level++ {
		for _, v := range versions {
			vcells := byVersion[v]
			for _, m := range modes {
				begun := classRounds(d, inClass, v, m.Name)
				var r roundRuns
				if level <= len(begun) {
					r = begun[level-1]
				} else {
					r = roundRuns{repeat: unusedRepeat(d, v, m.Name), seed: newSeed(), runs: map[string]store.Run{}}
					// Claim the number now: a later level's new round takes the next one.
					d = withPlaceholder(d, v, m.Name, r.repeat)
				}
				for pos, i := range Order(len(vcells), r.seed) {
					c := vcells[i]
					if b, ok := builds[c.ID()]; ok && b.Status != "ok" && !redo.Failed {
						continue
					}
					t := Task{Cell: c, Mode: m, Repeat: r.repeat, Round: &Round{Seed: r.seed, Position: pos + 1}}
					if done, ok := r.runs[c.ID()]; ok {
						if t.Redo = redo.Reason(done); t.Redo == "" {
							continue
						}
					}
					tasks = append(tasks, t)
				}
			}
		}
	}
	return tasks
}

// roundRuns is one round of a version and mode: its repeat number, seed and
// the runs it holds, by cell id.
type roundRuns struct {
	repeat int
	seed   int64
	runs   map[string]store.Run
}

// classRounds are the rounds of version v in mode on the machines inClass,
// by repeat number.
func classRounds(d *store.Data, inClass func(string) bool, v, mode string) []roundRuns {
	byRepeat := map[int]*roundRuns{}
	for _, r := range d.Runs {
		if r.Version != v || r.Mode != mode || !inClass(r.MachineID) || r.MachineID == placeholderMachine {
			continue
		}
		rr := byRepeat[int(r.Repeat)]
		if rr == nil {
			rr = &roundRuns{repeat: int(r.Repeat), runs: map[string]store.Run{}}
			byRepeat[int(r.Repeat)] = rr
		}
		if r.RoundSeed != nil {
			rr.seed = *r.RoundSeed
		}
		rr.runs[r.CellID] = r
	}
	var out []roundRuns
	for _, rr := range byRepeat {
		out = append(out, *rr)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].repeat < out[j].repeat })
	return out
}

// unusedRepeat is the lowest repeat number no run of version v in mode has,
// on any machine.
func unusedRepeat(d *store.Data, v, mode string) int {
	used := map[int]bool{}
	for _, r := range d.Runs {
		if r.Version == v && r.Mode == mode {
			used[int(r.Repeat)] = true
		}
	}
	n := 1
	for used[n] {
		n++
	}
	return n
}

// placeholderMachine marks the runs withPlaceholder adds to a planning copy.
const placeholderMachine = "\x00planned"

// withPlaceholder is a copy of d's runs with one more run that holds repeat
// number n of version v in mode (never a round of any class).
func withPlaceholder(d *store.Data, v, mode string, n int) *store.Data {
	runs := append(append([]store.Run(nil), d.Runs...), store.Run{Version: v, Mode: mode, Repeat: int32(n), MachineID: placeholderMachine})
	return &store.Data{Runs: runs, Builds: d.Builds, Machines: d.Machines}
}

// groupByVersion splits cells by version, versions in the cells' order.
func groupByVersion(cells []config.Cell) ([]string, map[string][]config.Cell) {
	var versions []string
	by := map[string][]config.Cell{}
	for _, c := range cells {
		if by[c.Version] == nil {
			versions = append(versions, c.Version)
		}
		by[c.Version] = append(by[c.Version], c)
	}
	return versions, by
}
