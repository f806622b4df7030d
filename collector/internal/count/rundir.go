package count

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// RunDirPattern is where a counted server runs: a fresh directory of this
// form (8 random hex digits), the same length on every machine and for every
// cell. The server keeps the paths it is given (its binary, config, log and
// working directory) and its environment on its stack and heap, so paths of
// other lengths move its memory and change what some requests cost (up to
// 0.4% per request measured on one build, from two work directories).
const RunDirPattern = "/tmp/rcb-count-%s"

// runEnvPath is the search path a counted server gets; its environment holds
// nothing else but the spec's own entries (the preload, its settings).
const runEnvPath = "PATH=/usr/bin:/bin"

type runDir struct {
	dir, server, control string
	env                  []string
}

// controlSize is the size of the control file through which the collector
// opens and closes counting windows (struct control in freezeclock.c).
const controlSize = 64

// newRunDir makes the run directory and copies into it the server and the
// preloaded library (LD_PRELOAD in s.Env), so the server's paths and
// environment are the same wherever the work directory is.
func newRunDir(s Spec) (*runDir, error) {
	var dir string
	for {
		b := make([]byte, 4)
		rand.Read(b)
		dir = fmt.Sprintf(RunDirPattern, hex.EncodeToString(b))
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("counting run directory: %w", err)
		}
	}
	r := &runDir{dir: dir, server: filepath.Join(dir, "redis-server")}
	if err := copyFile(s.Server, r.server, 0o755); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	r.control = filepath.Join(dir, "control")
	if err := os.WriteFile(r.control, make([]byte, controlSize), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	r.env = []string{runEnvPath, "FREEZECLOCK_CONTROL=" + r.control}
	for _, e := range s.Env {
		if lib, ok := strings.CutPrefix(e, "LD_PRELOAD="); ok && lib != "" {
			local := filepath.Join(dir, filepath.Base(lib))
			if err := copyFile(lib, local, 0o755); err != nil {
				os.RemoveAll(dir)
				return nil, err
			}
			e = "LD_PRELOAD=" + local
		}
		r.env = append(r.env, e)
	}
	return r, nil
}

// close moves the run's evidence (config, log, Valgrind's output) to keep
// and removes the run directory.
func (r *runDir) close(keep string) {
	for _, name := range []string{"redis.conf", "server.log", "callgrind.out"} {
		src := filepath.Join(r.dir, name)
		if err := os.Rename(src, filepath.Join(keep, name)); err != nil {
			copyFile(src, filepath.Join(keep, name), 0o644)
		}
	}
	os.RemoveAll(r.dir)
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
