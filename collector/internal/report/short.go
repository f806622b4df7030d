package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// ShortTests prints, per precision mode (minTime: mode -> its min_time),
// how many measured tests lasted less than the mode's min_time (requests /
// requests per second, as the client timed them), how many less than two
// thirds of it, and the shortest: a test calibrated on one configuration
// runs shorter on a faster one, and the method's bound on the clock's share
// (one millisecond of min_time) holds only for those that lasted it. It also
// prints how many tests were measured again for lasting less (a count above
// their class's calibration: run -precision runs such a test once more with a
// longer count) and how many of those still fell short.
func ShortTests(w io.Writer, d *store.Data, minTime map[string]time.Duration) {
	type tally struct {
		tests, short, veryShort int
		again, againShort       int
		shortest                float64
		at                      string
	}
	classOf := ClassOfRun(d)
	calibrated := map[string]int64{}
	for _, c := range d.Calibrations {
		calibrated[store.CalibrationKey(c.HardwareClass, c.Version, c.Mode, c.Test)] = c.Requests
	}
	by := map[string]*tally{}
	for _, r := range d.Results {
		goal, ok := minTime[r.Mode]
		if !ok || r.Requests == nil || r.RPS == nil || *r.RPS <= 0 {
			continue
		}
		t := by[r.Mode]
		if t == nil {
			t = &tally{shortest: -1}
			by[r.Mode] = t
		}
		t.tests++
		secs := float64(*r.Requests) / *r.RPS
		if secs < goal.Seconds() {
			t.short++
		}
		if secs < goal.Seconds()*2/3 {
			t.veryShort++
		}
		if n, ok := calibrated[store.CalibrationKey(classOf[r.RunID], r.Version, r.Mode, r.Test)]; ok && *r.Requests > n {
			t.again++
			if secs < goal.Seconds() {
				t.againShort++
			}
		}
		if t.shortest < 0 || secs < t.shortest {
			t.shortest, t.at = secs, fmt.Sprintf("%s %s", r.CellID, r.Test)
		}
	}
	for _, mode := range slices.Sorted(maps.Keys(by)) {
		t, goal := by[mode], minTime[mode]
		fmt.Fprintf(w, "precision mode %s: %d of %d tests lasted less than min_time %s (%d less than %s); shortest %.2fs (%s); %d measured again with a longer count, %d of them still short\n",
			mode, t.short, t.tests, goal, t.veryShort, time.Duration(float64(goal)*2/3), t.shortest, t.at, t.again, t.againShort)
	}
}
