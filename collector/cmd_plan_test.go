package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/hwclass"
	"github.com/redis-compiler-benchmarks/collector/internal/machine"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func TestPlanReferenceMatrixEmptyData(t *testing.T) {
	out, _, err := runCLI(t, "plan", "-config", "matrix.toml", "-data", t.TempDir(), "-hardware", "all", "-versions", "current")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "golden-plan-current-empty.txt", out)
	if !strings.HasSuffix(out, "144 cells: 0 done, 0 partial, 0 failed, 144 pending; 864 runs to do counting every machine's runs together\n") {
		t.Errorf("summary line wrong:\n%s", out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:])
	}
	// Every release: the current versions with 3 repeats, the 146 others with 1.
	out, _, err = runCLI(t, "plan", "-config", "matrix.toml", "-data", t.TempDir(), "-hardware", "all")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\n2.6.0    gcc       -O2           pending  data 0/1, pipe 0/1  \n", "\n2.6.17   gcc       -O2           pending  data 0/3, pipe 0/3  \n",
		"1920 cells: 0 done, 0 partial, 0 failed, 1920 pending; 4416 runs to do counting every machine's runs together\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan of every release lacks %q", want)
		}
	}
}

func TestPlanCountPrintsTheCountOrderWithItsProgress(t *testing.T) {
	data := t.TempDir()
	at := time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	reason := "make: exit status 2: error: x"
	d := &store.Data{Builds: []store.Build{{BuildID: "b1", CellID: "2.6.0|clang|-O2", Status: "failed", Error: &reason, StartedAt: at}}}
	for _, cell := range []string{"2.6.17|gcc|-O2", "2.6.17|gcc|-Os"} {
		for _, m := range []string{"data", "pipe"} {
			for r := 1; r <= 2; r++ {
				d.CountRuns = append(d.CountRuns, store.CountRun{RunID: cell + m + fmt.Sprint(r), CellID: cell, Mode: m, Repeat: int32(r), Status: "ok", StartedAt: at, Protocol: store.CountProtocol})
			}
		}
	}
	d.CountRuns = append(d.CountRuns, store.CountRun{RunID: "p", CellID: "2.6.17|gcc|-Ofast", Mode: "data", Repeat: 1, Status: "ok", StartedAt: at, Protocol: store.CountProtocol})
	if err := d.Save(data); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "plan", "-count", "-config", "matrix.toml", "-data", data)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "golden-plan-count.txt", out)
	// -versions selects, in count order still.
	out, _, err = runCLI(t, "plan", "-count", "-config", "matrix.toml", "-data", data, "-versions", "2.6.0,2.6.17")
	if err != nil {
		t.Fatal(err)
	}
	want := "ORDER  VERSION  PHASE    COUNTED  PARTIAL  FAILED  PENDING  STATE\n" +
		"1      2.6.17   current  2/12     1        0       9        next\n" +
		"2      2.6.0    first    0/12     0        1       11       pending\n" +
		"2 versions, 24 cells (4 counting runs each): 2 counted, 1 partial, 1 failed to build, 20 pending; next: 2.6.17\n"
	if out != want {
		t.Errorf("plan -count -versions 2.6.0,2.6.17:\n%s\nwant\n%s", out, want)
	}
}

