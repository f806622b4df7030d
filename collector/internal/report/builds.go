package report

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// Builds prints, over each cell's latest build, the compatibility flags the
// cells needed and the builds that still fail, grouped by their flags and by
// their reason, each with the cells it covers.
func Builds(w io.Writer, d *store.Data) {
	latest := map[string]store.Build{}
	for _, b := range d.Builds {
		if prev, ok := latest[b.CellID]; !ok || !b.StartedAt.Before(prev.StartedAt) {
			latest[b.CellID] = b
		}
	}
	compat, failed := map[string][]string{}, map[string][]string{}
	for id, b := range latest {
		if b.Status != "ok" {
			reason := "no reason recorded"
			if b.Error != nil {
				reason = *b.Error
			}
			failed[reason] = append(failed[reason], id)
		} else if b.CompatFlags != "" {
			compat[b.CompatFlags] = append(compat[b.CompatFlags], id)
		}
	}
	for _, flags := range slices.Sorted(maps.Keys(compat)) {
		fmt.Fprintf(w, "builds with compatibility flags %s: %d cells: %s\n", flags, len(compat[flags]), cellList(compat[flags]))
	}
	for _, reason := range slices.Sorted(maps.Keys(failed)) {
		fmt.Fprintf(w, "builds failed, %d cells: %s: %s\n", len(failed[reason]), reason, cellList(failed[reason]))
	}
	if len(compat)+len(failed) == 0 {
		fmt.Fprintf(w, "builds: %d cells, none failed or needed compatibility flags\n", len(latest))
	}
}

// cellList joins cell ids in release order, then in string order.
func cellList(ids []string) string {
	ids = slices.Clone(ids)
	slices.SortFunc(ids, func(a, b string) int {
		va, _, _ := strings.Cut(a, "|")
		vb, _, _ := strings.Cut(b, "|")
		return cmp.Or(config.CompareVersions(va, vb), strings.Compare(a, b))
	})
	return strings.Join(ids, ", ")
}
