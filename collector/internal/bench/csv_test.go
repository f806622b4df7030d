package bench

import (
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files from the current output")

// The fixtures are real client output: the 7.4.1 client (latency columns)
// against a 2.6.17 server, which stops at ZPOPMIN and, run again with -t,
// at XADD; the 2.6.17 client (no header, no latency columns, its own test
// names, e.g. "LRANGE_500 (first 450 elements)"); the 7.0.15 client with
// 2000 requests pipelined by 1000, too fast for it: PING_MBULK rps "inf". The
// last one mixes a 7.4.1 client's human output (\r progress) and broken lines.
func TestParseCSVGolden(t *testing.T) {
	for _, name := range []string{
		"client-7.4.1-data-vs-2.6.17",
		"client-7.4.1-data-lrange-mset-xadd-vs-2.6.17",
		"client-7.4.1-pipe-vs-2.6.17",
		"client-2.6.17-data",
		"client-2.6.17-pipe",
		"client-7.0.15-pipe-n2000-inf",
		"progress-and-garbage",
	} {
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", "fixture-"+name+".stdout"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(ParseCSV(string(in)), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", "golden-"+name+".json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if string(got) != string(want) {
				t.Errorf("ParseCSV(%s) differs from %s:\n%s", name, golden, got)
			}
		})
	}
}

func TestParseCSVColumns(t *testing.T) {
	rows := ParseCSV(readFixture(t, "fixture-client-7.4.1-data-vs-2.6.17.stdout"))
	if len(rows) != 13 || rows[0].Test != "PING_INLINE" || rows[12].Test != "ZADD" {
		t.Fatalf("got %d rows %+v, want PING_INLINE ... ZADD (13, the client stops at ZPOPMIN)", len(rows), rows)
	}
	r := rows[0]
	for i, p := range []*float64{r.Avg, r.Min, r.P50, r.P95, r.P99, r.Max} {
		if p == nil {
			t.Fatalf("latency column %d of %s is nil", i, r.Test)
		}
	}
	// "PING_INLINE","37037.04","0.905","0.240","0.855","1.463","2.135","2.207"
	if r.RPS != 37037.04 || *r.Avg != 0.905 || *r.Min != 0.240 || *r.P50 != 0.855 || *r.P95 != 1.463 || *r.P99 != 2.135 || *r.Max != 2.207 {
		t.Errorf("columns in the wrong fields: %+v", r)
	}
	old := ParseCSV(readFixture(t, "fixture-client-2.6.17-data.stdout"))
	if len(old) != 15 {
		t.Fatalf("2.6.17 client: %d rows, want 15", len(old))
	}
	for _, r := range old {
		if r.RPS <= 0 || r.Avg != nil || r.Min != nil || r.P50 != nil || r.P95 != nil || r.P99 != nil || r.Max != nil {
			t.Errorf("2.6.17 client row %+v: want rps and no latency", r)
		}
	}
}

func TestParseCSVMarksNonFiniteRPS(t *testing.T) {
	// Clients divide by the test's duration in whole milliseconds: a test
	// that took less (e.g. 2000 requests pipelined by 1000) prints "inf".
	out := "\"PING_INLINE\",\"inf\",\"0.1\"\n\"SET\",\"-nan\"\n\"GET\",\"1000.00\",\"nan\",\"0.1\"\n"
	rows := ParseCSV(out)
	if len(rows) != 3 {
		t.Fatalf("rows = %+v, want 3", rows)
	}
	for i, want := range []string{`client printed rps "inf": the test was too short to measure`, `client printed rps "-nan": the test was too short to measure`, ""} {
		r := rows[i]
		if r.Error != want || (want != "" && (r.RPS != 0 || r.Avg != nil || r.Min != nil)) {
			t.Errorf("row %+v, want error %q and no numbers", r, want)
		}
	}
	if rows[2].RPS != 1000 || rows[2].Avg != nil || rows[2].Min == nil || *rows[2].Min != 0.1 {
		t.Errorf("GET = %+v, want rps 1000, avg nil (nan), min 0.1", rows[2])
	}
	for _, r := range ParseCSV(readFixture(t, "fixture-progress-and-garbage.stdout")) {
		if math.IsNaN(r.RPS) || math.IsInf(r.RPS, 0) {
			t.Errorf("row %+v has a non-finite rps", r)
		}
	}
}

