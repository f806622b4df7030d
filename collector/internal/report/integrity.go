package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// listed is how many cells an integrity line names before "and N more".
const listed = 10

// Integrity prints the checks that every figure names its release and the
// code it measured (docs/method.md, "Source verification"): versions whose
// measured or counted builds share one source (git commit or tarball
// digest), counted cells without a code hash, cells whose counting runs
// span more than one code hash (a build without one is another binary as
// far as anyone can tell), cells with runs marked to be counted again, the
// builds whose code hash was identified by their counts, cells whose code
// is another flag set's, and the bundled dependencies that changed between
// consecutive releases.
func Integrity(w io.Writer, d *store.Data) {
	builds := map[string]store.Build{}
	for _, b := range d.Builds {
		builds[b.BuildID] = b
	}
	used := map[string]bool{} // builds with runs or counting runs in the current tables
	for _, r := range d.Runs {
		used[r.BuildID] = true
	}
	codes := map[string]map[string]bool{} // counted cell -> its runs' builds' code hashes ("" unknown)
	marked := map[string]bool{}           // cells with runs marked to be counted again
	for _, r := range d.CountRuns {
		used[r.BuildID] = true
		if r.Redone != nil {
			marked[r.CellID] = true
		}
		if codes[r.CellID] == nil {
			codes[r.CellID] = map[string]bool{}
		}
		code := ""
		if b, ok := builds[r.BuildID]; ok && b.CodeSHA256 != nil {
			code = *b.CodeSHA256
		}
		codes[r.CellID][code] = true
	}
	sharedSources(w, builds, used)
	var noCode, mixed []string
	for cell, cs := range codes {
		if cs[""] {
			noCode = append(noCode, cell)
		}
		if len(cs) > 1 {
			mixed = append(mixed, cell)
		}
	}
	fmt.Fprintf(w, "integrity: counted cells without code_sha256: %d of %d%s\n", len(noCode), len(codes), someCells(noCode))
	fmt.Fprintf(w, "integrity: counted cells whose counting runs span more than one code hash (a build without one counting as another): %d%s\n", len(mixed), someCells(mixed))
	fmt.Fprintf(w, "integrity: counted cells with runs marked to be counted again (count_runs.redone; they count until replaced): %d%s\n", len(marked), someCells(slices.Collect(maps.Keys(marked))))
	var identified []string
	for id := range used {
		if b := builds[id]; b.CodeIdentifiedBy != nil {
			identified = append(identified, b.CellID)
		}
	}
	fmt.Fprintf(w, "integrity: counted builds whose code hash was identified by their counts (builds.code_identified_by): %d%s\n", len(identified), someCells(identified))
	sameCode := sharedCode(d.CountRuns, builds)
	fmt.Fprintf(w, "integrity: counted cells whose code is another flag set's of their release (stock builds aside): %d%s\n", len(sameCode), someCells(sameCode))
	depsChanges(w, d.Builds)
}

// sharedCode is the counted cells whose runs' code hash is also another
// counted cell's of the same release, stock builds (given no OPTIMIZATION,
// so the release's own flags, which may be a flag set's) aside: two flag
// sets built one binary, so at least one did not get its flags (7.2's
// Makefile gave -O3 -flto).
func sharedCode(runs []store.CountRun, builds map[string]store.Build) []string {
	cells := map[string]map[string]bool{} // version and code hash -> counted cells
	for _, r := range runs {
		b, ok := builds[r.BuildID]
		if !ok || b.CodeSHA256 == nil || *b.CodeSHA256 == "" || !strings.Contains(b.MakeArgs, "OPTIMIZATION=") {
			continue
		}
		key := b.Version + " " + *b.CodeSHA256
		if cells[key] == nil {
			cells[key] = map[string]bool{}
		}
		cells[key][r.CellID] = true
	}
	var out []string
	for _, cs := range cells {
		if len(cs) > 1 {
			out = append(out, slices.Collect(maps.Keys(cs))...)
		}
	}
	return out
}

// sharedSources prints each source that builds of more than one version
// with runs or counting runs were made from.
func sharedSources(w io.Writer, builds map[string]store.Build, used map[string]bool) {
	versions := map[string]map[string]bool{} // source -> versions built from it
	for id := range used {
		b, ok := builds[id]
		if !ok {
			continue
		}
		src := "sha256 " + b.SourceSHA256
		if b.SourceCommit != "" {
			src = "commit " + b.SourceCommit
		} else if b.SourceSHA256 == "" {
			continue
		}
		if versions[src] == nil {
			versions[src] = map[string]bool{}
		}
		versions[src][b.Version] = true
	}
	n := 0
	for _, src := range slices.Sorted(maps.Keys(versions)) {
		if len(versions[src]) < 2 {
			continue
		}
		vs := slices.SortedFunc(maps.Keys(versions[src]), config.CompareVersions)
		fmt.Fprintf(w, "integrity: versions measured from one source, %s: %s\n", src, strings.Join(vs, ", "))
		n++
	}
	if n == 0 {
		fmt.Fprintln(w, "integrity: no two versions measured from one source")
	}
}

// depsChanges prints, between consecutive versions whose builds recorded
// them, the bundled dependencies that changed, and how many ok builds have
// none recorded.
func depsChanges(w io.Writer, all []store.Build) {
	latest := map[string]store.Build{} // version -> its latest ok build with deps
	missing := 0
	for _, b := range all {
		if b.Status != "ok" {
			continue
		}
		if b.DepsJemalloc == nil {
			missing++
			continue
		}
		if prev, ok := latest[b.Version]; !ok || !b.StartedAt.Before(prev.StartedAt) {
			latest[b.Version] = b
		}
	}
	versions := slices.SortedFunc(maps.Keys(latest), config.CompareVersions)
	var changes []string
	for i := 1; i < len(versions); i++ {
		a, b := latest[versions[i-1]], latest[versions[i]]
		var what []string
		for _, dep := range []struct {
			name string
			a, b *string
		}{
			{"jemalloc", a.DepsJemalloc, b.DepsJemalloc}, {"lua", a.DepsLua, b.DepsLua},
			{"hiredis", a.DepsHiredis, b.DepsHiredis}, {"linenoise", a.DepsLinenoise, b.DepsLinenoise},
		} {
			if deref(dep.a) != deref(dep.b) {
				what = append(what, fmt.Sprintf("%s %s -> %s", dep.name, orNone(deref(dep.a)), orNone(deref(dep.b))))
			}
		}
		if len(what) > 0 {
			changes = append(changes, fmt.Sprintf("%s -> %s: %s", versions[i-1], versions[i], strings.Join(what, ", ")))
		}
	}
	fmt.Fprintf(w, "integrity: bundled dependencies changed between consecutive versions: %d\n", len(changes))
	for _, c := range changes {
		fmt.Fprintf(w, "  %s\n", c)
	}
	if missing > 0 {
		fmt.Fprintf(w, "integrity: ok builds without recorded bundled dependencies: %d\n", missing)
	}
}

// someCells is ": " and the first cells of ids in release order, "" for none.
func someCells(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	sorted := strings.Split(cellList(ids), ", ")
	more := ""
	if len(sorted) > listed {
		more = fmt.Sprintf(" and %d more", len(sorted)-listed)
		sorted = sorted[:listed]
	}
	return ": " + strings.Join(sorted, ", ") + more
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
