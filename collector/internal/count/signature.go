package count

import (
	"fmt"
	"strconv"
	"strings"
)

// GuestCPUSignature makes the guest CPU's signature from the CPUID probe's
// output (probe/guestcpu.c: "<leaf>.<subleaf> <eax> <ebx> <ecx> <edx>") and
// the dynamic loader's --list-diagnostics (empty where glibc cannot list
// them). It is one line of space-separated fields, the CPUID part, then
// " | ", then glibc's part:
//
//	GenuineIntel max=0xd ext=0x80000008 1=<eax>,<ecx>,<edx> 7=<ebx>,<ecx>,<edx>
//	2=<eax>,<ebx>,<ecx>,<edx> 4=<eax>,<ebx>,<ecx>,<edx>/... e1=<ecx>,<edx> e6=<ecx>
//	| glibc=2.36 platform=haswell hwcaps=0x6 isa=0x7 active=<word>:<bits>,...
//	preferred=<name>,... data_cache=0x8000 shared_cache=0x800000 ...
//
// The CPUID part is what glibc reads (features, cache descriptors: leaf 1's
// ebx, the CPU's APIC id, is left out); glibc's part is what it makes of it:
// its version, the usable feature bits its ifuncs test, its preferences and
// the size thresholds of memcpy and memset. A leaf the CPU does not have is
// left out.
func GuestCPUSignature(probe, diagnostics string) (string, error) {
	leaves, err := parseLeaves(probe)
	if err != nil {
		return "", err
	}
	l0, l1 := leaves["0.0"], leaves["1.0"]
	if l0 == nil || l1 == nil {
		return "", fmt.Errorf("guest CPU probe printed no leaf 0 or 1: %q", probe)
	}
	f := []string{vendor(l0[1], l0[3], l0[2]), "max=" + hexNum(l0[0])}
	if e := leaves["80000000.0"]; e != nil {
		f = append(f, "ext="+hexNum(e[0]))
	}
	f = append(f, "1="+join(l1[0], l1[2], l1[3]))
	if l := leaves["7.0"]; l != nil {
		f = append(f, "7="+join(l[1], l[2], l[3]))
	}
	if l := leaves["2.0"]; l != nil {
		f = append(f, "2="+join(l[:]...))
	}
	var caches []string
	for i := 0; leaves[fmt.Sprintf("4.%x", i)] != nil; i++ {
		caches = append(caches, join(leaves[fmt.Sprintf("4.%x", i)][:]...))
	}
	if len(caches) > 0 {
		f = append(f, "4="+strings.Join(caches, "/"))
	}
	if l := leaves["80000001.0"]; l != nil {
		f = append(f, "e1="+join(l[2], l[3]))
	}
	if l := leaves["80000006.0"]; l != nil {
		f = append(f, "e6="+l[2])
	}
	return strings.Join(f, " ") + " | " + glibcChoices(diagnostics), nil
}

// parseLeaves reads the probe's lines into leaf.subleaf -> eax, ebx, ecx, edx.
func parseLeaves(probe string) (map[string]*[4]string, error) {
	out := map[string]*[4]string{}
	for _, line := range strings.Split(strings.TrimSpace(probe), "\n") {
		f := strings.Fields(line)
		if len(f) != 5 {
			return nil, fmt.Errorf("guest CPU probe line %q: want a leaf and 4 registers", line)
		}
		var regs [4]string
		for i, r := range f[1:] {
			if _, err := strconv.ParseUint(r, 16, 32); err != nil || len(r) != 8 {
				return nil, fmt.Errorf("guest CPU probe line %q: register %q is not 8 hex digits", line, r)
			}
			regs[i] = r
		}
		out[f[0]] = &regs
	}
	return out, nil
}

// vendor decodes the vendor string of leaf 0 (ebx, edx, ecx: "GenuineIntel").
func vendor(regs ...string) string {
	var b []byte
	for _, r := range regs {
		v, _ := strconv.ParseUint(r, 16, 32)
		b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r > '~' {
			return '_'
		}
		return r
	}, string(b))
}

