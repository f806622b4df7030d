package store

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A precision run keeps its round's seed and its place, its results their
// request count, and calibrations round-trip keyed by class, version, mode
// and test; runs written before these columns read them as null.
func TestPrecisionColumnsAndCalibrationsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	old := []runV011{{RunID: "ref", CellID: "7.4.1|gcc|-O2", Status: "ok", StartedAt: t0, MachineID: "m1"}}
	if err := write(dir, RunsFile, old); err != nil {
		t.Fatal(err)
	}
	d, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d.Runs[0].RoundSeed != nil || d.Runs[0].RoundPosition != nil {
		t.Fatalf("a run written before the round columns reads as %+v", d.Runs[0])
	}
	d.Runs = append(d.Runs, Run{RunID: "p1", CellID: "7.4.1|clang|-O2", Mode: "pipe-long", Repeat: 1, StartedAt: t0.Add(1), RoundSeed: ptr(int64(-42)), RoundPosition: ptr(int32(7))})
	d.Results = append(d.Results, Result{RunID: "p1", CellID: "7.4.1|clang|-O2", Mode: "pipe-long", Test: "SET", Status: "ok", RPS: ptr(2e6), Requests: ptr(int64(3600000))})
	cal := Calibration{HardwareClass: "AMD EPYC, 2 cores", Version: "7.4.1", Mode: "pipe-long", Test: "SET", TestIndex: 2, Status: "ok",
		Requests: 3600000, Steps: "1000:1,100000:50,3600000:1800", MinTimeSeconds: 1.5, CellID: "7.4.1|gcc|-Os", BuildID: "b1", MachineID: "m1", CalibratedAt: t0}
	again := cal
	again.Requests = 1 // an older calibration of the same key is replaced, not duplicated
	d.Calibrations = append(d.Calibrations, again, cal)
	if err := d.Save(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r := got.Runs[1]; r.RunID != "p1" || *r.RoundSeed != -42 || *r.RoundPosition != 7 || got.Runs[0].RoundSeed != nil {
		t.Errorf("runs read back as %+v", got.Runs)
	}
	if r := got.Results[0]; *r.Requests != 3600000 {
		t.Errorf("result requests %v", r.Requests)
	}
	got.Calibrations[0].CalibratedAt = got.Calibrations[0].CalibratedAt.UTC()
	if !reflect.DeepEqual(got.Calibrations, []Calibration{cal}) {
		t.Errorf("calibrations:\n got %+v\nwant %+v", got.Calibrations, []Calibration{cal})
	}
}

// A dataset with no precision runs gets no calibrations file.
func TestNoCalibrationsNoFile(t *testing.T) {
	dir := t.TempDir()
	if err := sample().Save(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, CalibrationsFile)); !os.IsNotExist(err) {
		t.Errorf("calibrations file: %v, want none", err)
	}
}
