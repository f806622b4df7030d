package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// ServerTime prints, per hardware class and mode, where the server's time
// went in its measured tests (results.server_* and client_busy, collector
// 0.3.0 on): the compiler-visible share (server user CPU seconds over user +
// kernel, summed over the tests) and the median busy fractions of the server
// and the client.
func ServerTime(w io.Writer, d *store.Data) {
	type key struct{ class, mode string }
	type sums struct {
		user, sys  float64
		busy, cbsy []float64
	}
	class := ClassOfRun(d)
	per := map[key]*sums{}
	var keys []key
	for _, r := range d.Results {
		if r.Status != "ok" || r.ServerUserS == nil || r.ServerSysS == nil || r.ServerBusy == nil || r.ClientBusy == nil {
			continue
		}
		k := key{class[r.RunID], r.Mode}
		if per[k] == nil {
			per[k] = &sums{}
			keys = append(keys, k)
		}
		s := per[k]
		s.user += *r.ServerUserS
		s.sys += *r.ServerSysS
		s.busy = append(s.busy, *r.ServerBusy)
		s.cbsy = append(s.cbsy, *r.ClientBusy)
	}
	if len(keys) == 0 {
		fmt.Fprintln(w, "server time: no result has it yet (collector 0.3.0 on)")
		return
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.class != b.class {
			return cmp.Compare(a.class, b.class)
		}
		return cmp.Compare(a.mode, b.mode)
	})
	for _, k := range keys {
		s := per[k]
		share := 0.0
		if s.user+s.sys > 0 {
			share = s.user / (s.user + s.sys)
		}
		fmt.Fprintf(w, "server time %s, %s: %.1f%% of the server's CPU time in its own code (compiler-visible), server busy median %.1f%%, client %.1f%%, over %d tests\n",
			k.class, k.mode, 100*share, 100*Median(s.busy), 100*Median(s.cbsy), len(s.busy))
	}
}
