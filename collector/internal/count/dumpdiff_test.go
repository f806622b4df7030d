package count

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func fixtureDump(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/fixture-callgrind-dump.out")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseProfileGivesOwnInstructionsAndCallsPerFunction(t *testing.T) {
	p, err := ParseProfile(strings.NewReader(fixtureDump(t)), "")
	if err != nil {
		t.Fatal(err)
	}
	// A cost line after calls= is the callee's inclusive cost, not its caller's
	// own: serverCron's 700 and 250 and processTimeEvents' 800 are left out.
	wantSelf := map[string]int64{"processTimeEvents": 50, "aeProcessEvents": 300, "readQueryFromClient": 8000}
	if !reflect.DeepEqual(p.Self, wantSelf) {
		t.Errorf("self %v, want %v", p.Self, wantSelf)
	}
	// processTimeEvents is named once and then referred to by number.
	if want := map[string]int64{"serverCron": 2, "processTimeEvents": 2}; !reflect.DeepEqual(p.Calls, want) {
		t.Errorf("calls %v, want %v", p.Calls, want)
	}
	if p.Totals["Ir"] != 10000 || p.Events[0] != "Ir" {
		t.Errorf("totals %v, events %v", p.Totals, p.Events)
	}
	if _, err := ParseProfile(strings.NewReader("events: Ir\nfn=(1) main\n1 5\n"), ""); err == nil {
		t.Error("a dump without totals was read")
	}
}

// TestCompareDumpDirsFindsWhereTwoRunsPart: two runs' dump folders, the first
// test the same, the second differing in one function's own instructions and
// in a call count, a third dump in one folder only.
func TestCompareDumpDirsFindsWhereTwoRunsPart(t *testing.T) {
	dump := fixtureDump(t)
	a, b := t.TempDir(), t.TempDir()
	write := func(dir, name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	changed := strings.NewReplacer("30 8000 2400", "30 8100 2400", "calls=2 10", "calls=3 10",
		"totals: 10000 3000", "totals: 10100 3000").Replace(dump)
	write(a, "test-00.callgrind", dump)
	write(b, "test-00.callgrind", dump)
	write(a, "test-01.callgrind", dump)
	write(b, "test-01.callgrind", changed)
	write(a, "test-02.callgrind", dump)
	diffs, err := CompareDumpDirs(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) != 3 || !diffs[0].Same() || diffs[1].Same() || diffs[2].Missing != b {
		t.Fatalf("diffs %+v", diffs)
	}
	d := diffs[1]
	if d.TotalsA["Ir"] != 10000 || d.TotalsB["Ir"] != 10100 || d.TotalsA["Dr"] != d.TotalsB["Dr"] {
		t.Errorf("totals %v / %v", d.TotalsA, d.TotalsB)
	}
	if want := []NameDiff{{"readQueryFromClient", 8000, 8100}}; !reflect.DeepEqual(d.Self, want) {
		t.Errorf("own instructions %v, want %v", d.Self, want)
	}
	if want := []NameDiff{{"processTimeEvents", 2, 3}}; !reflect.DeepEqual(d.Calls, want) {
		t.Errorf("calls %v, want %v", d.Calls, want)
	}
	if _, err := CompareDumpDirs(a, filepath.Join(b, "nothing")); err == nil {
		t.Error("a folder that does not exist was compared")
	}
	if _, err := CompareDumpDirs(a, t.TempDir()); err == nil || !strings.Contains(err.Error(), "no test-NN.callgrind") {
		t.Errorf("an empty folder: %v", err)
	}
}

// A call still in progress in another thread can carry a cost callgrind
// wrote wrapped around below zero: only the calls asked about are read.
func TestParseProfileReadsOnlyTheCallCostAskedFor(t *testing.T) {
	dump := "events: Ir\nfn=(1) clone\ncfn=(2) start_thread\ncalls=0 336\n100 18446744073706377838\nfn=(3) main\n1 5\ntotals: 5\n"
	p, err := ParseProfile(strings.NewReader(dump), "serverCron")
	if err != nil || p.Self["main"] != 5 || len(p.CallCost) != 0 {
		t.Errorf("profile %+v, %v", p, err)
	}
	if _, err := ParseProfile(strings.NewReader(dump), "start_thread"); err == nil {
		t.Error("a wrapped cost of the function asked about was read")
	}
}
