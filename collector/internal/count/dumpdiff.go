package count

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// NameDiff is one function whose figure differs between two dumps.
type NameDiff struct {
	Name string
	A, B int64
}

// DumpDiff compares one test's dumps from two counting runs.
type DumpDiff struct {
	// File is the dump's name (test-NN.callgrind); Missing names the run
	// that has no such file ("" when both have it).
	File, Missing string
	// Events names the events; TotalsA and TotalsB are the two runs' totals.
	Events           []string
	TotalsA, TotalsB Events
	// Calls and Self list the functions called a different number of times,
	// and those whose own instructions differ, largest difference first.
	Calls, Self []NameDiff
}

// Same reports whether both runs have the dump and it counted the same in
// every event and in every function.
func (d DumpDiff) Same() bool {
	if d.Missing != "" || len(d.Calls) > 0 || len(d.Self) > 0 {
		return false
	}
	for _, e := range d.Events {
		if d.TotalsA[e] != d.TotalsB[e] {
			return false
		}
	}
	return true
}

// CompareDumpDirs compares the dumps (test-NN.callgrind) of two counting
// runs of one (cell, mode), test by test in the client's order: where a
// disturbed run parted from the other, and in which functions.
func CompareDumpDirs(a, b string) ([]DumpDiff, error) {
	files := map[string]int{}
	for i, dir := range []string{a, b} {
		names, err := filepath.Glob(filepath.Join(dir, "test-*.callgrind"))
		if err != nil {
			return nil, err
		}
		if len(names) == 0 {
			if _, err := os.Stat(dir); err != nil {
				return nil, fmt.Errorf("dumps: %w", err)
			}
			return nil, fmt.Errorf("dumps: no test-NN.callgrind file in %s", dir)
		}
		for _, n := range names {
			files[filepath.Base(n)] |= 1 << i
		}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []DumpDiff
	for _, name := range names {
		d := DumpDiff{File: name}
		switch files[name] {
		case 1:
			d.Missing = b
		case 2:
			d.Missing = a
		}
		if d.Missing != "" {
			out = append(out, d)
			continue
		}
		pa, err := readProfile(filepath.Join(a, name))
		if err != nil {
			return nil, err
		}
		pb, err := readProfile(filepath.Join(b, name))
		if err != nil {
			return nil, err
		}
		d.Events, d.TotalsA, d.TotalsB = pa.Events, pa.Totals, pb.Totals
		d.Calls, d.Self = differing(pa.Calls, pb.Calls), differing(pa.Self, pb.Self)
		out = append(out, d)
	}
	return out, nil
}

func readProfile(path string) (Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return Profile{}, err
	}
	defer f.Close()
	p, err := ParseProfile(f, "")
	if err != nil {
		return p, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// differing lists the names whose values differ, largest difference first
// (then by name).
func differing(a, b map[string]int64) []NameDiff {
	var out []NameDiff
	for n, v := range a {
		if b[n] != v {
			out = append(out, NameDiff{n, v, b[n]})
		}
	}
	for n, v := range b {
		if _, ok := a[n]; !ok && v != 0 {
			out = append(out, NameDiff{n, 0, v})
		}
	}
	abs := func(x int64) int64 {
		if x < 0 {
			return -x
		}
		return x
	}
	sort.Slice(out, func(i, j int) bool {
		di, dj := abs(out[i].A-out[i].B), abs(out[j].A-out[j].B)
		if di != dj {
			return di > dj
		}
		return out[i].Name < out[j].Name
	})
	return out
}
