package count

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
