package machine

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// CPUSnapshot is the CPU time (clock ticks) of every process at one moment.
type CPUSnapshot struct {
	at    time.Time
	ticks map[int]proc
}

type proc struct {
	name  string
	ticks int64
	pgrp  int
}

// SnapshotCPU reads /proc/*/stat.
func SnapshotCPU() CPUSnapshot {
	s := CPUSnapshot{at: time.Now(), ticks: map[int]proc{}}
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range dirs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		str := string(b)
		open, close := strings.IndexByte(str, '('), strings.LastIndexByte(str, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(str[close+1:])
		if len(f) < 13 {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(str[:open]))
		pgrp, _ := strconv.Atoi(f[2])
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		s.ticks[pid] = proc{name: str[open+1 : close], ticks: ut + st, pgrp: pgrp}
	}
	return s
}

// OtherCPU lists processes, other than those named in exclude or in the excluded
// process group, that used at least 5% of one CPU between two snapshots,
// as "name:percent" sorted by use. Clock ticks are assumed to be 100/s (Linux USER_HZ).
func OtherCPU(before, after CPUSnapshot, excludeNames []string, excludePgrp int) string {
	secs := after.at.Sub(before.at).Seconds()
	if secs <= 0 {
		return ""
	}
	skip := map[string]bool{}
	for _, n := range excludeNames {
		skip[n] = true
	}
	use := map[string]float64{}
	for pid, a := range after.ticks {
		if skip[a.name] || kernelThread(a.name) || (excludePgrp != 0 && a.pgrp == excludePgrp) || pid == os.Getpid() {
			continue
		}
		d := a.ticks - before.ticks[pid].ticks
		if b, ok := before.ticks[pid]; !ok || b.name != a.name {
			d = a.ticks // started during the run
		}
		use[a.name] += float64(d) / 100 / secs * 100
	}
	type kv struct {
		n string
		p float64
	}
	var list []kv
	for n, p := range use {
		if p >= 5 {
			list = append(list, kv{n, p})
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].p > list[j].p })
	var parts []string
	for _, e := range list {
		parts = append(parts, fmt.Sprintf("%s:%.0f", e.n, e.p))
	}
	return strings.Join(parts, ",")
}

// kernelThread reports names of kernel workers, whose time is mostly the
// loopback traffic of the benchmark itself.
func kernelThread(name string) bool {
	for _, p := range []string{"kworker/", "ksoftirqd/", "rcu_", "migration/", "kdamond"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// BusyTicks is the machine's total CPU time spent by processes (all CPUs, clock
// ticks) from /proc/stat: short-lived processes included, interrupts excluded.
func BusyTicks() int64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	var busy int64
	for i, v := range f[1:] {
		// Count user, nice, system and steal. Skip idle and iowait; irq and
		// softirq (mostly the benchmark's own loopback traffic, charged to no
		// process); guest time, already inside user.
		if i >= 3 && i != 7 {
			continue
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		busy += n
	}
	return busy
}

// BusyPercent turns a BusyTicks difference over an interval into percent of one CPU.
func BusyPercent(ticks int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(ticks) / 100 / d.Seconds() * 100
}

// KernelTicks is the CPU time (clock ticks) kernel worker threads such as
// ksoftirqd used between two snapshots: under a loopback benchmark that is
// mostly the benchmark's own network processing.
func KernelTicks(before, after CPUSnapshot) int64 {
	var n int64
	for pid, a := range after.ticks {
		if !kernelThread(a.name) {
			continue
		}
		if b, ok := before.ticks[pid]; ok && b.name == a.name {
			n += a.ticks - b.ticks
		} else {
			n += a.ticks
		}
	}
	return n
}
