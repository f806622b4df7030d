package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/count"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// Three machines: m0 and m1 (two host CPUs) show Valgrind's Haswell, m2 an
// older guest CPU; m0 also counted before the guest CPU was recorded.
func guestCPUData() (*store.Data, string, string) {
	haswell := "GenuineIntel max=0xd 1=000306c3,7ffafbff,bfebfbff | glibc=2.36 platform=haswell"
	older := "GenuineIntel max=0xb 1=000206a7,1fbae3ff,bfebfbff | glibc=2.36 platform=x86_64"
	f := func(v float64) *float64 { return &v }
	s := func(v string) *string { return &v }
	d := &store.Data{
		Machines: []store.Machine{
			{MachineID: "m0", CPUModel: "AMD EPYC", Cores: 2, CPUID: s("family 25 model 1 stepping 1"), HardwareClass: s("AMD EPYC (family 25 model 1), 2 cores")},
			{MachineID: "m1", CPUModel: "Intel Xeon", Cores: 2},
		},
		CountRuns: []store.CountRun{
			{RunID: "old", CellID: "X", Mode: "data", MachineID: "m0"},
			{RunID: "a1", CellID: "X", Mode: "data", MachineID: "m0", GuestCPU: &haswell},
			{RunID: "a2", CellID: "Y", Mode: "data", MachineID: "m0", GuestCPU: &haswell},
			{RunID: "b1", CellID: "X", Mode: "data", MachineID: "m1", GuestCPU: &haswell},
			{RunID: "b2", CellID: "Y", Mode: "data", MachineID: "m1", GuestCPU: &haswell},
			{RunID: "c1", CellID: "Z", Mode: "data", MachineID: "m2", GuestCPU: &older},
			{RunID: "a3", CellID: "Z", Mode: "data", MachineID: "m0", GuestCPU: &haswell},
		},
		Counts: []store.Count{
			// X SET: m0 counted 1000 and 1000.2 (median 1000.1), m1 1000.1;
			// the unrecorded run only counted GET.
			{RunID: "a1", CellID: "X", Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: f(1000)},
			{RunID: "a1", CellID: "X", Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: f(1000.2)},
			{RunID: "b1", CellID: "X", Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: f(1000.1)},
			{RunID: "old", CellID: "X", Mode: "data", Test: "GET", Status: "ok", InstructionsPerRequest: f(900)},
			// Y SET: 0.05% apart.
			{RunID: "a2", CellID: "Y", Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: f(2000)},
			{RunID: "b2", CellID: "Y", Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: f(2001)},
			{RunID: "b2", CellID: "Y", Mode: "data", Test: "GET", Status: "failed"},
			// Z GET under two guest CPUs: 2.5% apart.
			{RunID: "a3", CellID: "Z", Mode: "data", Test: "GET", Status: "ok", InstructionsPerRequest: f(800)},
			{RunID: "c1", CellID: "Z", Mode: "data", Test: "GET", Status: "ok", InstructionsPerRequest: f(820)},
		},
	}
	return d, count.ShortHash(haswell), count.ShortHash(older)
}

