package config

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Why a version takes its place in the collection order.
const (
	// PhaseCurrent: a current version (Config.Versions).
	PhaseCurrent = "current"
	// PhaseFirst: the first release of its minor line.
	PhaseFirst = "first"
	// PhaseBisect: the midpoint of the largest gap of a line left at its turn.
	PhaseBisect = "bisect"
)

// Placed is a version's place in the collection order and why it is there.
type Placed struct {
	Version string
	Phase   string
}

// CollectionOrder orders the matrix's versions for collection, coverage first,
// so that a collection stopped at any point has spread what it did over the
// lines: first the current versions, then the first release of each minor
// line, both in release order; then the rest one at a time, each the midpoint
// of the largest gap left: the run of releases not yet placed between two
// placed releases of a line, or after a line's last placed release. Of gaps
// equally large the oldest goes first. releases are in release order and hold
// current. The order depends on the matrix alone, not on what is collected.
func CollectionOrder(releases, current []string) []Placed {
	var out []Placed
	placed := map[string]bool{}
	place := func(v, phase string) {
		if !placed[v] {
			placed[v] = true
			out = append(out, Placed{v, phase})
		}
	}
	for _, v := range releases {
		if slices.Contains(current, v) {
			place(v, PhaseCurrent)
		}
	}
	lines := byLine(releases)
	for _, line := range lines {
		place(line[0], PhaseFirst)
	}
	for len(out) < len(releases) {
		line, at := largestGap(lines, placed)
		place(lines[line][at], PhaseBisect)
	}
	return out
}

// largestGap finds the midpoint of the largest run of unplaced releases of a
// line that follows a placed one: its line and index in the line. Runs are
// compared by length, ties to the older one.
func largestGap(lines [][]string, placed map[string]bool) (int, int) {
	bestLine, bestAt, bestLen := -1, -1, 0
	for li, line := range lines {
		from := 0 // index of the last placed release
		for i := 1; i <= len(line); i++ {
			if i < len(line) && !placed[line[i]] {
				continue
			}
			// line[from+1 : i] is unplaced; i is placed, or the line's end.
			if n := i - from - 1; n > bestLen {
				bestLine, bestAt, bestLen = li, from+(i-from)/2, n
			}
			from = i
		}
	}
	return bestLine, bestAt
}

// byLine groups versions (in release order) by minor line, in order.
func byLine(versions []string) [][]string {
	var lines [][]string
	for i, v := range versions {
		if i == 0 || MinorLine(v) != MinorLine(versions[i-1]) {
			lines = append(lines, nil)
		}
		lines[len(lines)-1] = append(lines[len(lines)-1], v)
	}
	return lines
}

// MinorLine is the minor line of a version: "2.6" for 2.6.17 and 2.6.0-rc1.
func MinorLine(version string) string {
	main, _, _ := strings.Cut(version, "-")
	parts := strings.SplitN(main, ".", 3)
	if len(parts) < 2 {
		return main
	}
	return parts[0] + "." + parts[1]
}

// CompareVersions compares two release numbers in release order (negative:
// a is older): numerically part by part, a missing part counting as 0, and a
// release candidate ("7.0-rc1") before its release. Other strings compare as
// strings, after every release number.
func CompareVersions(a, b string) int {
	if validVersion(a) != validVersion(b) {
		if validVersion(a) {
			return -1
		}
		return 1
	}
	if !validVersion(a) {
		return strings.Compare(a, b)
	}
	am, arc, aPre := strings.Cut(a, "-")
	bm, brc, bPre := strings.Cut(b, "-")
	ap, bp := strings.Split(am, "."), strings.Split(bm, ".")
	for i := 0; i < max(len(ap), len(bp)); i++ {
		if c := cmp.Compare(part(ap, i), part(bp, i)); c != 0 {
			return c
		}
	}
	switch {
	case aPre && bPre:
		return cmp.Compare(part([]string{arc[2:]}, 0), part([]string{brc[2:]}, 0))
	case aPre:
		return -1
	case bPre:
		return 1
	}
	return 0
}

// part is the i-th number of parts, 0 when missing.
func part(parts []string, i int) int {
	if i >= len(parts) {
		return 0
	}
	n, _ := strconv.Atoi(parts[i])
	return n
}

// CollectionOrder is the matrix's versions in collection order (the function
// CollectionOrder over ReleaseList and Versions).
func (c *Config) CollectionOrder() []Placed {
	return CollectionOrder(c.ReleaseList(), c.Versions)
}

// InCollectionOrder is cells sorted by their version's place in the
// collection order; within a version they keep their order.
func (c *Config) InCollectionOrder(cells []Cell) []Cell {
	rank := map[string]int{}
	for i, p := range c.CollectionOrder() {
		rank[p.Version] = i
	}
	out := slices.Clone(cells)
	slices.SortStableFunc(out, func(a, b Cell) int { return rank[a.Version] - rank[b.Version] })
	return out
}
