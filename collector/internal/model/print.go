package model

import (
	"fmt"
	"io"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/report"
	"github.com/redis-compiler-benchmarks/collector/internal/stats"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// Print writes, per hardware class and precision mode with rounds, the
// calibration of the counts of the reference mode it lengthens against its
// effects on baseline (a cell id without its version, "gcc|-O2"), over every
// version with two rounds or more, as Markdown.
func Print(w io.Writer, d *store.Data, precision, reference []string, baseline string, o stats.Options) {
	type key struct{ class, mode string }
	byKey := map[key][]report.Effects{}
	var keys []key
	for _, e := range report.EffectsOf(d, func(_, _, m string) bool { return contains(precision, m) }, baseline, o) {
		k := key{e.Class, e.Mode}
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], e)
	}
	if len(keys) == 0 {
		fmt.Fprintf(w, "model: no rounds in the precision modes (%s)\n", strings.Join(precision, ", "))
		return
	}
	for i, k := range keys {
		if i > 0 {
			fmt.Fprintln(w)
		}
		r := Calibrate(d, byKey[k], config.ReferenceOf(k.mode, reference))
		var rounds []string
		for _, e := range byKey[k] {
			rounds = append(rounds, fmt.Sprintf("%s %d", e.Version, e.Rounds))
		}
		fmt.Fprintf(w, "model, %s on %s: rounds per version %s\n\n%s\n", k.mode, k.class, strings.Join(rounds, ", "), Markdown(r))
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
