package bench

import "strings"

// Test is one of redis-benchmark's default tests: its CSV name and the -t
// selector that runs it. The order is the client's own.
type Test struct {
	Name     string
	Selector string // "" for the list setup run by any lrange_* selector
}

// DefaultTests are the default tests of redis-benchmark 7.2 and 7.4, in order;
// 6.2 and 7.0 clients run the same ones except XADD. Rows a client prints that
// are not listed here are still recorded; listed tests a client does not run
// get no row.
var DefaultTests = []Test{
	{"PING_INLINE", "ping_inline"},
	{"PING_MBULK", "ping_mbulk"},
	{"SET", "set"},
	{"GET", "get"},
	{"INCR", "incr"},
	{"LPUSH", "lpush"},
	{"RPUSH", "rpush"},
	{"LPOP", "lpop"},
	{"RPOP", "rpop"},
	{"SADD", "sadd"},
	{"HSET", "hset"},
	{"SPOP", "spop"},
	{"ZADD", "zadd"},
	{"ZPOPMIN", "zpopmin"},
	{"LPUSH (needed to benchmark LRANGE)", ""},
	{"LRANGE_100 (first 100 elements)", "lrange_100"},
	{"LRANGE_300 (first 300 elements)", "lrange_300"},
	{"LRANGE_500 (first 500 elements)", "lrange_500"},
	{"LRANGE_600 (first 600 elements)", "lrange_600"},
	{"MSET (10 keys)", "mset"},
	{"XADD", "xadd"},
}

// TestIndex is the position of a test in DefaultTests, or 100+ for unknown ones.
func TestIndex(name string) int {
	for i, t := range DefaultTests {
		if t.Name == name {
			return i
		}
	}
	return 100
}

// selectors builds the -t argument for the given remaining tests.
func selectors(tests []Test) string {
	var s []string
	for _, t := range tests {
		if t.Selector != "" {
			s = append(s, t.Selector)
		}
	}
	return strings.Join(s, ",")
}
