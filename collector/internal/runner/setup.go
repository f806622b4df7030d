package runner

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/count"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// SetupConflict is an error when other's counts cannot join base's: they
// were counted under another Valgrind version or guest CPU signature, or their
// cells built by another version of a compiler than base's builds of that
// compiler, or a (cell, mode, repeat) of both was counted twice, by different
// runs, with different results. A base with no counts (a new dataset) takes
// any setup. Each of these changes a count, so the two could not be compared.
func SetupConflict(base, other *store.Data) error {
	if err := differs("Valgrind", valgrinds(base), valgrinds(other), func(s string) string { return s }); err != nil {
		return err
	}
	if err := differs("guest CPU", guestCPUs(base), guestCPUs(other), guestName); err != nil {
		return err
	}
	have, got := compilerVersions(base), compilerVersions(other)
	for _, cc := range sortedKeys(got) {
		if err := differs(cc+" compiler", have[cc], got[cc], func(s string) string { return s }); err != nil {
			return err
		}
	}
	return countedTwice(base, other)
}

// differs is an error naming the first of got that base (when it has any)
// lacks.
func differs(what string, base, got map[string]bool, name func(string) string) error {
	if len(base) == 0 {
		return nil
	}
	for _, g := range sortedKeys(got) {
		if !base[g] {
			var want []string
			for _, b := range sortedKeys(base) {
				want = append(want, name(b))
			}
			return fmt.Errorf("%s %s is not the dataset's (%s): counts made with it cannot be compared", what, name(g), strings.Join(want, ", "))
		}
	}
	return nil
}

func valgrinds(d *store.Data) map[string]bool {
	out := map[string]bool{}
	for _, r := range d.CountRuns {
		if r.ValgrindVersion != "" {
			out[r.ValgrindVersion] = true
		}
	}
	return out
}

func guestCPUs(d *store.Data) map[string]bool {
	out := map[string]bool{}
	for _, r := range d.CountRuns {
		if r.GuestCPU != nil && *r.GuestCPU != "" {
			out[*r.GuestCPU] = true
		}
	}
	return out
}

// guestName names a guest CPU signature in one line: its short hash and summary.
func guestName(sig string) string {
	return count.ShortHash(sig) + " (" + count.GuestCPUSummary(sig) + ")"
}

// compilerVersions are, per compiler, the versions (--version's first line)
// of the ok builds whose cells d counted.
func compilerVersions(d *store.Data) map[string]map[string]bool {
	counted := map[string]bool{}
	for _, r := range d.CountRuns {
		counted[r.BuildID] = true
	}
	out := map[string]map[string]bool{}
	for _, b := range d.Builds {
		if b.Status != "ok" || b.CCVersion == "" || !counted[b.BuildID] {
			continue
		}
		if out[b.Compiler] == nil {
			out[b.Compiler] = map[string]bool{}
		}
		out[b.Compiler][b.CCVersion] = true
	}
	return out
}

// countedTwice is an error when a (cell, mode, repeat) of both datasets was
// counted by different runs that differ in some test's instructions.
func countedTwice(base, other *store.Data) error {
	runOf := map[string]string{} // run key -> base's run ID
	for _, r := range base.CountRuns {
		runOf[store.RunKey(r.CellID, r.Mode, int(r.Repeat))] = r.RunID
	}
	theirs := map[string]bool{} // other's run IDs of keys base has from another run
	for _, r := range other.CountRuns {
		if id, ok := runOf[store.RunKey(r.CellID, r.Mode, int(r.Repeat))]; ok && id != r.RunID {
			theirs[r.RunID] = true
		}
	}
	if len(theirs) == 0 {
		return nil
	}
	mine := map[string]store.Count{} // key|test -> base's count
	for _, k := range base.Counts {
		mine[store.RunKey(k.CellID, k.Mode, int(k.Repeat))+"|"+k.Test] = k
	}
	for _, k := range other.Counts {
		if !theirs[k.RunID] {
			continue
		}
		key := store.RunKey(k.CellID, k.Mode, int(k.Repeat))
		b, ok := mine[key+"|"+k.Test]
		if !ok || b.Status != k.Status || value(b.Ir) != value(k.Ir) || value(b.Requests) != value(k.Requests) {
			return fmt.Errorf("%s %s #%d counted twice with different results: %s %d instructions for %d requests in one, %d for %d in the other",
				k.CellID, k.Mode, k.Repeat, k.Test, value(b.Ir), value(b.Requests), value(k.Ir), value(k.Requests))
		}
	}
	return nil
}

func value(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return slices.Clip(out)
}
