package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// shardsFixture is a dataset in which every cell of 7.2.6 (gcc) was built in
// 30 s (dependencies 40 s) and counted in 4 runs of 35 s, and 7.4.1 gcc -O2
// counted too.
func shardsFixture(t *testing.T) string {
	t.Helper()
	d := &store.Data{}
	add := func(cell, version string) {
		build := cell + "|b"
		d.Builds = append(d.Builds, store.Build{BuildID: build, CellID: cell, Version: version, Compiler: "gcc", Status: "ok", BuildSeconds: 30, DepsSeconds: 40})
		for i, mode := range []string{"data", "data", "pipe", "pipe"} {
			d.CountRuns = append(d.CountRuns, store.CountRun{RunID: build + mode + string(rune('0'+i)), CellID: cell, BuildID: build, Version: version,
				Compiler: "gcc", Mode: mode, Repeat: int32(i%2 + 1), Status: "ok", DurationSeconds: 35, Protocol: store.CountProtocol})
		}
	}
	for _, f := range []string{"-O2", "-Os", "-Ofast", "-O2 -flto", "-Os -flto", "-Ofast -flto", "-O3", "-O3 -flto"} {
		add("7.2.6|gcc|"+f, "7.2.6")
	}
	add("7.4.1|gcc|-O2", "7.4.1")
	dir := t.TempDir()
	if err := d.Save(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shards prints the jobs for the cells the dataset lacks, with their
// estimated hours, and the same jobs as the workflow's matrix.
func TestShardsPrintsTheJobsForTheMissingCells(t *testing.T) {
	data := shardsFixture(t)
	args := []string{"shards", "-config", "matrix.toml", "-data", data, "-versions", "7.2.6,7.4.1"}
	out, _, err := runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "golden-shards.txt", out)
	js, _, err := runCLI(t, append(args, "-json")...)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Include []shardJob `json:"include"`
	}
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatalf("%v: %s", err, js)
	}
	var cells []string
	for _, j := range m.Include {
		cells = append(cells, strings.Split(j.Cells, ",")...)
		if j.Count != len(strings.Split(j.Cells, ",")) {
			t.Errorf("job %d: count %d, cells %q", j.Job, j.Count, j.Cells)
		}
	}
	// 7.2.6's 6 clang cells and 7.4.1's 11 cells but gcc -O2 (the reference
	// configurations: runCLI's matrix.toml is referenceMatrix).
	if len(cells) != 17 || strings.Contains(js, "7.4.1|gcc|-O2,") || strings.Contains(js, `"7.2.6|gcc|`) {
		t.Errorf("%d cells in the matrix: %s", len(cells), js)
	}
	// The workflow passes a job's cells to count -cells, which takes them.
	if _, _, err := runCLI(t, "plan", "-count", "-config", "matrix.toml", "-data", data, "-cells", m.Include[0].Cells); err != nil {
		t.Errorf("plan -cells of a job: %v", err)
	}
	if _, _, err := runCLI(t, "plan", "-count", "-config", "matrix.toml", "-data", data, "-cells", "7.4.1|gcc|-O9"); err == nil || !strings.Contains(err.Error(), `-cells: "7.4.1|gcc|-O9" is not a cell of the matrix`) {
		t.Errorf("plan -cells of an unknown cell: %v", err)
	}
}
