package count

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/testenv"
)

// wellFormed is a signature's shape: vendor, leaf 1, then glibc's version.
var wellFormed = regexp.MustCompile(`^[A-Za-z_]{12} max=0x[0-9a-f]+ .*\b1=[0-9a-f]{8},[0-9a-f]{8},[0-9a-f]{8}\b.* \| glibc=\S+`)

// The probe runs under the counted instrument's Valgrind command and gives
// the same signature every time.
func TestProbeGuestCPUUnderValgrindRepeats(t *testing.T) {
	testenv.Real(t, "compiles the probe and runs it under Valgrind")
	testenv.Tools(t, "valgrind", "gcc", "setarch")
	ctx := context.Background()
	var sigs []string
	for _, dir := range []string{"a", "b"} {
		s := Spec{
			Valgrind: "valgrind", Dir: filepath.Join(t.TempDir(), dir), Env: []string{"LD_BIND_NOW=1"},
			ToolArgs: []string{"--tool=callgrind", "--cache-sim=yes", "--branch-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"},
		}
		sig, err := ProbeGuestCPU(ctx, "gcc", s)
		if err != nil {
			t.Fatal(err)
		}
		sigs = append(sigs, sig)
	}
	if !wellFormed.MatchString(sigs[0]) {
		t.Errorf("signature is not well formed: %q", sigs[0])
	}
	if sigs[0] != sigs[1] {
		t.Errorf("two probes differ:\n%s\n%s", sigs[0], sigs[1])
	}
	t.Logf("guest CPU %s: %s\n%s", ShortHash(sigs[0]), GuestCPUSummary(sigs[0]), sigs[0])
}

// The counted server sees Valgrind's CPU, not the host's: under Valgrind 3.19
// on any host with AVX2 (every machine of the dataset, and GitHub's hosted
// runners) the probe reads the CPUID of the Haswell that Valgrind presents,
// the dataset's guest CPU (fixture-guestcpu-valgrind.txt, probed on another
// CPU model), whatever this host's CPU is. A host that presents another guest
// CPU is refused by collector count and merge (runner.SetupConflict).
func TestGuestCPUUnderValgrindIsNotTheHosts(t *testing.T) {
	testenv.Real(t, "compiles the probe and runs it under Valgrind")
	testenv.Tools(t, "valgrind", "gcc", "setarch")
	ctx := context.Background()
	dir := t.TempDir()
	s := Spec{Valgrind: "valgrind", Dir: dir, ToolArgs: []string{"--tool=callgrind"}}
	guest, err := ProbeGuestCPU(ctx, "gcc", s)
	if err != nil {
		t.Fatal(err)
	}
	native, err := exec.CommandContext(ctx, filepath.Join(dir, "guestcpu")).Output()
	if err != nil {
		t.Fatal(err)
	}
	host, err := GuestCPUSignature(string(native), "")
	if err != nil {
		t.Fatal(err)
	}
	cpuid := func(sig string) string { return strings.SplitN(sig, " | ", 2)[0] }
	dataset, err := GuestCPUSignature(readFixture(t, "fixture-guestcpu-valgrind.txt"), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("host %s, guest %s", GuestCPUSummary(host), GuestCPUSummary(guest))
	if !strings.HasPrefix(ValgrindVersion(ctx, "valgrind"), "valgrind-3.19.") {
		t.Skipf("Valgrind %s: the dataset's guest CPU is Valgrind 3.19's", ValgrindVersion(ctx, "valgrind"))
	}
	if !hostHasAVX2(string(native)) {
		t.Skip("this host has no AVX2: Valgrind presents a lesser CPU, which count refuses")
	}
	if cpuid(guest) != cpuid(dataset) {
		t.Errorf("guest CPU under Valgrind\n%s\nis not the dataset's\n%s", cpuid(guest), cpuid(dataset))
	}
	if cpuid(host) == cpuid(guest) {
		t.Logf("this host's CPUID is the guest's: the test shows nothing here")
	}
}

// hostHasAVX2 reads leaf 7's ebx bit 5 from the probe's output.
func hostHasAVX2(probe string) bool {
	leaves, err := parseLeaves(probe)
	if err != nil || leaves["7.0"] == nil {
		return false
	}
	var ebx uint32
	fmt.Sscanf(leaves["7.0"][1], "%x", &ebx)
	return ebx&(1<<5) != 0
}
