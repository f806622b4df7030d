package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func rps(v float64) *float64 { return &v }

func TestMedianOfOddEvenAndEmpty(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {nil, 0}} {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestBestKeepsTheHighestOkRepeat(t *testing.T) {
	d := &store.Data{Results: []store.Result{
		{CellID: "c", Mode: "data", Test: "SET", Status: "ok", RPS: rps(90)},
		{CellID: "c", Mode: "data", Test: "SET", Status: "ok", RPS: rps(100)},
		{CellID: "c", Mode: "data", Test: "XADD", Status: "unsupported"},
	}}
	b := Best(d)
	if got := b[[3]string{"c", "data", "SET"}]; got != 100 {
		t.Errorf("best SET = %v, want 100", got)
	}
	if _, ok := b[[3]string{"c", "data", "XADD"}]; ok {
		t.Error("an unsupported test has no best figure")
	}
}

// Hand-computed: best 100 vs 110 -> |100-110| / 105 = 9.52%.
func TestNoisePrintsTheSpreadOfBestFigures(t *testing.T) {
	a := &store.Data{Results: []store.Result{{CellID: "c", Mode: "data", Test: "SET", Status: "ok", RPS: rps(100)}}}
	b := &store.Data{Results: []store.Result{
		{CellID: "c", Mode: "data", Test: "SET", Status: "ok", RPS: rps(110)},
		{CellID: "c", Mode: "data", Test: "SET", Status: "ok", RPS: rps(95)},
	}}
	var out bytes.Buffer
	Noise(&out, a, b)
	if !strings.Contains(out.String(), "mode data: median run-to-run spread of best-of-repeats 9.52% over 1") {
		t.Errorf("unexpected noise report:\n%s", out.String())
	}
}

// Hand-computed: 1 + 2 + 10 + 86.9 + 0.1 = 100 s of wall time, 0.1 s overhead = 0.1%.
func TestTimesSplitsACellAndReportsOverheadShare(t *testing.T) {
	d := &store.Data{
		Builds: []store.Build{{CellID: "c", SourceSeconds: 1, DepsSeconds: 2, BuildSeconds: 10}},
		Runs:   []store.Run{{CellID: "c", DurationSeconds: 86.9, OverheadSeconds: 0.1}},
	}
	var out bytes.Buffer
	Times(&out, d)
	if !strings.Contains(out.String(), "collector overhead median 0.100%") {
		t.Errorf("unexpected times report:\n%s", out.String())
	}
}