func TestPlanWithCollectedData(t *testing.T) {
	data := t.TempDir()
	at := time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	reason := "make: exit status 2: clang: error: linker command failed with exit code 1"
	// Two machines of one hardware class (m1, m2) and one of another (o): repeats count per class.
	d := &store.Data{
		Machines: []store.Machine{{MachineID: "m1", CPUModel: "Test CPU", Cores: 2}, {MachineID: "m2", CPUModel: "Test CPU", Cores: 2},
			{MachineID: "o", CPUModel: "Other CPU", Cores: 2}},
		Builds: []store.Build{
			{BuildID: "b1", CellID: "2.6.17|gcc|-O2", Status: "ok", StartedAt: at, MachineID: "m1"},
			{BuildID: "b2", CellID: "2.6.17|clang|-Ofast -flto", Status: "failed", Error: &reason, StartedAt: at, MachineID: "m1"},
			{BuildID: "b3", CellID: "2.6.17|gcc|-Ofast", Status: "ok", StartedAt: at, MachineID: "o"},
		}}
	for rep := 1; rep <= 3; rep++ {
		for _, m := range []string{"data", "pipe"} {
			d.Runs = append(d.Runs, store.Run{RunID: m + string(rune('0'+rep)), CellID: "2.6.17|gcc|-O2", Mode: m, Repeat: int32(rep), StartedAt: at,
				MachineID: []string{"m1", "m2", "m2"}[rep-1]})
		}
	}
	d.Runs = append(d.Runs, store.Run{RunID: "x", CellID: "2.6.17|gcc|-Os", Mode: "pipe", Repeat: 1, StartedAt: at, MachineID: "m2"},
		store.Run{RunID: "y", CellID: "2.6.17|gcc|-Ofast", Mode: "data", Repeat: 1, StartedAt: at, MachineID: "o"})
	if err := d.Save(data); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "plan", "-config", "matrix.toml", "-data", data, "-versions", "2.6.17", "-hardware", "Test CPU, 2 cores")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "golden-plan-2.6.17-some-collected.txt", out)
	// The other class has one run of gcc -Ofast; every run counts with -hardware all.
	out, _, err = runCLI(t, "plan", "-config", "matrix.toml", "-data", data, "-versions", "2.6.17", "-hardware", "Other CPU, 2 cores")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "2.6.17   gcc       -Ofast        partial  data 1/3, pipe 0/3") || !strings.Contains(out, "71 runs to do on Other CPU, 2 cores") {
		t.Errorf("plan on the other class:\n%s", out)
	}
	// A class the data does not have is an error that names the classes it has.
	out, _, err = runCLI(t, "plan", "-config", "matrix.toml", "-data", data, "-versions", "2.6.17", "-hardware", "Test CPU, 4 cores")
	if want := `hardware class "Test CPU, 4 cores" is not in the data (its classes: "Other CPU, 2 cores", "Test CPU, 2 cores"; or "all")`; err == nil || err.Error() != want || out != "" {
		t.Errorf("plan -hardware of an unknown class: error %v, stdout %q; want error %q and no table", err, out, want)
	}
	out, _, err = runCLI(t, "plan", "-config", "matrix.toml", "-data", data, "-versions", "2.6.17", "-hardware", "all")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out, "12 cells: 1 done, 2 partial, 1 failed, 8 pending; 58 runs to do counting every machine's runs together\n") {
		t.Errorf("plan -hardware all:\n%s", out)
	}
}

// This machine's own class is known to plan before it has measured anything.
func TestPlanTakesThisMachinesOwnClassOnEmptyData(t *testing.T) {
	d := &store.Data{}
	own, err := hwclass.Choose(d, hwclass.Identify(d, machine.Identify()), "")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "plan", "-config", "matrix.toml", "-data", t.TempDir(), "-hardware", own)
	if err != nil || !strings.HasSuffix(out, "4416 runs to do on "+own+"\n") {
		t.Errorf("plan -hardware %q: %v\n%s", own, err, out)
	}
}

// plan -precision counts rounds: 12 configurations x 2 precision modes x 5
// rounds of one version; the reference plan of the same data is unchanged.
func TestPlanPrecisionCountsRounds(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	out, _, err := runCLI(t, "plan", "-precision", "-config", "matrix.toml", "-data", data, "-versions", "7.4.1", "-hardware", "all")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out, "12 cells: 0 done, 0 partial, 0 failed, 12 pending; 120 runs to do counting every machine's runs together\n") ||
		!strings.Contains(out, "data-long 0/5, pipe-long 0/5") {
		t.Errorf("plan -precision:\n%s", out)
	}
	out, _, err = runCLI(t, "plan", "-precision", "-repeats", "2", "-config", "matrix.toml", "-data", data, "-versions", "7.4.1", "-hardware", "all")
	if err != nil || !strings.Contains(out, "48 runs to do") {
		t.Errorf("plan -precision -repeats 2 (%v):\n%s", err, out)
	}
	out, _, err = runCLI(t, "plan", "-config", "matrix.toml", "-data", data, "-versions", "7.4.1", "-hardware", "all")
	if err != nil || !strings.Contains(out, "72 runs to do") || strings.Contains(out, "data-long") {
		t.Errorf("reference plan (%v):\n%s", err, out)
	}
}

// plan -precision -modes plans the named precision modes only, and names an
// unknown one.
func TestPlanPrecisionModesSelectsModes(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	out, _, err := runCLI(t, "plan", "-precision", "-modes", "pipe-long", "-config", "matrix.toml", "-data", data, "-versions", "7.4.1", "-hardware", "all")
	if err != nil || !strings.Contains(out, "pipe-long 0/5") || strings.Contains(out, "data-long") {
		t.Errorf("plan -precision -modes pipe-long (%v):\n%s", err, out)
	}
	if _, _, err := runCLI(t, "plan", "-precision", "-modes", "pipe", "-config", "matrix.toml", "-data", data); err == nil || !strings.Contains(err.Error(), `"pipe" is not a precision mode`) {
		t.Errorf("-modes pipe: %v", err)
	}
}
