package count

import (
	"context"
	"crypto/sha256"
	"debug/elf"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// guestCPUSource prints the CPUID leaves a program sees (C, kept out of the
// package directory, which cgo would claim).
//
//go:embed probe/guestcpu.c
var guestCPUSource []byte

// ProbeGuestCPU compiles the CPUID probe (probe/guestcpu.c) with cc into
// s.Dir, runs it and the dynamic loader's --list-diagnostics under s's
// Valgrind command (Spec.Command) with s.Env, and returns GuestCPUSignature
// of the two.
// Valgrind presents a CPU of its own to the program it runs, not the host's,
// and the server's glibc picks its string and memory routines by that CPU:
// two machines give the same counts when their signatures match.
func ProbeGuestCPU(ctx context.Context, cc string, s Spec) (string, error) {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return "", err
	}
	src := filepath.Join(s.Dir, "guestcpu.c")
	exe := filepath.Join(s.Dir, "guestcpu")
	if err := os.WriteFile(src, guestCPUSource, 0o644); err != nil {
		return "", err
	}
	if out, err := exec.CommandContext(ctx, cc, "-O2", "-o", exe, src).CombinedOutput(); err != nil {
		return "", fmt.Errorf("build the guest CPU probe with %s: %s (%w)", cc, strings.TrimSpace(string(out)), err)
	}
	ldso, err := interpreter(exe)
	if err != nil {
		return "", fmt.Errorf("guest CPU probe: %w", err)
	}
	probe, err := s.underValgrind(ctx, exe)
	if err != nil {
		return "", err
	}
	// A glibc before 2.33 cannot list its diagnostics: its part of the
	// signature is then unknown.
	diagnostics, _ := s.underValgrind(ctx, ldso, "--list-diagnostics")
	return GuestCPUSignature(probe, diagnostics)
}

// underValgrind runs a program as s.Command() runs the server and returns
// its standard output (Valgrind's own messages go to standard error).
func (s Spec) underValgrind(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, s.Command()[0], append(s.Command()[1:], args...)...)
	cmd.Env = append(os.Environ(), s.Env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s under valgrind: %s (%w)", filepath.Base(args[0]), lastLine(errOut.String()), err)
	}
	return out.String(), nil
}

// interpreter is the dynamic loader (ELF interpreter) an executable names.
func interpreter(exe string) (string, error) {
	f, err := elf.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b := make([]byte, p.Filesz)
			if _, err := p.ReadAt(b, 0); err != nil {
				return "", err
			}
			return strings.TrimRight(string(b), "\x00"), nil
		}
	}
	return "", fmt.Errorf("%s names no dynamic loader", exe)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// ShortHash is 8 hex digits of a signature's SHA-256, a name for it in print.
func ShortHash(signature string) string {
	h := sha256.Sum256([]byte(signature))
	return hex.EncodeToString(h[:4])
}
