package bench

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// names are the tests of each group, "|"-joined.
func names(groups [][]TestRun) []string {
	var out []string
	for _, g := range groups {
		var n []string
		for _, t := range g {
			n = append(n, strings.Fields(t.Name)[0])
		}
		out = append(out, strings.Join(n, "|"))
	}
	return out
}

func TestGroupsNeverSeparateATestFromTheDataItReads(t *testing.T) {
	tests := precisionTests()
	for _, c := range []struct {
		size int
		want []string
	}{
		{0, []string{"PING_INLINE|PING_MBULK|SET|GET|INCR|LPUSH|RPUSH|LPOP|RPOP|SADD|HSET|SPOP|ZADD|ZPOPMIN|LPUSH|LRANGE_100|LRANGE_300|LRANGE_500|LRANGE_600|MSET|XADD"}},
		// SET and GET, the lists, the sets and the sorted set, the LRANGE set-up and reads stay together.
		{1, []string{"PING_INLINE", "PING_MBULK", "SET|GET", "INCR", "LPUSH|RPUSH|LPOP|RPOP", "SADD|HSET|SPOP", "ZADD|ZPOPMIN", "LPUSH|LRANGE_100|LRANGE_300|LRANGE_500|LRANGE_600", "MSET", "XADD"}},
		{4, []string{"PING_INLINE|PING_MBULK|SET|GET", "INCR|LPUSH|RPUSH|LPOP|RPOP", "SADD|HSET|SPOP|ZADD|ZPOPMIN", "LPUSH|LRANGE_100|LRANGE_300|LRANGE_500|LRANGE_600", "MSET|XADD"}},
		{8, []string{"PING_INLINE|PING_MBULK|SET|GET|INCR|LPUSH|RPUSH|LPOP|RPOP", "SADD|HSET|SPOP|ZADD|ZPOPMIN|LPUSH|LRANGE_100|LRANGE_300|LRANGE_500|LRANGE_600", "MSET|XADD"}},
	} {
		got := names(Groups(tests, c.size))
		if strings.Join(got, " / ") != strings.Join(c.want, " / ") {
			t.Errorf("size %d:\n got %q\nwant %q", c.size, got, c.want)
		}
	}
	// A test list without the reader may be cut where the pair would be.
	got := names(Groups([]TestRun{{Name: "SET"}, {Name: "INCR"}}, 1))
	if strings.Join(got, " / ") != "SET / INCR" {
		t.Errorf("SET, INCR by 1: %q", got)
	}
}

func TestRunGroupsGivesEachGroupAServerOfItsOwn(t *testing.T) {
	spec, _ := fakeSpec(t)
	tests := []TestRun{
		{Name: "SET", Index: 2, Args: []string{"-t", "set"}, Requests: 5000},
		{Name: "GET", Index: 3, Args: []string{"-t", "get"}, Requests: 5000},
		{Name: "INCR", Index: 4, Args: []string{"-t", "incr"}, Requests: 5000},
	}
	out, err := RunGroups(context.Background(), spec, Groups(tests, 1))
	if err != nil || out.ServerFailed != "" || len(out.Results) != 3 {
		t.Fatalf("err %v, outcome %+v", err, out)
	}
	for i, r := range out.Results {
		if r.Test != tests[i].Name || r.Status != "ok" {
			t.Errorf("result %d = %+v", i, r)
		}
	}
	// SET and GET share a server; INCR has its own: two ports in the invocations.
	ports := regexp.MustCompile(`-p (\d+)`).FindAllStringSubmatch(out.Raw, -1)
	if len(ports) != 3 || ports[0][1] != ports[1][1] || ports[1][1] == ports[2][1] {
		t.Errorf("ports %q, want SET and GET on one server and INCR on another", ports)
	}
}

func TestRunGroupsStopsAtAServerThatFails(t *testing.T) {
	spec, _ := fakeSpec(t)
	spec.Server = filepath.Join(t.TempDir(), "missing")
	groups := [][]TestRun{{{Name: "SET", Args: []string{"-t", "set"}, Requests: 1}}, {{Name: "INCR", Index: 4, Args: []string{"-t", "incr"}, Requests: 1}}}
	out, err := RunGroups(context.Background(), spec, groups)
	if err != nil || out.ServerFailed == "" || len(out.Results) != 2 || out.Results[1].Status != "crashed" || out.Results[1].Test != "INCR" {
		t.Errorf("err %v, outcome %+v", err, out)
	}
}
