package runner

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/source"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// tarballFixture writes dir/redis-<version>.tar.gz holding a tree whose
// src/version.h says says.
func tarballFixture(t *testing.T, dir, version, says string) {
	t.Helper()
	tarballFixtureMakefile(t, dir, version, says, "all:\n")
}

// tarballFixtureMakefile is tarballFixture with src/Makefile's text.
func tarballFixtureMakefile(t *testing.T, dir, version, says, makefile string) {
	t.Helper()
	tree := filepath.Join(t.TempDir(), "redis-"+version)
	os.MkdirAll(filepath.Join(tree, "src"), 0o755)
	os.WriteFile(filepath.Join(tree, "src", "Makefile"), []byte(makefile), 0o644)
	os.WriteFile(filepath.Join(tree, "src", "version.h"), []byte("#define REDIS_VERSION \""+says+"\"\n"), 0o644)
	os.MkdirAll(filepath.Join(tree, "deps", "jemalloc"), 0o755)
	os.WriteFile(filepath.Join(tree, "deps", "jemalloc", "VERSION"), []byte("4.4.0-0-gf1f76357313e7dcad7262f17a48ff0a2e005fcdc\n"), 0o644)
	out, err := exec.Command("tar", "czf", filepath.Join(dir, "redis-"+version+".tar.gz"), "-C", filepath.Dir(tree), filepath.Base(tree)).CombinedOutput()
	if err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
}

// A release whose source is refused is a failed build with the refusal's
// line as its reason, and nothing of it is counted.
func TestRefusedSourceIsAFailedBuild(t *testing.T) {
	c := releasesConfig(t)
	tarballs := t.TempDir()
	tarballFixture(t, tarballs, "7.4.1", "7.4.0")
	var log strings.Builder
	col := &collector{Options: Options{Config: c, DataDir: t.TempDir(), WorkDir: t.TempDir(), Log: &log,
		Sources: &source.Cache{Dir: t.TempDir(), Getter: source.Tarballs{Dir: tarballs}, Releases: c.ReleaseList()}},
		data: &store.Data{}}
	cell := c.Cells()[len(c.Cells())-1]
	_, _, summary, err := col.ensureBuild(context.Background(), cell)
	if !errors.Is(err, errBuildFailed) || !strings.HasPrefix(summary, "source refused: 7.4.1: redis-7.4.1.tar.gz (sha256 ") {
		t.Fatalf("ensureBuild: %q, %v; want a refused source", summary, err)
	}
	if len(col.data.Builds) != 1 {
		t.Fatalf("%d builds recorded, want 1", len(col.data.Builds))
	}
	b := col.data.Builds[0]
	if b.Status != "failed" || b.Error == nil || !strings.HasSuffix(*b.Error, ") holds src/version.h of 7.4.0") || b.SourceKind != "tarball" || b.SourceSHA256 == "" {
		t.Errorf("build = %+v", b)
	}
	for _, task := range PendingCounts(c.Cells(), c.Count.Modes, 1, col.data, false) {
		if task.Cell.ID() == cell.ID() {
			t.Errorf("the refused cell is still to be counted")
		}
	}
	saved, err := store.Load(col.DataDir)
	if err != nil || len(saved.Builds) != 1 {
		t.Errorf("saved builds: %v, %v", saved, err)
	}
}

