package hwclass

import (
	"reflect"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/machine"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func TestOfIsTheRecordedClassElseModelAndCores(t *testing.T) {
	zen4 := "AMD EPYC (family 25 model 17), 2 cores"
	if got := Of(store.Machine{CPUModel: "AMD EPYC", Cores: 2}); got != "AMD EPYC, 2 cores" {
		t.Errorf("Of a machine with no recorded class = %q", got)
	}
	if got := Of(store.Machine{CPUModel: "AMD EPYC", Cores: 2, HardwareClass: &zen4}); got != zen4 {
		t.Errorf("Of with a recorded class = %q", got)
	}
	if got := DefaultLabel("AMD EPYC", "family 25 model 17 stepping 1", 2); got != zen4 {
		t.Errorf("DefaultLabel = %q", got)
	}
	if got := DefaultLabel("Neoverse-N1", "", 4); got != "Neoverse-N1, 4 cores" {
		t.Errorf("DefaultLabel without a family = %q", got)
	}
}

func TestChoose(t *testing.T) {
	zen4, legacy := "AMD EPYC (family 25 model 17), 2 cores", "AMD EPYC, 2 cores"
	me := machine.Info{ID: "me", CPUModel: "AMD EPYC", CPUID: "family 25 model 17 stepping 1", Cores: 2}
	d := &store.Data{Machines: []store.Machine{
		{MachineID: "old", CPUModel: "AMD EPYC", Cores: 2},
		{MachineID: "intel", CPUModel: "Intel Xeon", Cores: 2},
		{MachineID: "big", CPUModel: "AMD EPYC", Cores: 4},
	}}
	choose := func(want string) (string, error) { return Choose(d, me, want) }
	// A new machine: its CPU's class, family and model in the label (stepping left out).
	if got, err := choose(""); err != nil || got != zen4 {
		t.Errorf(`Choose("") = %q, %v; want %q`, got, err, zen4)
	}
	// Joining the class of earlier machines with the same CPU model and cores.
	if got, err := choose(legacy); err != nil || got != legacy {
		t.Errorf("Choose(legacy) = %q, %v", got, err)
	}
	// Never a class of another CPU or core count, nor one nobody has.
	for want, msg := range map[string]string{
		"Intel Xeon, 2 cores": `its machine intel has "Intel Xeon" with 2 cores, this one "AMD EPYC" with 2`,
		"AMD EPYC, 4 cores":   `its machine big has "AMD EPYC" with 4 cores`,
		"Nobody, 2 cores":     `no machine in the data has it (this machine's own is "AMD EPYC (family 25 model 17), 2 cores")`,
	} {
		if _, err := choose(want); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Choose(%q) error = %v; want one containing %q", want, err, msg)
		}
	}
	// Once recorded, the class stays without the flag (a restart never moves a machine's runs);
	// the flag changes it, runs and all.
	d.Machines = append(d.Machines, store.Machine{MachineID: "me", CPUModel: "AMD EPYC", Cores: 2, HardwareClass: &legacy})
	d.Runs = append(d.Runs, store.Run{RunID: "r", MachineID: "me"})
	if got, err := choose(""); err != nil || got != legacy {
		t.Errorf(`Choose("") of a recorded machine = %q, %v; want %q`, got, err, legacy)
	}
	if got, err := choose(zen4); err != nil || got != zen4 {
		t.Errorf("back to its own class = %q, %v", got, err)
	}
	if class, runs := Current(d, "me"); class != legacy || runs != 1 {
		t.Errorf("Current = %q, %d runs", class, runs)
	}
	// A machine described before 0.1.8 (no class recorded) gets its CPU's class on its next run.
	d.Machines[len(d.Machines)-1].HardwareClass = nil
	if got, err := choose(""); err != nil || got != zen4 {
		t.Errorf(`Choose("") of a machine recorded before 0.1.8 = %q, %v`, got, err)
	}
}

func TestIdentifyNeverTakesOverAnotherCPUsMachine(t *testing.T) {
	zen5 := "family 26 model 2 stepping 1"
	me := machine.Info{ID: "9f46122579a1", Hostname: "vm", CPUModel: "AMD EPYC", CPUID: zen5, Cores: 2, MemoryBytes: 1 << 34}
	legacy := "AMD EPYC, 2 cores"
	zen4id := "family 25 model 17 stepping 1"
	for _, c := range []struct {
		name  string
		cpuID *string
		same  bool
	}{
		{"recorded before 0.1.8, no CPU id: cannot be told apart, so another machine", nil, false},
		{"another CPU under the same ID", &zen4id, false},
		{"the same CPU: the same machine", &zen5, true},
	} {
		d := &store.Data{
			Machines: []store.Machine{{MachineID: me.ID, CPUModel: "AMD EPYC", Cores: 2, CPUID: c.cpuID}},
			Runs:     []store.Run{{RunID: "r", MachineID: me.ID}},
		}
		got := Identify(d, me)
		if (got.ID == me.ID) != c.same {
			t.Errorf("%s: Identify ID = %s (recorded %s)", c.name, got.ID, me.ID)
		}
		if c.same {
			continue
		}
		if got.ID != me.IDWithCPU() || len(got.ID) != 12 {
			t.Errorf("%s: ID = %q, want IDWithCPU %q", c.name, got.ID, me.IDWithCPU())
		}
		// It starts in its own class, and the recorded machine's runs stay in theirs.
		if hw, err := Choose(d, got, ""); err != nil || hw != "AMD EPYC (family 26 model 2), 2 cores" {
			t.Errorf("%s: class = %q, %v", c.name, hw, err)
		}
		if class, runs := Current(d, got.ID); runs != 0 {
			t.Errorf("%s: the new machine took over %d runs (class %q)", c.name, runs, class)
		}
		if ByMachine(d)[me.ID] != legacy && c.cpuID == nil {
			t.Errorf("%s: the recorded machine's class became %q", c.name, ByMachine(d)[me.ID])
		}
	}
	// No CPU id on either side (e.g. ARM): nothing tells them apart, the ID stays.
	arm := machine.Info{ID: "a", CPUModel: "Neoverse", Cores: 2}
	if got := Identify(&store.Data{Machines: []store.Machine{{MachineID: "a", CPUModel: "Neoverse", Cores: 2}}}, arm); got.ID != "a" {
		t.Errorf("ARM machine ID = %q", got.ID)
	}
}

func TestKnownListsEachClassOnceSorted(t *testing.T) {
	zen4 := "AMD EPYC (family 25 model 17), 2 cores"
	d := &store.Data{Machines: []store.Machine{
		{MachineID: "b", CPUModel: "Intel Xeon", Cores: 2},
		{MachineID: "a", CPUModel: "AMD EPYC", Cores: 2, HardwareClass: &zen4},
		{MachineID: "c", CPUModel: "AMD EPYC", Cores: 2},
		{MachineID: "a", CPUModel: "AMD EPYC", Cores: 2, HardwareClass: &zen4},
	}}
	want := []string{"AMD EPYC (family 25 model 17), 2 cores", "AMD EPYC, 2 cores", "Intel Xeon, 2 cores"}
	if got := Known(d); !reflect.DeepEqual(got, want) {
		t.Errorf("Known = %q, want %q", got, want)
	}
	if got := Known(&store.Data{}); len(got) != 0 {
		t.Errorf("Known of no machines = %q", got)
	}
}
