package report

import (
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func TestBuildsGroupCompatibilityFlagsAndFailuresByCellsLatestBuild(t *testing.T) {
	reason, other := "make: exit status 2: error: x", "build timed out after 30m0s"
	build := func(cell, status, compat string, minute int, why *string) store.Build {
		return store.Build{CellID: cell, Status: status, CompatFlags: compat, Error: why, StartedAt: t0.Add(time.Duration(minute) * time.Minute)}
	}
	d := &store.Data{Builds: []store.Build{
		build("5.0.10|gcc|-O2", "ok", "-fcommon", 0, nil),
		build("5.0.2|clang|-O2", "ok", "-fcommon", 1, nil),
		build("5.0.2|gcc|-O2", "ok", "-fcommon", 2, nil),
		build("2.6.0|gcc|-O2", "failed", "", 3, &reason),
		build("2.6.1|gcc|-O2", "failed", "-fcommon", 4, &reason),
		build("2.6.2|gcc|-O2", "failed", "", 5, &other),
		// Failed, then built: its latest build counts.
		build("7.4.1|gcc|-O2", "failed", "", 6, &other),
		build("7.4.1|gcc|-O2", "ok", "", 7, nil),
	}}
	expectPrinted(t, Builds, d, "builds with compatibility flags -fcommon: 3 cells: 5.0.2|clang|-O2, 5.0.2|gcc|-O2, 5.0.10|gcc|-O2\n"+
		"builds failed, 1 cells: build timed out after 30m0s: 2.6.2|gcc|-O2\n"+
		"builds failed, 2 cells: make: exit status 2: error: x: 2.6.0|gcc|-O2, 2.6.1|gcc|-O2\n")
	expectPrinted(t, Builds, &store.Data{Builds: d.Builds[7:]}, "builds: 1 cells, none failed or needed compatibility flags\n")
}