// Counting runs of a build whose source is not what its version resolves to
// now are moved aside with the reason, to be counted again on a rebuild.
func TestStaleSourceCountsAreCountedAgain(t *testing.T) {
	c := releasesConfig(t)
	tarballs := t.TempDir()
	tarballFixture(t, tarballs, "7.4.1", "7.4.1")
	tarballFixture(t, tarballs, "7.4.0", "7.4.0")
	col := &collector{Options: Options{Config: c, DataDir: t.TempDir(), Log: &strings.Builder{},
		Sources: &source.Cache{Dir: t.TempDir(), Getter: source.Tarballs{Dir: tarballs}, Releases: c.ReleaseList()}},
		data: &store.Data{}}
	cur, err := col.Sources.Get(context.Background(), "7.4.0")
	if err != nil {
		t.Fatal(err)
	}
	col.data.Builds = []store.Build{
		{BuildID: "old", CellID: "7.4.1|gcc|-O2", Version: "7.4.1", Status: "ok", SourceKind: "tarball", SourceRef: "redis-7.4.1.tar.gz", SourceSHA256: strings.Repeat("a", 64)},
		{BuildID: "fine", CellID: "7.4.0|gcc|-O2", Version: "7.4.0", Status: "ok", SourceKind: "tarball", SourceRef: "redis-7.4.0.tar.gz", SourceSHA256: cur.SHA256},
	}
	col.data.CountRuns = []store.CountRun{
		{RunID: "c1", CellID: "7.4.1|gcc|-O2", BuildID: "old", Mode: "data", Repeat: 1},
		{RunID: "c2", CellID: "7.4.0|gcc|-O2", BuildID: "fine", Mode: "data", Repeat: 1},
	}
	lines, err := col.redoStaleSources(map[string]bool{"7.4.1|gcc|-O2": true, "7.4.0|gcc|-O2": true})
	want := "7.4.1|gcc|-O2: built from tarball redis-7.4.1.tar.gz (sha256 aaaaaaaaaaaa), not the source 7.4.1 resolves to now"
	if err != nil || len(lines) != 1 || lines[0] != want {
		t.Errorf("lines = %q, %v; want [%q]", lines, err, want)
	}
	if len(col.data.CountRuns) != 1 || col.data.CountRuns[0].RunID != "c2" {
		t.Errorf("count runs left: %+v, want 7.4.0's only", col.data.CountRuns)
	}
}

// Builds recorded before the deps_* columns get them from their source; a
// build of a stale source, or of another cell, is left alone.
func TestRecordDepsOfEarlierBuilds(t *testing.T) {
	c := releasesConfig(t)
	tarballs := t.TempDir()
	tarballFixture(t, tarballs, "7.4.1", "7.4.1")
	col := &collector{Options: Options{Config: c, Cells: c.Cells(), Log: &strings.Builder{},
		Sources: &source.Cache{Dir: t.TempDir(), Getter: source.Tarballs{Dir: tarballs}, Releases: c.ReleaseList()}},
		data: &store.Data{}}
	cur, err := col.Sources.Get(context.Background(), "7.4.1")
	if err != nil {
		t.Fatal(err)
	}
	col.data.Builds = []store.Build{
		{BuildID: "b1", CellID: "7.4.1|gcc|-O2", Version: "7.4.1", Status: "ok", SourceKind: "tarball", SourceSHA256: cur.SHA256},
		{BuildID: "b2", CellID: "7.4.1|gcc|-O2", Version: "7.4.1", Status: "ok", SourceKind: "tarball", SourceSHA256: "other"},
		{BuildID: "b3", CellID: "7.4.1|gcc|-O2", Version: "7.4.1", Status: "failed", SourceKind: "tarball", SourceSHA256: cur.SHA256},
		{BuildID: "b4", CellID: "7.4.1|icc|-O2", Version: "7.4.1", Status: "ok", SourceKind: "tarball", SourceSHA256: cur.SHA256},
	}
	n, err := col.recordDeps(context.Background())
	if err != nil || n != 1 {
		t.Fatalf("recordDeps = %d, %v; want 1", n, err)
	}
	b := col.data.Builds[0]
	if b.DepsJemalloc == nil || *b.DepsJemalloc != "4.4.0" || b.DepsLua == nil || *b.DepsLua != "" || b.DepsHiredis == nil || b.DepsLinenoise == nil {
		t.Errorf("build b1 deps: %v %v %v %v", b.DepsJemalloc, b.DepsLua, b.DepsHiredis, b.DepsLinenoise)
	}
	for _, b := range col.data.Builds[1:] {
		if b.DepsJemalloc != nil {
			t.Errorf("build %s got deps", b.BuildID)
		}
	}
}

