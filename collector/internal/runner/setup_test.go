package runner

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// count refuses to count on a machine whose guest CPU is not the reference
// dataset's, unless told the counts start a new dataset.
func TestCheckSetupRefusesAnotherGuestCPU(t *testing.T) {
	const dataset = "GenuineIntel max=0xd 1=000306c3,7ffafbff,bfebfbff | glibc=2.36 platform=haswell"
	const lesser = "GenuineIntel max=0xb 1=000206a7,1fbaa3ff,bfebfbff | glibc=2.36 platform=x86_64"
	sig := dataset
	ref := &store.Data{CountRuns: []store.CountRun{{RunID: "r", BuildID: "b", ValgrindVersion: "valgrind-3.19.0", GuestCPU: &sig}}}
	// "true --version" prints nothing: no compiler version to compare.
	cfg := &config.Config{Compilers: []config.Compiler{{Name: "gcc", CC: "true"}}}
	for _, c := range []struct {
		guest, vg string
		newData   bool
		want      string
	}{
		{dataset, "valgrind-3.19.0", false, ""},
		{lesser, "valgrind-3.19.0", false, "guest CPU "},
		{dataset, "valgrind-3.22.0", false, "Valgrind valgrind-3.22.0 is not the dataset's"},
		{lesser, "valgrind-3.19.0", true, ""},
	} {
		var log bytes.Buffer
		col := &collector{guestCPU: c.guest, Options: Options{Config: cfg, Reference: ref, NewDataset: c.newData, Log: &log}}
		err := col.checkSetup(context.Background(), c.vg)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s, %s, new dataset %v: %v", c.vg, c.guest, c.newData, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasSuffix(err.Error(), "-new-dataset")):
			t.Errorf("%s, %s: %v, want a refusal with %q", c.vg, c.guest, err, c.want)
		}
		if c.newData && !strings.Contains(log.String(), "counting anyway (-new-dataset): guest CPU ") {
			t.Errorf("-new-dataset does not log the difference: %q", log.String())
		}
	}
}
