package count

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// WithoutDebugInfo writes a copy of the server binary without its debug
// information (objcopy --strip-debug; the code and the symbol table stay, so
// the same instructions run and callgrind still names functions) next to it,
// and returns its path. Valgrind 3.19 cannot read the DWARF 5 that clang 19
// writes and refuses to start such a binary; gcc 12's builds are counted the
// same way, so every build is.
func WithoutDebugInfo(ctx context.Context, bin string) (string, error) {
	out := bin + "-nodebug"
	msg, err := exec.CommandContext(ctx, "objcopy", "--strip-debug", bin, out).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("objcopy --strip-debug %s: %s (%w)", bin, strings.TrimSpace(string(msg)), err)
	}
	return out, nil
}
