package config

import (
	"fmt"
	"reflect"
	"testing"
)

func TestCells(t *testing.T) {
	gcc := Compiler{Name: "gcc", CC: "gcc-12"}
	clang := Compiler{Name: "clang", CC: "clang-19", LTOLDFlags: "-fuse-ld=lld"}
	o2 := FlagSet{Name: "-O2", CFlags: "-O2"}
	lto := FlagSet{Name: "-O2 -flto", CFlags: "-O2 -flto"}
	tests := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"one of each", Config{Versions: []string{"7.4.1"}, Compilers: []Compiler{gcc}, FlagSets: []FlagSet{o2}},
			[]string{"7.4.1|gcc|-O2"}},
		{"flag sets vary fastest, then compilers, then versions",
			Config{Versions: []string{"2.6.17", "7.4.1"}, Compilers: []Compiler{gcc, clang}, FlagSets: []FlagSet{o2, lto}},
			[]string{
				"2.6.17|gcc|-O2", "2.6.17|gcc|-O2 -flto", "2.6.17|clang|-O2", "2.6.17|clang|-O2 -flto",
				"7.4.1|gcc|-O2", "7.4.1|gcc|-O2 -flto", "7.4.1|clang|-O2", "7.4.1|clang|-O2 -flto",
			}},
		{"config order is kept, not sorted", Config{Versions: []string{"7.4.1", "2.6.17"}, Compilers: []Compiler{clang, gcc}, FlagSets: []FlagSet{lto}},
			[]string{"7.4.1|clang|-O2 -flto", "7.4.1|gcc|-O2 -flto", "2.6.17|clang|-O2 -flto", "2.6.17|gcc|-O2 -flto"}},
		{"no flag sets, no cells", Config{Versions: []string{"7.4.1"}, Compilers: []Compiler{gcc}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range tt.cfg.Cells() {
				got = append(got, c.ID())
				// Indexes point back into the config.
				if tt.cfg.Versions[c.VersionIndex] != c.Version ||
					!reflect.DeepEqual(tt.cfg.Compilers[c.CompilerIndex], c.Compiler) ||
					tt.cfg.FlagSets[c.FlagIndex] != c.FlagSet {
					t.Errorf("cell %s has indexes %d/%d/%d that do not match the config", c.ID(), c.VersionIndex, c.CompilerIndex, c.FlagIndex)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("cells = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestHasLTO(t *testing.T) {
	for cflags, want := range map[string]bool{
		"-O2": false, "-O2 -flto": true, "-flto -Os": true, "-Ofast -flto=auto": true, "-flto=thin": true,
		"-fno-lto": false, "-O2 -flto-partition=none": false, "-fltox": false, "": false,
	} {
		c := Cell{FlagSet: FlagSet{Name: "x", CFlags: cflags}}
		if got := c.HasLTO(); got != want {
			t.Errorf("HasLTO(%q) = %v, want %v", cflags, got, want)
		}
	}
	// The name is only a label: cflags decide.
	if (Cell{FlagSet: FlagSet{Name: "-O2 -flto", CFlags: "-O2"}}).HasLTO() {
		t.Error("HasLTO looked at the flag set's name instead of its cflags")
	}
}

func TestParseShard(t *testing.T) {
	good := map[string]Shard{"": {0, 1}, "0/1": {0, 1}, "0/4": {0, 4}, "3/4": {3, 4}, "9/10": {9, 10}}
	for s, want := range good {
		got, err := ParseShard(s)
		if err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"4/4", "-1/4", "0/0", "1/0", "1", "a/b", "1/2/3", "0/4x", "0 /4", "/4", "1/", " 0/4"} {
		if sh, err := ParseShard(s); err == nil {
			t.Errorf("ParseShard(%q) = %v, want an error", s, sh)
		}
	}
}

// reference builds the reference matrix's shape without reading a file.
func reference(versions int) *Config {
	c := &Config{
		Compilers: []Compiler{{Name: "gcc"}, {Name: "clang"}},
	}
	for _, f := range []string{"-O2", "-Os", "-Ofast", "-O2 -flto", "-Os -flto", "-Ofast -flto"} {
		c.FlagSets = append(c.FlagSets, FlagSet{Name: f, CFlags: f})
	}
	for i := 0; i < versions; i++ {
		c.Versions = append(c.Versions, fmt.Sprintf("%d.%d.%d", 2+i/4, i%4*2, i))
	}
	return c
}

func TestShardsPartitionTheMatrix(t *testing.T) {
	cells := reference(11).Cells()
	for n := 1; n <= 5; n++ {
		owners := map[string]int{}
		total := 0
		for i := 0; i < n; i++ {
			part := Shard{i, n}.Filter(cells)
			total += len(part)
			if n > 1 && len(part) == 0 {
				t.Errorf("shard %d/%d owns no cell of %d", i, n, len(cells))
			}
			for _, c := range part {
				owners[c.ID()]++
			}
			for k := 1; k < len(part); k++ { // Filter keeps the matrix order
				if idx(cells, part[k-1]) > idx(cells, part[k]) {
					t.Errorf("shard %d/%d is out of matrix order at %s", i, n, part[k].ID())
				}
			}
		}
		if total != len(cells) || len(owners) != len(cells) {
			t.Errorf("n=%d: %d cells in all shards, %d distinct, want %d", n, total, len(owners), len(cells))
		}
		for id, k := range owners {
			if k != 1 {
				t.Errorf("n=%d: cell %s owned by %d shards", n, id, k)
			}
		}
	}
}

func idx(cells []Cell, c Cell) int {
	for i, x := range cells {
		if x.ID() == c.ID() {
			return i
		}
	}
	return -1
}

func TestShardStableWhenMatrixGrows(t *testing.T) {
	small, grown := reference(5), reference(11)
	grown.FlagSets = append(grown.FlagSets, FlagSet{Name: "-O3 -flto", CFlags: "-O3 -flto"})
	grown.Compilers = append([]Compiler{{Name: "icx"}}, grown.Compilers...) // indexes shift
	for n := 2; n <= 5; n++ {
		owner := map[string]int{}
		for i := 0; i < n; i++ {
			for _, c := range (Shard{i, n}).Filter(small.Cells()) {
				owner[c.ID()] = i
			}
		}
		for i := 0; i < n; i++ {
			for _, c := range (Shard{i, n}).Filter(grown.Cells()) {
				if was, ok := owner[c.ID()]; ok && was != i {
					t.Errorf("n=%d: cell %s moved from shard %d to %d when the matrix grew", n, c.ID(), was, i)
				}
			}
		}
	}
}
