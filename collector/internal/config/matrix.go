package config

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Cell is one point of the matrix: a Redis version built by one compiler with one flag set.
type Cell struct {
	Version string
	// VersionIndex is the version's position in the matrix (ReleaseList).
	VersionIndex int
	// Current says the version is a current version (Config.Versions): the
	// matrix's default set.
	Current       bool
	Compiler      Compiler
	CompilerIndex int
	FlagSet       FlagSet
	FlagIndex     int
}

// ID is the cell's key in every table: "<version>|<compiler>|<flag set>".
func (c Cell) ID() string {
	return c.Version + "|" + c.Compiler.Name + "|" + c.FlagSet.Name
}

// HasLTO reports whether the flag set asks for link-time optimisation.
func (c Cell) HasLTO() bool {
	for _, f := range strings.Fields(c.FlagSet.CFlags) {
		if f == "-flto" || strings.HasPrefix(f, "-flto=") {
			return true
		}
	}
	return false
}

// ReleaseList is every version of the matrix in release order: Releases, or
// Versions when the config lists no releases.
func (c *Config) ReleaseList() []string {
	if len(c.Releases) > 0 {
		return c.Releases
	}
	return c.Versions
}

// IsCurrent says whether version is a current version (Versions): the
// matrix's default set.
func (c *Config) IsCurrent(version string) bool { return contains(c.Versions, version) }

// RepeatsOf is how many benchmark runs per mode the matrix plans for a cell of
// version: Bench.Repeats for a current version, Bench.OtherRepeats for the others.
func (c *Config) RepeatsOf(version string) int {
	if c.IsCurrent(version) {
		return c.Bench.Repeats
	}
	return c.Bench.OtherRepeats
}

// Cells expands the matrix in a stable order: version (release order), then
// compiler, then flag set.
func (c *Config) Cells() []Cell {
	var cells []Cell
	for vi, v := range c.ReleaseList() {
		for ci, cc := range c.Compilers {
			for fi, fs := range c.FlagSets {
				cells = append(cells, Cell{Version: v, VersionIndex: vi, Current: c.IsCurrent(v),
					Compiler: cc, CompilerIndex: ci, FlagSet: fs, FlagIndex: fi})
			}
		}
	}
	return cells
}

// ReferenceCells keeps the cells of reference flag sets (not Extended), in order.
func ReferenceCells(cells []Cell) []Cell {
	var out []Cell
	for _, c := range cells {
		if !c.FlagSet.Extended {
			out = append(out, c)
		}
	}
	return out
}

// Shard is "shard i of n" (0 <= I < N).
type Shard struct{ I, N int }

// ParseShard reads "i/n" (e.g. "0/4"); "" means the whole matrix.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{0, 1}, nil
	}
	// Not Sscanf: it ignores trailing text, so "1/2/3" or "0/4x" would pass.
	is, ns, _ := strings.Cut(s, "/")
	i, ierr := strconv.Atoi(is)
	n, nerr := strconv.Atoi(ns)
	if ierr != nil || nerr != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("bad shard %q: want i/n with 0 <= i < n", s)
	}
	return Shard{i, n}, nil
}

// Owns reports whether the cell belongs to this shard. It hashes the cell id,
// so a cell stays on the same shard when the matrix grows or shrinks.
func (s Shard) Owns(c Cell) bool {
	if s.N <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(c.ID()))
	return int(h.Sum32()%uint32(s.N)) == s.I
}

// Filter returns the cells this shard owns, in order.
func (s Shard) Filter(cells []Cell) []Cell {
	var out []Cell
	for _, c := range cells {
		if s.Owns(c) {
			out = append(out, c)
		}
	}
	return out
}
