// Package machine describes the machine the collector runs on: CPU, memory,
// kernel, OS, measured memory write bandwidth, load average, and which other
// processes used the CPU during a measurement.
package machine

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Info is the provenance of one machine.
type Info struct {
	ID       string
	Hostname string
	CPUModel string
	// CPUID is the x86 CPU's family, model and stepping from /proc/cpuinfo
	// ("family 25 model 17 stepping 1"), "" where the kernel does not give them.
	// VMs name every AMD server CPU "AMD EPYC": the family and model tell the
	// generations apart.
	CPUID       string
	Cores       int
	MemoryBytes int64
	Kernel      string
	OS          string
	// MemWriteBPS is the measured memory write bandwidth in bytes/second.
	MemWriteBPS float64
}

// CPU is this machine's CPU model (from /proc/cpuinfo) and core count: with
// them, its hardware class (hwclass.Label).
func CPU() (model string, cores int) {
	return procField("/proc/cpuinfo", "model name"), runtime.NumCPU()
}

// CPUID reads the CPU's family, model and stepping from /proc/cpuinfo, as
// "family 25 model 17 stepping 1" ("" when the kernel gives no family, e.g. on ARM).
func CPUID() string {
	return cpuID(procField("/proc/cpuinfo", "cpu family"), procField("/proc/cpuinfo", "model"),
		procField("/proc/cpuinfo", "stepping"))
}

func cpuID(family, model, stepping string) string {
	if family == "" || model == "" {
		return ""
	}
	id := "family " + family + " model " + model
	if stepping != "" {
		id += " stepping " + stepping
	}
	return id
}

// Identify reads what names the machine (hostname, CPU, cores, memory) and its
// ID, without measuring anything.
func Identify() Info {
	var in Info
	in.Hostname, _ = os.Hostname()
	in.CPUModel, in.Cores = CPU()
	in.CPUID = CPUID()
	if kb, err := strconv.ParseInt(strings.Fields(procField("/proc/meminfo", "MemTotal") + " 0")[0], 10, 64); err == nil {
		in.MemoryBytes = kb * 1024
	}
	in.ID = hashID(fmt.Sprintf("%s|%s|%d|%d", in.Hostname, in.CPUModel, in.Cores, in.MemoryBytes))
	return in
}

// hashID is the 12 hex digits that name a machine described by s.
func hashID(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:6])
}

// IDWithCPU is an ID that also hashes the CPU's family, model and stepping:
// VMs made from one image share hostname, CPU name, cores and memory, so ID
// alone can name two different CPUs (hwclass.Identify decides which one to use).
func (in Info) IDWithCPU() string {
	return hashID(fmt.Sprintf("%s|%s|%d|%d|%s", in.Hostname, in.CPUModel, in.Cores, in.MemoryBytes, in.CPUID))
}

// Describe adds the machine's provenance to in (as Identify read it) and
// measures its memory write bandwidth.
func Describe(in Info) Info {
	var u syscall.Utsname
	if syscall.Uname(&u) == nil {
		in.Kernel = cstr(u.Release[:])
	}
	in.OS = strings.Trim(osRelease("PRETTY_NAME"), `"`)
	in.MemWriteBPS = MemWriteBandwidth(256<<20, 5)
	return in
}

// MemWriteBandwidth clears a buffer of size bytes `passes` times and returns the
// best pass in bytes/second. The buffer is much larger than any CPU cache, so
// this is the rate at which the machine writes memory (what the 2014 study
// found drives Redis's speed).
func MemWriteBandwidth(size, passes int) float64 {
	buf := make([]byte, size)
	clear(buf) // fault the pages in before timing
	best := 0.0
	for i := 0; i < passes; i++ {
		t := time.Now()
		clear(buf) // runtime memclr: wide stores, the fastest write Go has
		if bps := float64(size) / time.Since(t).Seconds(); bps > best {
			best = bps
		}
	}
	runtime.KeepAlive(buf)
	return best
}

// MemWriteProbe is how fast the machine writes memory right now, taken around
// each run: it clears a 256 MiB buffer over and over for ProbeTime and returns
// the bytes written over the time taken. A rate over a fixed time, not the best
// or median pass, so a host that takes the CPU away for part of it, or slows
// its memory, shows in the figure in proportion. The buffer is allocated and
// faulted in once, on the first probe, and kept (faulting 256 MiB in took over
// a second).
func MemWriteProbe() float64 {
	probeOnce.Do(func() {
		probeBuf = make([]byte, 256<<20)
		clear(probeBuf)
	})
	start := time.Now()
	written := 0
	for time.Since(start) < ProbeTime {
		clear(probeBuf)
		written += len(probeBuf)
	}
	runtime.KeepAlive(probeBuf)
	return float64(written) / time.Since(start).Seconds()
}

// ProbeTime is how long MemWriteProbe writes.
const ProbeTime = 200 * time.Millisecond

var (
	probeOnce sync.Once
	probeBuf  []byte
)

// Load1 is the 1-minute load average (0 if unknown).
func Load1() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func osRelease(key string) string {
	b, err := os.ReadFile("/etc/os-release")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && k == key {
			return v
		}
	}
	return ""
}

func cstr(b []int8) string {
	var s []byte
	for _, c := range b {
		if c == 0 {
			break
		}
		s = append(s, byte(c))
	}
	return string(s)
}

// FlushWrites writes back every dirty page now (sync(2)) and says how many
// bytes were dirty before. The collector calls it before each measurement: a
// build leaves tens of MB in the page cache that the kernel would otherwise
// write back during the next run's first ~30 s, in flusher threads that
// other_cpu does not count (data-mode runs right after a dependencies build
// measured a median 8% below the rest of their version before this).
func FlushWrites() (dirtyBytes int64, took time.Duration) {
	dirtyBytes = meminfoBytes(procField("/proc/meminfo", "Dirty"))
	start := time.Now()
	syscall.Sync()
	return dirtyBytes, time.Since(start)
}

// meminfoBytes parses a /proc/meminfo value such as "74936 kB" (0 if malformed).
func meminfoBytes(v string) int64 {
	num, unit, _ := strings.Cut(strings.TrimSpace(v), " ")
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	if unit == "kB" {
		n *= 1024
	}
	return n
}
