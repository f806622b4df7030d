package runner

import (
	"fmt"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// roundsConfig has two versions of six configurations and one precision mode.
func roundsConfig(t *testing.T) (*config.Config, []config.Mode) {
	t.Helper()
	c, err := config.Parse(`
versions = ["2.8.24", "7.4.1"]
[[compilers]]
name = "gcc"
cc = "gcc-12"
[[compilers]]
name = "clang"
cc = "clang-19"
[[flag_sets]]
name = "-O2"
[[flag_sets]]
name = "-Os"
[[flag_sets]]
name = "-O2 -flto"
[[benchmark.modes]]
name = "data"
args = ["-n", "100", "--csv"]
[[benchmark.precision]]
name = "data-long"
args = ["--csv"]
min_time = "1.5s"
`, "rounds.toml")
	if err != nil {
		t.Fatal(err)
	}
	return c, c.Bench.Precision
}

// seeds hands out 101, 102, ... and counts the calls.
type seeds struct{ n int64 }

func (s *seeds) next() int64 { s.n++; return 100 + s.n }

func roundTasks(ts []Task) []string {
	var out []string
	for _, t := range ts {
		out = append(out, fmt.Sprintf("%s %s r%d seed %d #%d", t.Cell.ID(), t.Mode.Name, t.Repeat, t.Round.Seed, t.Round.Position))
	}
	return out
}

func TestOrderIsASeededPermutation(t *testing.T) {
	a := Order(12, 7)
	if !reflect.DeepEqual(a, Order(12, 7)) {
		t.Fatal("same seed, different orders")
	}
	if reflect.DeepEqual(a, Order(12, 8)) {
		t.Error("seeds 7 and 8 gave the same order")
	}
	sorted := append([]int(nil), a...)
	sort.Ints(sorted)
	for i, v := range sorted {
		if v != i {
			t.Fatalf("Order(12, 7) = %v is not a permutation", a)
		}
	}
	if reflect.DeepEqual(a, sorted) {
		t.Errorf("Order(12, 7) = %v is the matrix order", a)
	}
}

// Every version's first round before any second; each round has every
// configuration once, in its seed's order, positions 1..6.
func TestPendingRoundsInterleavesEveryConfigurationOncePerRound(t *testing.T) {
	c, modes := roundsConfig(t)
	s := &seeds{}
	got := PendingRounds(c.Cells(), modes, 2, &store.Data{}, "", Redo{}, s.next)
	if len(got) != 24 || s.n != 4 {
		t.Fatalf("%d tasks, %d seeds; want 2 versions x 2 rounds x 6 configurations, 4 seeds", len(got), s.n)
	}
	for k, want := range []struct {
		version string
		repeat  int
		seed    int64
	}{{"2.8.24", 1, 101}, {"7.4.1", 1, 102}, {"2.8.24", 2, 103}, {"7.4.1", 2, 104}} {
		round := got[6*k : 6*k+6]
		cells := c.Cells()[:6]
		if want.version == "7.4.1" {
			cells = c.Cells()[6:]
		}
		for pos, i := range Order(6, want.seed) {
			tk := round[pos]
			if tk.Cell.ID() != cells[i].ID() || tk.Repeat != want.repeat || tk.Round.Seed != want.seed || tk.Round.Position != pos+1 {
				t.Errorf("round %d, position %d: %s", k, pos+1, roundTasks([]Task{tk}))
			}
		}
	}
}

// A round cut short is finished in its own order with its own seed, and the
// next round gets a new seed and the next repeat number.
func TestPendingRoundsResumesAHalfDoneRound(t *testing.T) {
	c, modes := roundsConfig(t)
	cells := c.Cells()[6:] // 7.4.1
	first := PendingRounds(cells, modes, 2, &store.Data{}, "", Redo{}, (&seeds{}).next)
	d := &store.Data{}
	for i, tk := range first[:4] { // killed after 4 runs of round 1
		d.Runs = append(d.Runs, store.Run{
			RunID: fmt.Sprint(i), CellID: tk.Cell.ID(), Version: "7.4.1", Mode: "data-long", Repeat: 1, Status: "ok",
			RoundSeed: &tk.Round.Seed, RoundPosition: ptr32(int32(tk.Round.Position)), StartedAt: t0.Add(time.Duration(i) * time.Minute),
		})
	}
	s := &seeds{n: 50}
	got := PendingRounds(cells, modes, 2, d, "", Redo{}, s.next)
	if want := roundTasks(first[4:6]); !reflect.DeepEqual(roundTasks(got[:2]), want) {
		t.Errorf("resumed round 1 =\n%v\nwant\n%v", roundTasks(got[:2]), want)
	}
	if len(got) != 8 || got[2].Repeat != 2 || got[2].Round.Seed != 151 || s.n != 51 {
		t.Errorf("round 2: %v (%d seeds drawn)", roundTasks(got[2:]), s.n-50)
	}
	// A failed build drops its runs but moves no other position.
	failed := first[5].Cell.ID()
	d.Builds = append(d.Builds, store.Build{BuildID: "b", CellID: failed, Status: "failed", StartedAt: t0})
	got = PendingRounds(cells, modes, 1, d, "", Redo{}, (&seeds{}).next)
	if want := roundTasks(first[4:5]); !reflect.DeepEqual(roundTasks(got), want) {
		t.Errorf("with %s failed: %v, want %v", failed, roundTasks(got), want)
	}
	// A noisy run is redone in its round and place.
	d.Runs[1].OtherCPU = "others:40"
	got = PendingRounds(cells, modes, 1, d, "", Redo{NoisyPercent: 5}, (&seeds{}).next)
	if len(got) != 2 || got[0].Cell.ID() != first[1].Cell.ID() || got[0].Round.Position != 2 || got[0].Redo == "" || got[0].Repeat != 1 {
		t.Errorf("redo: %v", roundTasks(got))
	}
}

// Rounds count per hardware class; a new class's round takes a repeat number
// no machine has used.
func TestPendingRoundsCountPerClass(t *testing.T) {
	c, modes := roundsConfig(t)
	cells := c.Cells()[6:]
	d := &store.Data{Machines: []store.Machine{
		{MachineID: "a", CPUModel: "AMD", Cores: 2}, {MachineID: "b", CPUModel: "Intel", Cores: 2},
	}}
	for i, cell := range cells {
		d.Runs = append(d.Runs, store.Run{RunID: fmt.Sprint(i), CellID: cell.ID(), Version: "7.4.1", Mode: "data-long", Repeat: 1, Status: "ok", MachineID: "a", RoundSeed: ptr64(9)})
	}
	if got := PendingRounds(cells, modes, 1, d, "AMD, 2 cores", Redo{}, (&seeds{}).next); len(got) != 0 {
		t.Errorf("class AMD has its round: %v", roundTasks(got))
	}
	got := PendingRounds(cells, modes, 1, d, "Intel, 2 cores", Redo{}, (&seeds{}).next)
	if len(got) != 6 || got[0].Repeat != 2 {
		t.Errorf("class Intel: %v, want a full round numbered 2", roundTasks(got))
	}
}

func ptr32(v int32) *int32 { return &v }
func ptr64(v int64) *int64 { return &v }
