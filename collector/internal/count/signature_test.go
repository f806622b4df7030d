package count

import (
	"os"
	"strings"
	"testing"
)

func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Valgrind 3.19's CPU on an AVX2 host and Debian 12's glibc 2.36 under it.
func TestGuestCPUSignatureOfValgrindsHaswell(t *testing.T) {
	sig, err := GuestCPUSignature(readFixture(t, "fixture-guestcpu-valgrind.txt"), readFixture(t, "fixture-ldso-diagnostics-valgrind.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := "GenuineIntel max=0xd ext=0x80000008 1=000306c3,7ffafbff,bfebfbff 7=000427aa,00000000,00000000 " +
		"2=76036301,00f0b6ff,00000000,00c10000 " +
		"4=1c004121,01c0003f,0000003f,00000000/1c004122,01c0003f,0000003f,00000000/1c004143,01c0003f,000001ff,00000000/1c03c163,03c0003f,00001fff,00000006 " +
		"e1=00000021,2c100800 e6=01006040 | glibc=2.36 platform=haswell hwcaps=0x6 isa=0x7 " +
		"active=0.2:7ed83203,0.3:17888110,1.1:40328,2.2:21,2.3:8000000 " +
		"preferred=Fast_Rep_String,Fast_Unaligned_Load,Prefer_PMINUB_for_stringop,Fast_Unaligned_Copy,I586,I686,AVX_Fast_Unaligned_Load,Prefer_No_AVX512 " +
		"data_cache=0x8000 shared_cache=0x800000 non_temporal=0x200000 rep_movsb=0x2000 rep_movsb_stop=0x200000 rep_stosb=0x800"
	if sig != want {
		t.Errorf("signature\n%s\nwant\n%s", sig, want)
	}
	if s := GuestCPUSummary(sig); s != "GenuineIntel family 6 model 60, glibc 2.36 (haswell)" {
		t.Errorf("summary %q", s)
	}
	if h := ShortHash(sig); len(h) != 8 || h == ShortHash(sig+" ") {
		t.Errorf("short hash %q", h)
	}
}

// A leaf the CPU lacks is left out; the APIC id (leaf 1 ebx) never counts;
// without diagnostics (glibc before 2.33) glibc's part is unknown.
func TestGuestCPUSignatureLeavesOutWhatIsMissing(t *testing.T) {
	probe := "0.0 00000001 68747541 444d4163 69746e65\n1.0 00000f51 01000800 00000001 078bfbff\n"
	other := strings.Replace(probe, "01000800", "05000800", 1)
	a, err := GuestCPUSignature(probe, "")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := GuestCPUSignature(other, "")
	if want := "AuthenticAMD max=0x1 1=00000f51,00000001,078bfbff | glibc=unknown"; a != want || b != want {
		t.Errorf("signatures %q, %q, want %q", a, b, want)
	}
	// Extended family: 0xf + 0x0b = 26 (a Zen 5), model 0x02.
	if s := GuestCPUSummary("AuthenticAMD max=0x1c 1=00b00f21,fffa3203,178bfbff | glibc=2.36 platform=x86_64"); s != "AuthenticAMD family 26 model 2, glibc 2.36 (x86_64)" {
		t.Errorf("summary %q", s)
	}
}

func TestGuestCPUSignatureRejectsABadProbe(t *testing.T) {
	for _, probe := range []string{
		"",
		"0.0 0000000d 756e6547 6c65746e 49656e69\n",                     // no leaf 1
		"0.0 0000000d 756e6547 6c65746e\n1.0 1 2 3 4\n",                 // 3 registers
		"0.0 0000000d 756e6547 6c65746e 49656e69\n1.0 000306c3 x 0 0\n", // not hex
	} {
		if sig, err := GuestCPUSignature(probe, ""); err == nil {
			t.Errorf("probe %q gave signature %q, want an error", probe, sig)
		}
	}
}
