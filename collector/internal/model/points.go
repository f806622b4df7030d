// Package model calibrates the counted instrument against measured speed: a
// least-squares cost model of each build's effect on requests/second (the
// precision rounds' effect against the baseline, with its bootstrap
// interval) on its counted effects under Valgrind (instructions, simulated
// cache misses, branch mispredictions per request), validated by leaving
// one version out.
package model

import (
	"math"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/report"
	"github.com/redis-compiler-benchmarks/collector/internal/stats"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// Predictor is one explanatory figure of a build's effect.
type Predictor string

// The counted predictors are ln(geometric mean of the build's figure per
// request / the baseline's), over the tests measured; Clang is an indicator
// (1 for a clang build, 0 for gcc), not a count: what the counts leave of
// the compiler's effect.
const (
	Instructions Predictor = "instructions"
	EstCycles    Predictor = "est. cycles"
	L1Misses     Predictor = "L1 misses"
	LLMisses     Predictor = "LL misses"
	BranchMisses Predictor = "branch mispredictions"
	DataAccesses Predictor = "data accesses"
	Branches     Predictor = "conditional branches"
	Clang        Predictor = "clang"
)

// Counted are the counted predictors, each with its figure in a count.
var Counted = []struct {
	Predictor Predictor
	Get       func(store.Count) *float64
}{
	{Instructions, func(c store.Count) *float64 { return c.InstructionsPerRequest }},
	{EstCycles, func(c store.Count) *float64 { return c.EstCyclesPerRequest }},
	{L1Misses, func(c store.Count) *float64 { return c.L1MissesPerRequest }},
	{LLMisses, func(c store.Count) *float64 { return c.LLMissesPerRequest }},
	{BranchMisses, func(c store.Count) *float64 { return c.BranchMissesPerRequest }},
	{DataAccesses, func(c store.Count) *float64 { return perRequest(c, c.Dr, c.Dw) }},
	{Branches, func(c store.Count) *float64 { return perRequest(c, c.Bc) }},
}

// perRequest is the sum of events over c's requests (nil without them all).
func perRequest(c store.Count, events ...*int64) *float64 {
	if c.Requests == nil || *c.Requests <= 0 {
		return nil
	}
	sum := 0.0
	for _, e := range events {
		if e == nil {
			return nil
		}
		sum += float64(*e)
	}
	v := sum / float64(*c.Requests)
	return &v
}

// Point is one build of one version: its measured effect on requests/second
// against the baseline and its counted effects against the baseline's.
type Point struct {
	// Version is the Redis version; Config the build as a cell id without
	// its version ("clang|-O2"); Compiler its compiler.
	Version, Config, Compiler string
	// Measured is the rounds' effect (a ratio, 1.05: 5% faster) with its
	// bootstrap interval, as collector stats -precision prints it.
	Measured stats.Summary
	// X is each predictor's value: a counted log-ratio (−0.01: about 1%
	// fewer per request), or the Clang indicator.
	X map[Predictor]float64
	// Tests is how many tests the instructions log-ratio is over.
	Tests int
}

// Name is the build as the site names it, "clang -O2".
func (p Point) Name() string { return strings.ReplaceAll(p.Config, "|", " ") }

// Points pairs each measured effect in effects (one (class, version,
// precision mode) each, as report.EffectsOf gives them) that has an interval
// with the counts of the same build in countMode: per predictor, the
// log-ratio of the geometric means over the tests measured in that mode on
// that class where both the build and the baseline have a positive count. A
// build's counts are those of the builds its measured runs used (all of its
// cell's when none of those was counted). A build without an instructions
// count on a common test is left out.
func Points(d *store.Data, effects []report.Effects, countMode string) []Point {
	idx := indexCounts(d, countMode)
	var out []Point
	for _, e := range effects {
		if e.Baseline.Config == "" {
			continue
		}
		tests, builds := measured(d, e)
		base := e.Version + "|" + e.Baseline.Config
		for _, x := range e.Effects {
			if math.IsNaN(x.Summary.Lo) || math.IsNaN(x.Summary.Center) {
				continue
			}
			cell := e.Version + "|" + x.Config
			p := Point{Version: e.Version, Config: x.Config, Compiler: strings.SplitN(x.Config, "|", 2)[0], Measured: x.Summary, X: map[Predictor]float64{}}
			for _, c := range Counted {
				lr, n := idx.logRatio(cell, builds[cell], base, builds[base], tests, c.Get)
				p.X[c.Predictor] = lr
				if c.Predictor == Instructions {
					p.Tests = n
				}
			}
			if p.Tests == 0 {
				continue
			}
			if p.Compiler == "clang" {
				p.X[Clang] = 1
			}
			out = append(out, p)
		}
	}
	return out
}

// measured are the tests e's mode has a figure of on e's class and version,
// and the builds each of its cells was measured with.
func measured(d *store.Data, e report.Effects) ([]string, map[string]map[string]bool) {
	class := report.ClassOfRun(d)
	builds := map[string]map[string]bool{}
	runs := map[string]bool{}
	for _, r := range d.Runs {
		if r.Version == e.Version && r.Mode == e.Mode && class[r.RunID] == e.Class {
			runs[r.RunID] = true
			if builds[r.CellID] == nil {
				builds[r.CellID] = map[string]bool{}
			}
			builds[r.CellID][r.BuildID] = true
		}
	}
	seen := map[string]bool{}
	var tests []string
	for _, r := range d.Results {
		if runs[r.RunID] && r.Status == "ok" && r.RPS != nil && !seen[r.Test] {
			seen[r.Test] = true
			tests = append(tests, r.Test)
		}
	}
	return tests, builds
}

// countIndex are the ok counts of one mode by cell and test.
type countIndex map[[2]string][]store.Count

func indexCounts(d *store.Data, mode string) countIndex {
	idx := countIndex{}
	for _, c := range d.Counts {
		if c.Mode == mode && c.Status == "ok" {
			k := [2]string{c.CellID, c.Test}
			idx[k] = append(idx[k], c)
		}
	}
	return idx
}

// figure is the mean of get over cell's counts of test from builds (from
// every build of the cell when none is from those), NaN without one.
func (idx countIndex) figure(cell string, builds map[string]bool, test string, get func(store.Count) *float64) float64 {
	var of, all []float64
	for _, c := range idx[[2]string{cell, test}] {
		if v := get(c); v != nil {
			all = append(all, *v)
			if builds[c.BuildID] {
				of = append(of, *v)
			}
		}
	}
	if len(of) == 0 {
		of = all
	}
	if len(of) == 0 {
		return math.NaN()
	}
	return stats.Mean(of)
}

// logRatio is the mean over tests of ln(cell's figure / base's), over the
// tests where both are positive, and how many those are (NaN, 0 for none).
func (idx countIndex) logRatio(cell string, cellBuilds map[string]bool, base string, baseBuilds map[string]bool, tests []string, get func(store.Count) *float64) (float64, int) {
	var logs []float64
	for _, t := range tests {
		a, b := idx.figure(cell, cellBuilds, t, get), idx.figure(base, baseBuilds, t, get)
		if a > 0 && b > 0 {
			logs = append(logs, math.Log(a/b))
		}
	}
	if len(logs) == 0 {
		return math.NaN(), 0
	}
	return stats.Mean(logs), len(logs)
}
