// Package bench runs redis-benchmark against a fresh redis-server and parses
// its CSV output.
package bench

import (
	"encoding/csv"
	"math"
	"strconv"
	"strings"
)

// Row is one test line of `redis-benchmark --csv`. Clients before 6.2 print only
// the test and requests/second; newer ones add latency columns (milliseconds).
// Latency fields are nil when the client did not print them.
type Row struct {
	Test                         string
	RPS                          float64
	Avg, Min, P50, P95, P99, Max *float64
}

// ParseCSV reads every test row from a client's stdout. Progress output, the
// header line and anything else that is not a test row are skipped; rows are
// returned in output order.
func ParseCSV(out string) []Row {
	var rows []Row
	for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, `"`) {
			continue
		}
		rec, err := csv.NewReader(strings.NewReader(line)).Read()
		if err != nil || len(rec) < 2 {
			continue
		}
		rps, ok := number(rec[1])
		if !ok || rec[0] == "" {
			continue // header ("test","rps",...), garbage, or "inf" (old clients when a test took < 1 ms)
		}
		r := Row{Test: rec[0], RPS: rps}
		lat := []**float64{&r.Avg, &r.Min, &r.P50, &r.P95, &r.P99, &r.Max}
		for i, p := range lat {
			if 2+i < len(rec) {
				if v, ok := number(rec[2+i]); ok {
					*p = &v
				}
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// number parses a finite number: clients print "inf" or "nan" when they
// divide by a zero duration, and those are not measurements.
func number(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && !math.IsInf(v, 0) && !math.IsNaN(v)
}

// ServerError extracts the server's error reply from the client's stderr,
// e.g. "ERR unknown command 'ZPOPMIN'"; "" if there is none.
func ServerError(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if _, msg, ok := strings.Cut(line, "Error from server: "); ok {
			return strings.TrimSpace(msg)
		}
	}
	return ""
}

// IsUnsupported reports whether a server error means the command does not exist
// in that server version (rather than a real failure).
func IsUnsupported(serverErr string) bool {
	e := strings.ToLower(serverErr)
	return strings.Contains(e, "unknown command") || strings.Contains(e, "wrong number of arguments")
}
