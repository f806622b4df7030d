package runner

import "testing"

func TestQuietGate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		windows []float64 // other processes' CPU per window, % of one CPU
		startAt int       // the window after which the run starts (-1: never)
	}{
		{"quiet from the start: the first window", []float64{3, 90}, 0},
		{"at the limit is busy", []float64{20, 19.9, 0}, 2},
		{"after a busy window, two quiet ones in a row", []float64{95, 5, 0, 0}, 2},
		{"a lull between a busy tool's steps is not enough", []float64{80, 4, 70, 2, 60, 1, 1}, 6},
		{"busy throughout", []float64{50, 60, 45}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := quietGate{Limit: 20}
			got := -1
			for i, busy := range tc.windows {
				if g.Quiet(busy) {
					got = i
					break
				}
			}
			if got != tc.startAt {
				t.Errorf("windows %v: started after window %d, want %d", tc.windows, got, tc.startAt)
			}
		})
	}
}
