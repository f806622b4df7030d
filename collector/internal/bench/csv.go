// Package bench runs redis-benchmark against a fresh redis-server and parses
// its CSV output.
package bench

import (
	"encoding/csv"
	"strconv"
	"strings"
)

// Row is one test line of `redis-benchmark --csv`. Clients before 6.2 print only
// the test and requests/second; newer ones add latency columns (milliseconds).
// Latency fields are nil when the client did not print them.
type Row struct {
	Test string
	RPS  float64
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
		rps, err := strconv.ParseFloat(rec[1], 64)
		if err != nil || rec[0] == "" {
			continue // header ("test","rps",...) or garbage
		}
		r := Row{Test: rec[0], RPS: rps}
		lat := []**float64{&r.Avg, &r.Min, &r.P50, &r.P95, &r.P99, &r.Max}
		for i, p := range lat {
			if 2+i < len(rec) {
				if v, err := strconv.ParseFloat(rec[2+i], 64); err == nil {
					*p = &v
				}
			}
		}
		rows = append(rows, r)
	}
	return rows
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
