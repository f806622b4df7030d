package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/bench"
	"github.com/redis-compiler-benchmarks/collector/internal/machine"
)

func TestRunStatusIsOkPartialOrServerFailed(t *testing.T) {
	ok := bench.Result{Test: "SET", Status: "ok"}
	unsupported := bench.Result{Test: "XADD", Status: "unsupported"}
	for _, c := range []struct {
		out  bench.Outcome
		want string
	}{
		{bench.Outcome{Results: []bench.Result{ok, ok}}, "ok"},
		{bench.Outcome{Results: []bench.Result{ok, unsupported}}, "partial"},
		{bench.Outcome{Results: []bench.Result{ok}, ServerFailed: "exited with status 1"}, "server_failed"},
	} {
		if got := runStatus(c.out); got != c.want {
			t.Errorf("runStatus(%+v) = %q, want %q", c.out, got, c.want)
		}
	}
}

// A run's row and its results name the same run, cell, mode and repeat; a
// test without a measurement has no rps and keeps its error.
func TestRunRowAndResultRowsDescribeOneRun(t *testing.T) {
	cfg := testConfig(t)
	task := Task{Cell: cfg.Cells()[0], Mode: cfg.Bench.Modes[1], Repeat: 2}
	start := time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	m := measurement{
		out: bench.Outcome{Raw: "raw", Results: []bench.Result{
			{Test: "SET", Index: 2, Status: "ok", Row: &bench.Row{Test: "SET", RPS: 1000},
				CPU: &bench.TestCPU{Server: bench.Use{User: 0.2, Sys: 0.6, Busy: 0.85}, Client: bench.Use{User: 0.3, Sys: 0.5, Busy: 0.9}}},
			{Test: "XADD", Index: 20, Status: "unsupported", Error: "ERR unknown command"},
		}},
		start: start, end: start.Add(90 * time.Second), load0: 0.5, load1: 1.5,
		other: "others:3", steal: 0.2, memBefore: 4e10, memAfter: 5e10,
	}
	c := &collector{clientVer: "redis-benchmark 7.4.1", machine: machine.Info{ID: "m1"}}
	spec := bench.Spec{ServerCPU: 0, ClientCPU: 1}
	run := c.runRow(task, "b1", spec, m)
	if want := task.Cell.ID() + "|pipe|2|20261122T020000.000"; run.RunID != want {
		t.Errorf("RunID = %q, want %q", run.RunID, want)
	}
	if run.Status != "partial" || run.DurationSeconds != 90 || run.Load1Before != 0.5 || run.Load1After != 1.5 ||
		run.MachineID != "m1" || *run.StealPct != 0.2 || *run.MemWriteAfter != 5e10 || run.ClientCPU != 1 ||
		run.ClientArgs != "-n 100 --csv -P 10" || run.RawOutput != "raw" {
		t.Errorf("run row = %+v", run)
	}
	rows := resultRows(run, m.out.Results)
	if len(rows) != 2 {
		t.Fatalf("%d result rows", len(rows))
	}
	for _, r := range rows {
		if r.RunID != run.RunID || r.BuildID != "b1" || r.CellID != task.Cell.ID() || r.Mode != "pipe" || r.Repeat != 2 {
			t.Errorf("result row does not name its run: %+v", r)
		}
	}
	if *rows[0].RPS != 1000 || rows[0].Error != nil || rows[1].RPS != nil || *rows[1].Error != "ERR unknown command" {
		t.Errorf("result rows = %+v, %+v", rows[0], rows[1])
	}
	if r := rows[0]; *r.ServerUserS != 0.2 || *r.ServerSysS != 0.6 || *r.ServerBusy != 0.85 ||
		*r.ClientUserS != 0.3 || *r.ClientSysS != 0.5 || *r.ClientBusy != 0.9 || rows[1].ServerBusy != nil {
		t.Errorf("CPU columns = %+v, %+v", rows[0], rows[1])
	}
	line := runLine(run, m, time.Second)
	for _, part := range []string{"partial, 1/2 tests ok, bench 90.0s", "other CPU: others:3", "host steal 0.2%", "memory write 40.0/50.0 GB/s", "overhead 1.000s"} {
		if !strings.Contains(line, part) {
			t.Errorf("log line %q lacks %q", line, part)
		}
	}
}

func TestWithNoteSkipsEmptyNotes(t *testing.T) {
	for _, c := range [][3]string{{"", "", ""}, {"build ok", "", "build ok"}, {"", "waited", "waited"}, {"build ok", "waited", "build ok; waited"}} {
		if got := withNote(c[0], c[1]); got != c[2] {
			t.Errorf("withNote(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
