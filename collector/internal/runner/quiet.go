package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/machine"
)

// waitQuiet waits, up to QuietWait, until other processes use less than
// QuietPercent of a CPU (see quietGate). It says how long it waited.
func (c *collector) waitQuiet(ctx context.Context) string {
	if c.QuietWait <= 0 {
		return ""
	}
	start := time.Now()
	gate := quietGate{Limit: c.QuietPercent}
	for {
		before, t := machine.BusyTicks(), time.Now()
		select {
		case <-ctx.Done():
			return ""
		case <-time.After(quietWindow):
		}
		busy := machine.BusyPercent(machine.BusyTicks()-before, time.Since(t))
		waited := time.Since(start)
		if gate.Quiet(busy) {
			if waited > quietWindow+time.Second {
				return fmt.Sprintf("waited %s for a quiet machine", waited.Round(time.Second))
			}
			return ""
		}
		if waited >= c.QuietWait {
			return fmt.Sprintf("machine still busy (%.0f%% of a CPU) after %s, running anyway", busy, waited.Round(time.Second))
		}
	}
}

// quietWindow is how long waitQuiet measures other processes' CPU at a time.
const quietWindow = 5 * time.Second

// quietGate decides, one window of other processes' CPU use at a time, when the
// machine is quiet enough to start a run: one window below Limit when it was
// quiet from the start, two in a row once a window has been busy. Builds, test
// suites and browsers pause for a few seconds between their steps; a single quiet
// window then let a run start into the next step (a run measured 19% busy so).
type quietGate struct {
	Limit    float64
	seenBusy bool
	quiet    int
}

// Quiet records one window's busy percentage and says whether to start now.
func (g *quietGate) Quiet(busy float64) bool {
	if busy >= g.Limit {
		g.seenBusy, g.quiet = true, 0
		return false
	}
	g.quiet++
	if g.seenBusy {
		return g.quiet >= 2
	}
	return true
}
