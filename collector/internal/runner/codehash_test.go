package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/build"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// A build recorded without a code hash whose binary is still at hand gets
// the binary's hash; others are left alone, and -redo-unhashed counts their
// cells again.
func TestBuildsWithoutACodeHash(t *testing.T) {
	work := t.TempDir()
	dir := build.CellDir(work, "7.4.1|gcc|-O2")
	os.MkdirAll(dir, 0o755)
	elf, err := os.ReadFile("/bin/true")
	if err != nil {
		t.Skip("no /bin/true to stand in for a server")
	}
	os.WriteFile(filepath.Join(dir, "redis-server"), elf, 0o755)
	os.WriteFile(filepath.Join(dir, "build-id"), []byte("at-hand"), 0o644)
	want, err := build.CodeSHA256(filepath.Join(dir, "redis-server"))
	if err != nil {
		t.Fatal(err)
	}
	hashed := "h"
	col := &collector{Options: Options{WorkDir: work, Log: &strings.Builder{}}, data: &store.Data{
		Builds: []store.Build{
			{BuildID: "at-hand", CellID: "7.4.1|gcc|-O2", Status: "ok"},
			{BuildID: "gone", CellID: "7.4.0|gcc|-O2", Status: "ok"},
			{BuildID: "hashed", CellID: "7.4.0|gcc|-Os", Status: "ok", CodeSHA256: &hashed},
		},
		CountRuns: []store.CountRun{
			{RunID: "r1", BuildID: "at-hand", CellID: "7.4.1|gcc|-O2", Mode: "data", Repeat: 1},
			{RunID: "r2", BuildID: "gone", CellID: "7.4.0|gcc|-O2", Mode: "data", Repeat: 1},
			{RunID: "r3", BuildID: "hashed", CellID: "7.4.0|gcc|-Os", Mode: "data", Repeat: 1},
		},
	}}
	if n := col.recordOldCodeHashes(); n != 1 {
		t.Errorf("hashed %d builds, want 1", n)
	}
	if b := col.data.Builds; b[0].CodeSHA256 == nil || *b[0].CodeSHA256 != want || b[1].CodeSHA256 != nil {
		t.Errorf("code hashes after: %v, %v; want %s, nil", b[0].CodeSHA256, b[1].CodeSHA256, want)
	}
	lines := col.data.RedoUnhashed(nil)
	if len(lines) != 1 || lines[0] != "7.4.0|gcc|-O2: counted on build gone, recorded without a code hash" {
		t.Errorf("RedoUnhashed = %q", lines)
	}
	for _, r := range col.data.CountRuns {
		if marked := r.Redone != nil; marked != (r.RunID == "r2") {
			t.Errorf("run %s: redone %v", r.RunID, r.Redone)
		}
	}
	if len(col.data.CountRuns) != 3 || len(col.data.SupersededCountRuns) != 0 {
		t.Errorf("%d count runs, %d superseded; want 3 (r2 marked), 0", len(col.data.CountRuns), len(col.data.SupersededCountRuns))
	}
}
