package count

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestParseDumpSumsEveryCallToTheExcludedFunction(t *testing.T) {
	f, err := os.Open("testdata/fixture-callgrind-dump.out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := ParseDump(f, "serverCron")
	if err != nil {
		t.Fatal(err)
	}
	if d.Trigger != "dump test-2" {
		t.Errorf("trigger %q", d.Trigger)
	}
	if d.Totals["Ir"] != 10000 || d.Totals["Bim"] != 5 || d.Totals["DLmw"] != 3 {
		t.Errorf("totals %v", d.Totals)
	}
	// Two call sites of serverCron: 700 + 250 instructions; trailing counts
	// left out by callgrind are zeros. The call to processTimeEvents (id 1,
	// named once and referred to by number) is not excluded.
	want := Events{"Ir": 950, "Dr": 250, "Dw": 120, "I1mr": 1, "D1mr": 3, "D1mw": 2, "ILmr": 0, "DLmr": 1, "DLmw": 0, "Bc": 90, "Bcm": 4, "Bi": 8, "Bim": 0}
	if !reflect.DeepEqual(d.Excluded, want) {
		t.Errorf("excluded %v, want %v", d.Excluded, want)
	}
	if d.ExcludedCalls != 2 {
		t.Errorf("excluded calls %d, want 2", d.ExcludedCalls)
	}
}

func TestParseDumpRejectsOutputWithoutTotals(t *testing.T) {
	_, err := ParseDump(strings.NewReader("events: Ir\nfn=(1) main\n1 5\n"), "serverCron")
	if err == nil {
		t.Fatal("no error for a dump without a totals line")
	}
}

func TestEstimatedCyclesWeighsL1HitsLLHitsAndRAMAccesses(t *testing.T) {
	// 1000 accesses, 100 miss L1, 10 of those miss LL:
	// 900 L1 hits + 5 x 90 LL hits + 35 x 10 RAM = 1700.
	e := Events{"Ir": 600, "Dr": 300, "Dw": 100, "I1mr": 20, "D1mr": 50, "D1mw": 30, "ILmr": 2, "DLmr": 5, "DLmw": 3}
	if got := EstimatedCycles(e); got != 1700 {
		t.Fatalf("EstimatedCycles = %v, want 1700", got)
	}
	f := PerRequest(Events{"Ir": 600, "Dr": 300, "Dw": 100, "I1mr": 20, "D1mr": 50, "D1mw": 30, "ILmr": 2, "DLmr": 5, "DLmw": 3, "Bcm": 7, "Bim": 3}, 10)
	if f.Instructions != 60 || f.L1Misses != 10 || f.LLMisses != 1 || f.BranchMisses != 1 || f.EstimatedCycles != 170 {
		t.Fatalf("PerRequest = %+v", f)
	}
}

func TestTestsSendEachTestAloneWithTheLRANGESetUpAsATestOfItsOwn(t *testing.T) {
	ts := Tests(DataSize([]string{"-n", "10", "-d", "4"}))
	byName := map[string]Test{}
	for i, tt := range ts {
		if tt.Index != i {
			t.Errorf("%s has index %d at position %d", tt.Name, tt.Index, i)
		}
		byName[tt.Name] = tt
	}
	check := func(name string, want ...string) {
		t.Helper()
		if got := byName[name].Args; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: args %q, want %q", name, got, want)
		}
	}
	check("SET", "-t", "set")
	check("LPUSH (needed to benchmark LRANGE)", "LPUSH", "mylist", "xxxx")
	check("LRANGE_100 (first 100 elements)", "LRANGE", "mylist", "0", "99")
	check("LRANGE_600 (first 600 elements)", "LRANGE", "mylist", "0", "599")
	check("MSET (10 keys)", "-t", "mset")
	for name, cmd := range map[string]string{"PING_MBULK": "PING", "SET": "SET", "ZPOPMIN": "ZPOPMIN",
		"LPUSH (needed to benchmark LRANGE)": "LPUSH", "LRANGE_300 (first 300 elements)": "LRANGE", "XADD": "XADD"} {
		if byName[name].Command != cmd {
			t.Errorf("%s: command %q, want %q", name, byName[name].Command, cmd)
		}
	}
	if Requests([]string{"-c", "1", "-n", "3000"}) != 3000 || Requests(nil) != 100000 {
		t.Error("Requests reads -n, default 100000")
	}
	if DataSize(nil) != 3 {
		t.Error("redis-benchmark's default payload is 3 bytes")
	}
}

func TestRemoveDumpsKeepsEachTestsDumpWhenAsked(t *testing.T) {
	dir, keep := t.TempDir(), t.TempDir()+"/dumps"
	os.WriteFile(dir+"/callgrind.out.3", []byte("dump of test 7"), 0o644)
	Spec{Dir: dir, KeepDumps: keep}.removeDumps(7)
	if b, err := os.ReadFile(keep + "/test-07.callgrind"); err != nil || string(b) != "dump of test 7" {
		t.Errorf("kept dump: %q, %v", b, err)
	}
	os.WriteFile(dir+"/callgrind.out.4", []byte("dump of test 8"), 0o644)
	Spec{Dir: dir}.removeDumps(8)
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("dumps left in the run directory: %v", left)
	}
	if _, err := os.Stat(keep + "/test-08.callgrind"); err == nil {
		t.Error("a dump was kept without KeepDumps")
	}
}
