package build

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Client builds redis-benchmark once from srcDir with Redis's default flags and
// the system compiler, and caches it under workDir/client/<version>/. It
// returns the path of the binary.
func Client(ctx context.Context, srcDir, workDir, version string, jobs int, timeout time.Duration) (string, error) {
	dir := filepath.Join(workDir, "client", version)
	bin := filepath.Join(dir, "redis-benchmark")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	tree := filepath.Join(dir, "tree")
	if err := copyTree(ctx, srcDir, tree); err != nil {
		return "", fmt.Errorf("client %s: %w", version, err)
	}
	logf, err := os.Create(filepath.Join(dir, "build.log"))
	if err != nil {
		return "", err
	}
	defer logf.Close()
	args := []string{"-C", "src", fmt.Sprintf("-j%d", jobs), "redis-benchmark"}
	if out, err := runMake(ctx, Spec{Timeout: timeout}, tree, args, logf); err != nil {
		return "", fmt.Errorf("build client redis-benchmark %s: %v: %s", version, err, lastLine(out))
	}
	tmp := bin + ".tmp"
	if err := os.Rename(filepath.Join(tree, "src", "redis-benchmark"), tmp); err != nil {
		return "", err
	}
	os.RemoveAll(tree)
	return bin, os.Rename(tmp, bin)
}