func TestServerError(t *testing.T) {
	tests := map[string]string{
		readFixture(t, "fixture-client-7.4.1-data-vs-2.6.17.stderr"):                  "ERR unknown command 'ZPOPMIN'",
		readFixture(t, "fixture-client-7.4.1-data-lrange-mset-xadd-vs-2.6.17.stderr"): "ERR unknown command 'XADD'",
		"Error from server: ERR unknown command 'ZPOPMIN'":                            "ERR unknown command 'ZPOPMIN'",
		"warning\r\nError from server: WRONGTYPE Operation against a key\r\n":         "WRONGTYPE Operation against a key",
		"Could not connect to Redis at 127.0.0.1:1: Connection refused\n":             "",
		"": "",
	}
	for stderr, want := range tests {
		if got := ServerError(stderr); got != want {
			t.Errorf("ServerError(%q) = %q, want %q", stderr, got, want)
		}
	}
}

func TestIsUnsupported(t *testing.T) {
	tests := map[string]bool{
		"ERR unknown command 'ZPOPMIN'": true,
		"ERR unknown command `XADD`, with args beginning with: `key:000000000001`, `*`, ": true,
		"ERR wrong number of arguments for 'hset' command":                                true,
		"ERR Unknown Command 'X'":                   true,
		"OOM command not allowed when used memory":  false,
		"WRONGTYPE Operation against a key holding": false,
		"": false,
	}
	for msg, want := range tests {
		if got := IsUnsupported(msg); got != want {
			t.Errorf("IsUnsupported(%q) = %v, want %v", msg, got, want)
		}
	}
}

func TestTestIndex(t *testing.T) {
	if len(DefaultTests) != 21 {
		t.Fatalf("%d default tests, want the 21 of redis-benchmark 6.2 ... 7.4", len(DefaultTests))
	}
	// The real client order, from the fixtures: the 7.4.1 client's first run
	// (up to ZADD), then ZPOPMIN, then the -t run's order.
	var order []string
	for _, r := range ParseCSV(readFixture(t, "fixture-client-7.4.1-data-vs-2.6.17.stdout")) {
		order = append(order, r.Test)
	}
	order = append(order, "ZPOPMIN")
	for _, r := range ParseCSV(readFixture(t, "fixture-client-7.4.1-data-lrange-mset-xadd-vs-2.6.17.stdout")) {
		order = append(order, r.Test)
	}
	order = append(order, "XADD")
	for i, name := range order {
		if got := TestIndex(name); got != i {
			t.Errorf("TestIndex(%q) = %d, want %d (the client's order)", name, got, i)
		}
	}
	for _, name := range []string{"PING_BULK", "LRANGE_500 (first 450 elements)", "", "set"} {
		if got := TestIndex(name); got != 100 {
			t.Errorf("TestIndex(%q) = %d, want 100 (not a default test)", name, got)
		}
	}
}

func TestSelectors(t *testing.T) {
	from := func(name string) []Test {
		return DefaultTests[TestIndex(name):]
	}
	tests := []struct {
		in   []Test
		want string
	}{
		{DefaultTests, "ping_inline,ping_mbulk,set,get,incr,lpush,rpush,lpop,rpop,sadd,hset,spop,zadd,zpopmin," +
			"lrange_100,lrange_300,lrange_500,lrange_600,mset,xadd"},
		// What the collector runs after the 7.4.1 client stopped at ZPOPMIN (-t lrange_100,...,xadd).
		{from("LPUSH (needed to benchmark LRANGE)"), "lrange_100,lrange_300,lrange_500,lrange_600,mset,xadd"},
		{from("XADD"), "xadd"},
		{[]Test{{"LPUSH (needed to benchmark LRANGE)", ""}}, ""},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := selectors(tt.in); got != tt.want {
			t.Errorf("selectors(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
