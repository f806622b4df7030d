package count

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// wellFormed is a signature's shape: vendor, leaf 1, then glibc's version.
var wellFormed = regexp.MustCompile(`^[A-Za-z_]{12} max=0x[0-9a-f]+ .*\b1=[0-9a-f]{8},[0-9a-f]{8},[0-9a-f]{8}\b.* \| glibc=\S+`)

// The probe runs under the counted instrument's Valgrind command and gives
// the same signature every time.
func TestProbeGuestCPUUnderValgrindRepeats(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the probe and runs it under Valgrind")
	}
	for _, tool := range []string{"valgrind", "gcc", "setarch"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s", tool)
		}
	}
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