func hexNum(r string) string {
	v, _ := strconv.ParseUint(r, 16, 32)
	return "0x" + strconv.FormatUint(v, 16)
}

func join(regs ...string) string { return strings.Join(regs, ",") }

// glibcDiagnostics are the values of --list-diagnostics that the signature
// keeps, by their name in it, in print order.
var glibcDiagnostics = []struct{ key, name string }{
	{"version.version", "glibc"},
	{"dl_platform", "platform"},
	{"dl_hwcaps_subdirs_active", "hwcaps"},
	{"x86.cpu_features.isa_1", "isa"},
	{"active", "active"}, // made from the features[...].active[...] lines
	{"preferred", "preferred"},
	{"x86.cpu_features.data_cache_size", "data_cache"},
	{"x86.cpu_features.shared_cache_size", "shared_cache"},
	{"x86.cpu_features.non_temporal_threshold", "non_temporal"},
	{"x86.cpu_features.rep_movsb_threshold", "rep_movsb"},
	{"x86.cpu_features.rep_movsb_stop_threshold", "rep_movsb_stop"},
	{"x86.cpu_features.rep_stosb_threshold", "rep_stosb"},
}

// glibcChoices is the signature's glibc part: the diagnostics of
// glibcDiagnostics, the nonzero usable-feature words ("active=0.2:7ed83203",
// word 0 register 2) and the preferences that are set; "glibc=unknown"
// without diagnostics.
func glibcChoices(diagnostics string) string {
	values := map[string]string{}
	var active, preferred []string
	for _, line := range strings.Split(diagnostics, "\n") {
		key, value, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok {
			continue
		}
		value = strings.Trim(value, `"`)
		values[key] = value
		if name, ok := strings.CutPrefix(key, "x86.cpu_features.preferred."); ok && value != "0x0" {
			preferred = append(preferred, name)
		}
		if w, r, ok := activeWord(key); ok && value != "0x0" {
			active = append(active, fmt.Sprintf("%s.%s:%s", w, r, strings.TrimPrefix(value, "0x")))
		}
	}
	if values["version.version"] == "" {
		return "glibc=unknown"
	}
	values["active"], values["preferred"] = strings.Join(active, ","), strings.Join(preferred, ",")
	var f []string
	for _, d := range glibcDiagnostics {
		if v := values[d.key]; v != "" {
			f = append(f, d.name+"="+v)
		}
	}
	return strings.Join(f, " ")
}

// activeWord reads "x86.cpu_features.features[0x1].active[0x2]" as word 1,
// register 2.
func activeWord(key string) (word, reg string, ok bool) {
	rest, ok := strings.CutPrefix(key, "x86.cpu_features.features[0x")
	if !ok {
		return "", "", false
	}
	word, rest, ok = strings.Cut(rest, "].active[0x")
	if !ok {
		return "", "", false
	}
	reg, ok = strings.CutSuffix(rest, "]")
	return word, reg, ok
}

// GuestCPUSummary names a signature's CPU and glibc briefly: "GenuineIntel
// family 6 model 60, glibc 2.36 (haswell)".
func GuestCPUSummary(signature string) string {
	fields := strings.Fields(signature)
	if len(fields) == 0 {
		return ""
	}
	out := fields[0]
	kv := map[string]string{}
	for _, f := range fields[1:] {
		if k, v, ok := strings.Cut(f, "="); ok {
			kv[k] = v
		}
	}
	if eax, _, _ := strings.Cut(kv["1"], ","); eax != "" {
		v, _ := strconv.ParseUint(eax, 16, 32)
		family, model := (v>>8)&0xf, (v>>4)&0xf
		if family == 0xf {
			family += (v >> 20) & 0xff
		}
		if family == 6 || family >= 0xf {
			model |= ((v >> 16) & 0xf) << 4
		}
		out += fmt.Sprintf(" family %d model %d", family, model)
	}
	if g := kv["glibc"]; g != "" {
		out += ", glibc " + g
		if p := kv["platform"]; p != "" {
			out += " (" + p + ")"
		}
	}
	return out
}