func TestGuestCPUsGroupsRunsBySignatureAndComparesCounters(t *testing.T) {
	d, h, o := guestCPUData()
	var b bytes.Buffer
	GuestCPUs(&b, d)
	want := []string{
		"counts, guest CPU " + h + " (GenuineIntel family 6 model 60, glibc 2.36 (haswell)): 5 runs on 2 machines: " +
			`m0 (AMD EPYC, family 25 model 1 stepping 1; class "AMD EPYC (family 25 model 1), 2 cores"); m1 (Intel Xeon; class "Intel Xeon, 2 cores")`,
		"counts, guest CPU " + h + " = GenuineIntel max=0xd 1=000306c3,7ffafbff,bfebfbff | glibc=2.36 platform=haswell",
		"counts, guest CPU " + o + " (GenuineIntel family 6 model 42, glibc 2.36 (x86_64)): 1 run on 1 machine: m2 (not described)",
		"counts, guest CPU " + o + " = GenuineIntel max=0xb 1=000206a7,1fbae3ff,bfebfbff | glibc=2.36 platform=x86_64",
		`counts, guest CPU unrecorded: 1 run on 1 machine: m0 (AMD EPYC, family 25 model 1 stepping 1; class "AMD EPYC (family 25 model 1), 2 cores")`,
		"counts across machines, mode data, m0 (guest CPU " + h + ") vs m1 (guest CPU " + h + "), same guest CPU: 2 (cell, test) counted by each; " +
			"instructions per request apart median 0.0250%, p99 0.0495%, max 0.0500%; 2 of 2 within 0.1%",
		"counts across machines, mode data, m0 (guest CPU " + h + ") vs m2 (guest CPU " + o + "), different guest CPUs: 1 (cell, test) counted by each; " +
			"instructions per request apart median 2.5000%, p99 2.5000%, max 2.5000%; 0 of 1 within 0.1%",
		"counts across machines, mode data: Z GET: m0/" + h + " 800.0, m2/" + o + " 820.0: 2.5000% apart (> 0.1%)",
	}
	if got := strings.Split(strings.TrimSpace(b.String()), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// With one counter only, there is nothing to compare, and it says so.
func TestGuestCPUsWithOneMachineHasNothingToCompare(t *testing.T) {
	d, _, _ := guestCPUData()
	d.CountRuns, d.Counts = d.CountRuns[1:3], d.Counts[:2]
	var b bytes.Buffer
	GuestCPUs(&b, d)
	if !strings.Contains(b.String(), "counts across machines: no (cell, test) counted on two machines or under two guest CPUs") {
		t.Errorf("got\n%s", b.String())
	}
}

// At most maxApartListed (cell, test) beyond 0.1% are listed per group, widest first.
func TestGuestCPUsListsTheWidestApart(t *testing.T) {
	d := &store.Data{CountRuns: []store.CountRun{{RunID: "a", MachineID: "m0"}, {RunID: "b", MachineID: "m1"}}}
	for i := range 12 {
		v, w := 1000.0, 1010.0+float64(i)
		test := fmt.Sprintf("T%02d", i)
		d.Counts = append(d.Counts,
			store.Count{RunID: "a", CellID: "X", Mode: "data", Test: test, Status: "ok", InstructionsPerRequest: &v},
			store.Count{RunID: "b", CellID: "X", Mode: "data", Test: test, Status: "ok", InstructionsPerRequest: &w})
	}
	expectLines(t, printed(GuestCPUs, d),
		"mode data, m0 (guest CPU unrecorded) vs m1 (guest CPU unrecorded): 12 (cell, test) counted by each",
		"counts across machines, mode data: X T11: m0/unrecorded 1000.0, m1/unrecorded 1021.0: 2.1000% apart (> 0.1%)\ncounts across machines, mode data: X T10:",
		"counts across machines, mode data: X T02: m0/unrecorded 1000.0, m1/unrecorded 1012.0: 1.2000% apart (> 0.1%)\ncounts across machines, mode data: ... and 2 more beyond 0.1%\n")
}

// Counters that counted builds of one code hash are said to have counted the
// same code; builds of two hashes, different code; an unrecorded hash, neither.
func TestGuestCPUsSaysWhetherTheCodeWasTheSame(t *testing.T) {
	s := func(v string) *string { return &v }
	v := 1000.0
	d := &store.Data{
		Builds: []store.Build{{BuildID: "x1", CodeSHA256: s("c1")}, {BuildID: "x2", CodeSHA256: s("c1")}, {BuildID: "y1", CodeSHA256: s("c1")}, {BuildID: "y2", CodeSHA256: s("c2")}, {BuildID: "z1"}, {BuildID: "z2", CodeSHA256: s("c3")}},
		CountRuns: []store.CountRun{
			{RunID: "x1", MachineID: "m0"}, {RunID: "x2", MachineID: "m1"},
			{RunID: "y1", MachineID: "m0"}, {RunID: "y2", MachineID: "m2"},
			{RunID: "z1", MachineID: "m0"}, {RunID: "z2", MachineID: "m3"},
		},
	}
	for _, r := range d.CountRuns {
		d.Counts = append(d.Counts, store.Count{RunID: r.RunID, BuildID: r.RunID, CellID: r.RunID[:1], Mode: "data", Test: "SET", Status: "ok", InstructionsPerRequest: &v})
	}
	expectLines(t, printed(GuestCPUs, d),
		"m0 (guest CPU unrecorded) vs m1 (guest CPU unrecorded), same code: 1 (cell, test)",
		"m0 (guest CPU unrecorded) vs m2 (guest CPU unrecorded), different code: 1 (cell, test)",
		"m0 (guest CPU unrecorded) vs m3 (guest CPU unrecorded): 1 (cell, test)")
}
