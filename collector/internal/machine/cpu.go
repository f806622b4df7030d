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
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		s.ticks[pid] = proc{name: str[open+1 : close], ticks: ut + st}
	}
	return s
}

// used is the CPU time (clock ticks) process pid used between two snapshots;
// a process new in after (or a reused pid) counts from its start.
func used(before CPUSnapshot, pid int, a proc) int64 {
	if b, ok := before.ticks[pid]; ok && b.name == a.name {
		return a.ticks - b.ticks
	}
	return a.ticks
}

// OtherCPU lists processes, other than this one, kernel workers and those
// named in exclude, that used at least 5% of one CPU between two snapshots, as
// "name:percent" sorted by use. Clock ticks are assumed to be 100/s (Linux USER_HZ).
func OtherCPU(before, after CPUSnapshot, excludeNames []string) string {
	skip := map[string]bool{}
	for _, n := range excludeNames {
		skip[n] = true
	}
	ticks := map[string]int64{}
	for pid, a := range after.ticks {
		if skip[a.name] || kernelThread(a.name) || pid == os.Getpid() {
			continue
		}
		ticks[a.name] += used(before, pid, a)
	}
	type kv struct {
		n string
		p float64
	}
	var list []kv
	for n, t := range ticks {
		if p := BusyPercent(t, after.at.Sub(before.at)); p >= 5 {
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
	busy, _ := CPUTicks()
	return busy
}

// CPUTicks reads /proc/stat once for BusyTicks and steal: the CPU time (all
// CPUs, clock ticks) the hypervisor gave to others while this VM had work to
// run, the one trace a busy host leaves inside a VM.
func CPUTicks() (busy, steal int64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return parseCPULine(line)
}

// parseCPULine reads /proc/stat's first line ("cpu user nice system idle
// iowait irq softirq steal guest guest_nice"). busy counts user, nice, system
// and steal; it skips idle and iowait, irq and softirq (mostly the benchmark's
// own loopback traffic, charged to no process) and guest time (already inside
// user).
func parseCPULine(line string) (busy, steal int64) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return 0, 0
	}
	for i, v := range f[1:] {
		if i >= 3 && i != 7 {
			continue
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		busy += n
		if i == 7 {
			steal = n
		}
	}
	return busy, steal
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
		if kernelThread(a.name) {
			n += used(before, pid, a)
		}
	}
	return n
}