// The counting runs of an -O3 build of a release whose Makefile adds -flto
// to -O3 (7.2), made without an empty REDIS_CFLAGS, leave the dataset with
// the reason, and the cell is built again rather than from that binary; a
// build given the empty REDIS_CFLAGS, another flag set and a stock build
// are left alone.
func TestMakefileLTOCountsAreCountedAgainOnANewBuild(t *testing.T) {
	c := releasesConfig(t)
	tarballs := t.TempDir()
	tarballFixtureMakefile(t, tarballs, "7.4.1", "7.4.1", "fixture-makefile-7.2:\nOPTIMIZATION?=-O3\nifeq ($(OPTIMIZATION),-O3)\n\tREDIS_CFLAGS+=-flto\nendif\n")
	col := &collector{Options: Options{Config: c, Log: &strings.Builder{},
		Sources: &source.Cache{Dir: t.TempDir(), Getter: source.Tarballs{Dir: tarballs}, Releases: c.ReleaseList()}},
		data: &store.Data{}, addedLTO: map[string]bool{}}
	gcc := config.Compiler{Name: "gcc", CC: "gcc-12"}
	cells := []config.Cell{
		{Version: "7.4.1", Compiler: gcc, FlagSet: config.FlagSet{Name: "-O3", CFlags: "-O3"}},
		{Version: "7.4.1", Compiler: gcc, FlagSet: config.FlagSet{Name: "-O2", CFlags: "-O2"}},
		{Version: "7.4.1", Compiler: gcc, FlagSet: config.FlagSet{Name: "stock", Stock: true}},
	}
	col.data.Builds = []store.Build{
		{BuildID: "lto", CellID: "7.4.1|gcc|-O3", Version: "7.4.1", Status: "ok", CFlags: "-O3", MakeArgs: "make -C src OPTIMIZATION=-O3 REDIS_LDFLAGS=-O3 redis-server"},
		{BuildID: "o3", CellID: "7.4.1|gcc|-O3", Version: "7.4.1", Status: "ok", CFlags: "-O3", MakeArgs: "make -C src OPTIMIZATION=-O3 REDIS_LDFLAGS=-O3 REDIS_CFLAGS= redis-server"},
		{BuildID: "o2", CellID: "7.4.1|gcc|-O2", Version: "7.4.1", Status: "ok", CFlags: "-O2", MakeArgs: "make -C src OPTIMIZATION=-O2 REDIS_LDFLAGS=-O2 redis-server"},
		{BuildID: "stock", CellID: "7.4.1|gcc|stock", Version: "7.4.1", Status: "ok", CFlags: "-O3", MakeArgs: "make -C src redis-server"},
	}
	for _, b := range col.data.Builds {
		col.data.CountRuns = append(col.data.CountRuns, store.CountRun{RunID: "run-" + b.BuildID, CellID: b.CellID, BuildID: b.BuildID, Mode: "data", Repeat: 1})
	}
	lines, err := col.redoMakefileLTO(cells)
	want := "7.4.1|gcc|-O3: -O3 build lto, given OPTIMIZATION=-O3 without an empty REDIS_CFLAGS: the release's Makefile added -flto, so it was -O3 -flto"
	if err != nil || len(lines) != 1 || lines[0] != want {
		t.Errorf("lines = %q, %v; want [%q]", lines, err, want)
	}
	var left []string
	for _, r := range col.data.CountRuns {
		left = append(left, r.RunID)
	}
	if !slices.Equal(left, []string{"run-o3", "run-o2", "run-stock"}) {
		t.Errorf("count runs left: %q", left)
	}
	if !col.addedLTO["lto"] || len(col.addedLTO) != 1 {
		t.Errorf("builds not to be taken again: %v, want lto's", col.addedLTO)
	}
}
