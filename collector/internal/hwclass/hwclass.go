// Package hwclass names the hardware class of a machine and decides which
// class a machine measures for. Runs are comparable only within one class: the
// collector counts repeats per class, and no figure combines two classes.
package hwclass

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// Label names a class by a CPU model and a core count, "AMD EPYC, 2 cores":
// the class of a machine that recorded no class of its own (collectors before
// 0.1.8), and of one whose CPU gives no family (not x86).
func Label(cpuModel string, cores int) string {
	return fmt.Sprintf("%s, %d cores", cpuModel, cores)
}

// DefaultLabel is the class a machine starts in: its CPU model, family and
// model number (stepping left out) and core count, "AMD EPYC (family 25 model
// 17), 2 cores". A VM names every AMD server CPU "AMD EPYC", so the model name
// alone does not tell CPU generations apart; the family and model do. Without
// a family it is Label.
func DefaultLabel(cpuModel, cpuID string, cores int) string {
	if fm, _, _ := strings.Cut(cpuID, " stepping"); fm != "" {
		return fmt.Sprintf("%s (%s), %d cores", cpuModel, fm, cores)
	}
	return Label(cpuModel, cores)
}

// Of is machine m's class: the one it recorded (hardware_class), else Label
// of its CPU model and cores.
func Of(m store.Machine) string {
	if m.HardwareClass != nil && *m.HardwareClass != "" {
		return *m.HardwareClass
	}
	return Label(m.CPUModel, int(m.Cores))
}

// ByMachine maps each machine id in d to its class. A machine described more
// than once keeps the class of its last row.
func ByMachine(d *store.Data) map[string]string {
	hw := map[string]string{}
	for _, m := range d.Machines {
		hw[m.MachineID] = Of(m)
	}
	return hw
}

// Known lists the classes of d's machines, sorted.
func Known(d *store.Data) []string {
	set := map[string]bool{}
	for _, m := range d.Machines {
		set[Of(m)] = true
	}
	return slices.Sorted(maps.Keys(set))
}
