package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func withMake(b store.Build, args string) store.Build {
	b.MakeArgs = args
	return b
}

func TestIntegrityPrintsSharedSourcesCodesAndDeps(t *testing.T) {
	str := func(s string) *string { return &s }
	build := func(id, cell, version, commit string, code *string, minute int, jemalloc string) store.Build {
		b := store.Build{BuildID: id, CellID: cell, Version: version, Status: "ok", SourceKind: "git", SourceRef: version,
			SourceCommit: commit, CodeSHA256: code, StartedAt: t0.Add(time.Duration(minute) * time.Minute)}
		if jemalloc != "" {
			b.SetDeps(jemalloc, "5.1.5", "0.11.0", "cd970fe275db")
		}
		return b
	}
	d := &store.Data{
		Builds: []store.Build{
			build("b1", "6.2.14|gcc|-O2", "6.2.14", "91863dd", str("c1"), 0, "5.1.0"),
			build("b2", "6.2.15|gcc|-O2", "6.2.15", "91863dd", str("c1"), 1, "5.1.0"),
			build("b3", "6.2.16|gcc|-O2", "6.2.16", "ad950e4", nil, 2, "5.2.1"),
			build("b4", "6.2.16|gcc|-O2", "6.2.16", "ad950e4", str("c3"), 3, ""),
			// An old build given b5's code hash by its counts.
			{BuildID: "b7", CellID: "7.0.15|gcc|-O2", Version: "7.0.15", Status: "ok", CodeSHA256: str("c6"), CodeIdentifiedBy: str("r8"), StartedAt: t0.Add(6 * time.Minute)},
			build("b5", "6.2.16|gcc|-O2", "6.2.16", "ad950e4", str("c4"), 4, ""),
			// Built from one commit but never measured: not a finding.
			build("b6", "6.2.13|gcc|-O2", "6.2.13", "ad950e4", str("c5"), 5, "5.1.0"),
			// Two flag sets of 7.0.15 built one binary; its stock build may.
			withMake(build("b8", "7.0.15|gcc|-O3", "7.0.15", "8e2e5e5", str("c7"), 7, "5.2.1"), "make -C src OPTIMIZATION=-O3 redis-server"),
			withMake(build("b9", "7.0.15|gcc|-O3 -flto", "7.0.15", "8e2e5e5", str("c7"), 8, "5.2.1"), "make -C src 'OPTIMIZATION=-O3 -flto' redis-server"),
			withMake(build("b10", "7.0.15|gcc|stock", "7.0.15", "8e2e5e5", str("c7"), 9, "5.2.1"), "make -C src redis-server"),
		},
		CountRuns: []store.CountRun{
			{CellID: "6.2.14|gcc|-O2", BuildID: "b1"}, {CellID: "6.2.15|gcc|-O2", BuildID: "b2"},
			{CellID: "6.2.16|gcc|-O2", BuildID: "b3"}, {CellID: "6.2.16|gcc|-O2", BuildID: "b4"},
			{CellID: "6.2.16|gcc|-O2", BuildID: "b5", Redone: str("counted on build b3, recorded without a code hash")},
			{CellID: "7.0.15|gcc|-O2", BuildID: "b7"},
			{CellID: "7.0.15|gcc|-O3", BuildID: "b8"}, {CellID: "7.0.15|gcc|-O3 -flto", BuildID: "b9"}, {CellID: "7.0.15|gcc|stock", BuildID: "b10"},
		},
	}
	var out bytes.Buffer
	Integrity(&out, d)
	want := "integrity: versions measured from one source, commit 91863dd: 6.2.14, 6.2.15\n" +
		"integrity: counted cells without code_sha256: 1 of 7: 6.2.16|gcc|-O2\n" +
		"integrity: counted cells whose counting runs span more than one code hash (a build without one counting as another): 1: 6.2.16|gcc|-O2\n" +
		"integrity: counted cells with runs marked to be counted again (count_runs.redone; they count until replaced): 1: 6.2.16|gcc|-O2\n" +
		"integrity: counted builds whose code hash was identified by their counts (builds.code_identified_by): 1: 7.0.15|gcc|-O2\n" +
		"integrity: counted cells whose code is another flag set's of their release (stock builds aside): 2: 7.0.15|gcc|-O3, 7.0.15|gcc|-O3 -flto\n" +
		"integrity: bundled dependencies changed between consecutive versions: 1\n" +
		"  6.2.15 -> 6.2.16: jemalloc 5.1.0 -> 5.2.1\n" +
		"integrity: ok builds without recorded bundled dependencies: 3\n"
	if out.String() != want {
		t.Errorf("Integrity =\n%s\nwant\n%s", out.String(), want)
	}

	out.Reset()
	Integrity(&out, &store.Data{Builds: d.Builds[:1], CountRuns: d.CountRuns[:1]})
	want = "integrity: no two versions measured from one source\n" +
		"integrity: counted cells without code_sha256: 0 of 1\n" +
		"integrity: counted cells whose counting runs span more than one code hash (a build without one counting as another): 0\n" +
		"integrity: counted cells with runs marked to be counted again (count_runs.redone; they count until replaced): 0\n" +
		"integrity: counted builds whose code hash was identified by their counts (builds.code_identified_by): 0\n" +
		"integrity: counted cells whose code is another flag set's of their release (stock builds aside): 0\n" +
		"integrity: bundled dependencies changed between consecutive versions: 0\n"
	if out.String() != want {
		t.Errorf("Integrity of a clean dataset =\n%s\nwant\n%s", out.String(), want)
	}
}
