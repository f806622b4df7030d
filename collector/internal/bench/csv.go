// Package bench runs redis-benchmark against a fresh redis-server and parses
// its CSV output.
package bench

import (
	"encoding/csv"
	"fmt"
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
	// Error says why the row is not a measurement: the client printed rps
	// "inf" or "nan" (it divides by the test's duration in whole
	// milliseconds, 0 for a test that took less). RPS is then 0.
	Error string `json:",omitempty"`
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
		if rec[0] == "" {
			continue
		}
		if divisionByZero(rec[1]) {
			rows = append(rows, Row{Test: rec[0], Error: fmt.Sprintf("client printed rps %q: the test was too short to measure", rec[1])})
			continue
		}
		rps, err := strconv.ParseFloat(rec[1], 64)
		if err != nil {
			continue // header ("test","rps",...) or garbage
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

// divisionByZero reports what printf writes for one: inf, -nan and the like.
func divisionByZero(s string) bool {
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case "inf", "infinity", "nan":
		return true
	}
	return false
}

// number parses a finite number ("inf" and "nan" are not measurements).
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
