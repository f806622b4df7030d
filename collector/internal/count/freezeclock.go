package count

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/redis-compiler-benchmarks/collector/internal/build"
)

// freezeClockSource is the preload library that stops the server's clock
// (C, kept out of the package directory, which cgo would claim).
//
//go:embed preload/freezeclock.c
var freezeClockSource []byte

// BuildFreezeClock compiles freezeclock.c with cc into dir and returns the
// shared library's path, for LD_PRELOAD.
func BuildFreezeClock(ctx context.Context, cc, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	src := filepath.Join(dir, "freezeclock.c")
	lib := filepath.Join(dir, "freezeclock.so")
	if err := os.WriteFile(src, freezeClockSource, 0o644); err != nil {
		return "", err
	}
	out, err := exec.CommandContext(ctx, cc, "-shared", "-fPIC", "-O2", "-o", lib, src, "-ldl").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("build freezeclock.so with %s: %s (%w)", cc, strings.TrimSpace(string(out)), err)
	}
	return lib, nil
}

// PreloadLine describes the preload library lib built by compiler cc, for a
// counting run's evidence: its wrappers' few instructions around callgrind's
// toggles are counted (once per read, for one), so counts compared across
// machines need the same build of it.
func PreloadLine(ctx context.Context, cc, lib string) (string, error) {
	b, err := os.ReadFile(lib)
	if err != nil {
		return "", err
	}
	version := build.CCVersion(ctx, cc)
	if version == "" {
		version = cc
	}
	return fmt.Sprintf("preload %s built by %s, sha256 %x", filepath.Base(lib), version, sha256.Sum256(b)), nil
}
