package hwclass

import (
	"fmt"

	"github.com/redis-compiler-benchmarks/collector/internal/machine"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// Identify is machine m as d knows it. m.ID hashes hostname, CPU name, cores
// and memory, which VMs made from one image share, so one ID can name two
// CPUs. Where d holds m.ID for a machine whose CPU id differs from m's, or was
// never recorded, m is another machine and gets m.IDWithCPU(): it starts in
// its own class (Choose) and never takes over the other machine's runs.
func Identify(d *store.Data, m machine.Info) machine.Info {
	for _, x := range d.Machines {
		if x.MachineID != m.ID {
			continue
		}
		recorded := "" // no CPU id either way (e.g. ARM): nothing tells them apart
		if x.CPUID != nil {
			recorded = *x.CPUID
		}
		if recorded != m.CPUID {
			m.ID = m.IDWithCPU()
		}
		return m
	}
	return m
}

// Choose is the class machine m measures for. With want empty: the class m
// recorded in d, else DefaultLabel of its CPU. With want set: want, if it is
// m's own DefaultLabel or Label, or a class in d whose machines all have m's
// CPU model and cores (joining it says they measure alike, as collector stats
// shows); anything else is an error. A machine's runs follow its class, so
// joining a class moves the runs it measured before.
func Choose(d *store.Data, m machine.Info, want string) (string, error) {
	own := DefaultLabel(m.CPUModel, m.CPUID, m.Cores)
	recorded := ""
	for _, x := range d.Machines {
		if x.MachineID == m.ID && x.HardwareClass != nil {
			recorded = *x.HardwareClass
		}
	}
	if want == "" {
		if recorded != "" {
			return recorded, nil
		}
		return own, nil
	}
	if want == own || want == Label(m.CPUModel, m.Cores) {
		return want, nil
	}
	found := false
	for _, x := range d.Machines {
		if x.MachineID == m.ID || Of(x) != want {
			continue
		}
		if x.CPUModel != m.CPUModel || int(x.Cores) != m.Cores {
			return "", fmt.Errorf("hardware class %q: its machine %s has %q with %d cores, this one %q with %d; figures of different CPUs are never combined", want, x.MachineID, x.CPUModel, x.Cores, m.CPUModel, m.Cores)
		}
		found = true
	}
	if !found {
		return "", fmt.Errorf("hardware class %q: no machine in the data has it (this machine's own is %q)", want, own)
	}
	return want, nil
}

// Current is the class machine id has in d and its number of runs there.
func Current(d *store.Data, id string) (class string, runs int) {
	class = ByMachine(d)[id]
	for _, r := range d.Runs {
		if r.MachineID == id {
			runs++
		}
	}
	return class, runs
}
