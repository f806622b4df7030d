package main

import (
	"bytes"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/build"
	"github.com/redis-compiler-benchmarks/collector/internal/count"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
	"github.com/redis-compiler-benchmarks/collector/internal/testenv"
)

// TestCountEndToEnd builds Redis 7.0.15 from Debian's source tarball with gcc
// -O2 and -Os and counts each twice in both modes (collector count): every
// test the 7.0.15 client runs is counted, the two counts of each agree within
// 0.1%, and -Os costs a different number of instructions than -O2. It needs
// RCB_DEBIAN_TARBALLS (see TestEndToEnd) and valgrind; it takes minutes.
func TestCountEndToEnd(t *testing.T) {
	testenv.Real(t, "builds Redis and counts it under Valgrind")
	tarDir := testenv.Tarballs(t, true)
	ctx := testenv.Context(t)
	tmp := t.TempDir()
	data := filepath.Join(tmp, "data")
	args := []string{"count", "-config", "testdata/e2e-fixture-count-matrix.toml", "-data", data,
		"-work", filepath.Join(tmp, "work"), "-source", "tarballs", "-tarballs", tarDir, "-no-progress", "-redo-differing"}
	var out, log bytes.Buffer
	if err := run(ctx, args, &out, &log); err != nil {
		t.Fatalf("collector %s: %v\n%s", strings.Join(args, " "), err, log.String())
	}
	if !strings.Contains(log.String(), "2 cells, 8 counting runs to do") {
		t.Errorf("log does not announce 8 counting runs:\n%s", log.String())
	}
	d, err := store.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.CountRuns) != 8 {
		t.Fatalf("%d count runs, want 8", len(d.CountRuns))
	}
	if !strings.Contains(log.String(), "guest CPU under valgrind ") {
		t.Errorf("log does not name the guest CPU:\n%s", log.String())
	}
	// One probe per invocation: every run records the same guest CPU.
	guest := d.CountRuns[0].GuestCPU
	if guest == nil || !strings.Contains(*guest, " | glibc=") {
		t.Errorf("count run %s records guest CPU %v", d.CountRuns[0].RunID, guest)
	}
	for _, r := range d.CountRuns {
		if guest != nil && (r.GuestCPU == nil || *r.GuestCPU != *guest) {
			t.Errorf("count run %s records guest CPU %v, another run %q", r.RunID, r.GuestCPU, *guest)
		}
		if r.Status != "ok" || !strings.Contains(r.Command, "valgrind") || !strings.HasPrefix(r.ValgrindVersion, "valgrind-") ||
			!strings.Contains(r.RawOutput, "CONFIG SET jemalloc-bg-thread no -> OK") || r.BuildID == "" ||
			!strings.HasPrefix(r.RawOutput, "preload freezeclock.so built by gcc") {
			t.Errorf("count run %s: status %s, command %q, valgrind %q, build %q", r.RunID, r.Status, r.Command, r.ValgrindVersion, r.BuildID)
		}
		if r.Protocol != store.CountProtocol {
			t.Errorf("count run %s records protocol %d, want %d", r.RunID, r.Protocol, store.CountProtocol)
		}
		// The data mode's own env reaches the server after count.env; pipe
		// mode's reads still wait for their batch.
		if settles := !strings.Contains(r.Env, "FREEZECLOCK_SETTLE_READS=no"); settles != (r.Mode == "pipe") {
			t.Errorf("count run %s (%s mode) records env %q", r.RunID, r.Mode, r.Env)
		}
	}
	// 20 tests: the 7.0.15 client has no XADD test, so XADD gets no row.
	byKey := map[string][]float64{}
	for _, c := range d.Counts {
		if c.Status != "ok" || c.InstructionsPerRequest == nil || *c.InstructionsPerRequest <= 0 || c.Requests == nil {
			msg := ""
			if c.Error != nil {
				msg = *c.Error
			}
			t.Errorf("%s %s %s #%d: status %s, error %s", c.CellID, c.Mode, c.Test, c.Repeat, c.Status, msg)
			continue
		}
		if c.Test == "XADD" {
			t.Errorf("XADD counted with a client that lacks it")
		}
		k := c.CellID + "|" + c.Mode + "|" + c.Test
		byKey[k] = append(byKey[k], *c.InstructionsPerRequest)
	}
	if len(byKey) != 2*2*20 {
		t.Errorf("%d (cell, mode, test) counted, want 80", len(byKey))
	}
	var spreads []float64
	for k, v := range byKey {
		if len(v) != 2 {
			t.Errorf("%s: %d counts, want 2", k, len(v))
			continue
		}
		spread := math.Abs(v[0]-v[1]) / math.Min(v[0], v[1]) * 100
		spreads = append(spreads, spread)
		if spread > 0.1 {
			t.Errorf("%s: counts %.1f and %.1f differ by %.3f%% (> 0.1%%)", k, v[0], v[1], spread)
		}
	}
	sort.Float64s(spreads)
	if len(spreads) > 0 {
		t.Logf("repeat spread of instructions per request: median %.4f%%, max %.4f%%", spreads[len(spreads)/2], spreads[len(spreads)-1])
	}
	// -Os compiles to different code: its SET costs differ from -O2's.
	o2, os := byKey["7.0.15|gcc|-O2|data|SET"], byKey["7.0.15|gcc|-Os|data|SET"]
	if len(o2) > 0 && len(os) > 0 && math.Abs(os[0]/o2[0]-1) < 0.01 {
		t.Errorf("-Os SET %.0f instructions/request, -O2 %.0f: no difference", os[0], o2[0])
	}
	// The second cell (-Os) is built while the first (-O2) is counted.
	var osBuild time.Time
	for _, b := range d.Builds {
		if b.CellID == "7.0.15|gcc|-Os" {
			osBuild = b.StartedAt
		}
		// Its jemalloc (5.2.1) is built for 48-bit virtual addresses, whatever
		// this host's CPU says (build.FixedLgVaddr).
		if b.JemallocLgVaddr == nil || *b.JemallocLgVaddr != build.FixedLgVaddr {
			t.Errorf("build %s: jemalloc_lg_vaddr %v, want %d", b.BuildID, b.JemallocLgVaddr, build.FixedLgVaddr)
		}
	}
	var o2Counted time.Time
	for _, r := range d.CountRuns {
		if r.CellID == "7.0.15|gcc|-O2" && r.FinishedAt.After(o2Counted) {
			o2Counted = r.FinishedAt
		}
	}
	if osBuild.IsZero() || !osBuild.Before(o2Counted) {
		t.Errorf("-Os build started at %v, -O2's counting runs finished at %v: want the build beside the counting", osBuild, o2Counted)
	}
	// With -redo-differing each run's callgrind dumps waited in its cell's
	// dumps folder until its repeats agreed, and are gone; only a pair that
	// differed (counted again) would have left its dumps.
	kept, err := filepath.Glob(filepath.Join(tmp, "work", "cells", "*", "dumps", "*-*"))
	if err != nil {
		t.Fatal(err)
	}
	created, _ := filepath.Glob(filepath.Join(tmp, "work", "cells", "*", "dumps"))
	if len(created) != 2 || len(kept) != len(d.SupersededCountRuns) {
		t.Errorf("dumps folders %q, dumps left %q; want one folder per cell, dumps only of the %d runs counted again", created, kept, len(d.SupersededCountRuns))
	}
	// stats names the guest CPU and its machine.
	var stats bytes.Buffer
	if err := run(ctx, []string{"stats", "-data", data}, &stats, &log); err != nil {
		t.Fatal(err)
	}
	if guest != nil && !strings.Contains(stats.String(), "counts, guest CPU "+count.ShortHash(*guest)+" (") {
		t.Errorf("stats does not name guest CPU %s:\n%s", count.ShortHash(*guest), stats.String())
	}
}
