// Package shards divides the cells a count still needs into jobs for hosted
// runners (GitHub Actions), each job's time bounded, from the times the
// dataset itself measured.
package shards

import (
	"slices"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// CellTimes are a version's measured times, in seconds: the median over its
// cells of the counting runs of one build summed (a cell's 2 modes x 2
// repeats), the median build of redis-server, and the median build of the
// bundled dependencies (built once per version and compiler).
type CellTimes struct {
	Runs, Build, Deps float64
	// From is the version whose measurements these are: the version itself,
	// the newest measured version of its line (x.y), or "all" for the
	// medians over every version.
	From string
}

// Times are the measured times per version, with a fallback for versions
// the data has not measured.
type Times struct {
	byVersion map[string]CellTimes
	all       CellTimes
}

// Measure reads the times of d's counting runs (the current protocol's, status
// ok) and ok builds.
func Measure(d *store.Data) Times {
	runs := map[string]float64{} // cell|build -> seconds summed
	version := map[string]string{}
	for _, r := range d.CountRuns {
		if r.Status != "ok" || r.DurationSeconds <= 0 {
			continue
		}
		k := r.CellID + "|" + r.BuildID
		runs[k] += r.DurationSeconds
		version[k] = r.Version
	}
	perRuns, perBuild, perDeps := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
	var allRuns, allBuild, allDeps []float64
	for k, s := range runs {
		perRuns[version[k]] = append(perRuns[version[k]], s)
		allRuns = append(allRuns, s)
	}
	for _, b := range d.Builds {
		if b.Status != "ok" {
			continue
		}
		if b.BuildSeconds > 0 {
			perBuild[b.Version] = append(perBuild[b.Version], b.BuildSeconds)
			allBuild = append(allBuild, b.BuildSeconds)
		}
		if b.DepsSeconds > 0 {
			perDeps[b.Version] = append(perDeps[b.Version], b.DepsSeconds)
			allDeps = append(allDeps, b.DepsSeconds)
		}
	}
	t := Times{byVersion: map[string]CellTimes{}, all: CellTimes{median(allRuns), median(allBuild), median(allDeps), "all"}}
	for v, r := range perRuns {
		ct := CellTimes{Runs: median(r), Build: median(perBuild[v]), Deps: median(perDeps[v]), From: v}
		if ct.Build == 0 {
			ct.Build = t.all.Build
		}
		if ct.Deps == 0 {
			ct.Deps = t.all.Deps
		}
		t.byVersion[v] = ct
	}
	return t
}

// Of is version's times: its own, else the newest measured patch release of
// its line, else the medians over every version.
func (t Times) Of(version string) CellTimes {
	if ct, ok := t.byVersion[version]; ok {
		return ct
	}
	line := lineOf(version)
	best := ""
	for v := range t.byVersion {
		if lineOf(v) == line && (best == "" || patchOf(v) > patchOf(best)) {
			best = v
		}
	}
	if best != "" {
		return t.byVersion[best]
	}
	return t.all
}

// lineOf is a version's major.minor ("7.4" of "7.4.1").
func lineOf(v string) string {
	if i := strings.LastIndexByte(v, '.'); i > 0 {
		return v[:i]
	}
	return v
}

// patchOf is a version's patch number, or -1.
func patchOf(v string) int {
	n := 0
	p := v[strings.LastIndexByte(v, '.')+1:]
	if p == "" {
		return -1
	}
	for _, c := range p {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
