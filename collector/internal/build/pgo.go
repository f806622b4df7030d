package build

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// TrainingWorkload is what a profile-guided build's instrumented server runs
// before its profile is used: the collector's own client, on purpose unlike
// the measured workloads (redis-benchmark's tests, 50 or 1 connections, 64-byte
// values, keys drawn from 10^10), so that the gain is not fitted to them.
const TrainingWorkload = "collector training client: one connection, 20,000 commands in pipelines of 50, " +
	"drawn (seed 7) from SET, GET, INCR, LPUSH, RPUSH, LPOP, RPOP, LRANGE 0 99, SADD, SPOP, HSET, HGET, " +
	"ZADD, ZRANGE 0 9, MSET of 5 keys, DEL, EXPIRE, EXISTS and PING, over 1,000 keys with 512-byte values"

// buildPGO makes a profile-guided build: the cell's flags plus the
// compiler's instrumentation, the training workload against that server, and
// the cell's flags plus the profile, in the same tree directory (gcc names
// its profile files after the objects' paths). ccache is bypassed: the
// instrumented and the final compiles differ from every other cell's.
func buildPGO(ctx context.Context, s Spec) (Result, error) {
	cellDir := CellDir(s.WorkDir, s.Cell.ID())
	prof := filepath.Join(cellDir, "pgo-profile")
	if err := os.RemoveAll(prof); err != nil {
		return Result{}, err
	}
	if err := os.MkdirAll(prof, 0o755); err != nil {
		return Result{}, err
	}
	clang := s.Cell.Compiler.Profdata != ""
	gen := s
	gen.Ccache = ""
	if clang {
		gen.ProfileFlags = "-fprofile-instr-generate=" + filepath.Join(prof, "server-%p.profraw")
	} else {
		gen.ProfileFlags = "-fprofile-generate=" + prof + " -fprofile-update=prefer-atomic"
	}
	r1, err := build(ctx, gen)
	if err != nil || r1.Status != "ok" {
		if r1.Error != "" {
			r1.Error = "PGO instrumented build: " + r1.Error
		}
		return r1, err
	}
	os.Rename(r1.LogPath, filepath.Join(cellDir, "build-instrumented.log"))
	fail1 := func(err error) (Result, error) {
		r1.Binary, r1.CodeSHA256 = "", ""
		return fail(r1, err), nil
	}
	t0 := time.Now()
	if err := Train(ctx, r1.Binary, prof); err != nil {
		return fail1(fmt.Errorf("PGO training: %w", err))
	}
	trainSeconds := time.Since(t0).Seconds()
	use := s
	use.Ccache = ""
	var digest string
	if clang {
		merged := filepath.Join(prof, "merged.profdata")
		raws, _ := filepath.Glob(filepath.Join(prof, "*.profraw"))
		if len(raws) == 0 {
			return fail1(fmt.Errorf("PGO training wrote no profile in %s", prof))
		}
		out, err := exec.CommandContext(ctx, s.Cell.Compiler.Profdata, append([]string{"merge", "-output=" + merged}, raws...)...).CombinedOutput()
		if err != nil {
			return fail1(fmt.Errorf("%s merge: %v: %s", s.Cell.Compiler.Profdata, err, lastLine(string(out))))
		}
		digest, err = filesDigest([]string{merged})
		if err != nil {
			return fail1(err)
		}
		use.ProfileFlags = "-fprofile-instr-use=" + merged + " -Wno-profile-instr-unprofiled -Wno-profile-instr-out-of-date"
	} else {
		gcdas, _ := filepath.Glob(filepath.Join(prof, "*.gcda"))
		if len(gcdas) == 0 {
			return fail1(fmt.Errorf("PGO training wrote no profile in %s", prof))
		}
		digest, err = filesDigest(gcdas)
		if err != nil {
			return fail1(err)
		}
		use.ProfileFlags = "-fprofile-use=" + prof + " -fprofile-partial-training -Wno-missing-profile"
	}
	r, err := build(ctx, use)
	r.DepsSeconds += r1.DepsSeconds
	r.CopySeconds += r1.CopySeconds
	r.BuildSeconds += r1.BuildSeconds + trainSeconds
	r.PGOTraining, r.PGOProfileSHA256 = TrainingWorkload, digest
	return r, err
}

// filesDigest is the SHA-256 of the files' contents, in the order of their
// base names (gcc's profile files are named after the objects' full paths).
func filesDigest(paths []string) (string, error) {
	paths = slices.Clone(paths)
	slices.SortFunc(paths, func(a, b string) int { return strings.Compare(filepath.Base(a), filepath.Base(b)) })
	h := sha256.New()
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Train starts the server binary on a free port with no persistence, runs
// TrainingWorkload against it and shuts it down (SHUTDOWN NOSAVE), so an
// instrumented server writes its profile as it exits.
func Train(ctx context.Context, binary, dir string) error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	// A config file, not arguments: 2.6 joins its arguments unquoted, so an
	// empty `--save ""` would not reach its parser.
	conf := filepath.Join(dir, "training.conf")
	text := fmt.Sprintf("port %d\nbind 127.0.0.1\nsave \"\"\nappendonly no\ndir %s\n", port, dir)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		return err
	}
	cmd := serverCommand(ctx, binary, conf)
	cmd.Dir = dir
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var c net.Conn
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		if c, err = net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second); err == nil {
			break
		}
		if time.Since(start) > 30*time.Second {
			cmd.Process.Kill()
			return fmt.Errorf("server did not listen on port %d within 30s: %s", port, lastLine(log.String()))
		}
	}
	defer c.Close()
	if err := trainingLoad(c); err != nil {
		cmd.Process.Kill()
		return err
	}
	w := bufio.NewWriter(c)
	writeCommand(w, "SHUTDOWN", "NOSAVE")
	w.Flush()
	select {
	case err := <-exited:
		if err != nil {
			return fmt.Errorf("server exited with %v after SHUTDOWN NOSAVE: %s", err, lastLine(log.String()))
		}
		return nil
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		return fmt.Errorf("server still running 60s after SHUTDOWN NOSAVE")
	}
}

// trainingLoad sends TrainingWorkload's commands on c and reads every reply
// (error replies, e.g. a command an old release lacks, are read like others).
func trainingLoad(c net.Conn) error {
	c.SetDeadline(time.Now().Add(5 * time.Minute))
	rng := rand.New(rand.NewPCG(7, 7))
	value := strings.Repeat("v", 512)
	w, r := bufio.NewWriter(c), bufio.NewReader(c)
	key := func(prefix string) string { return prefix + strconv.Itoa(rng.IntN(1000)) }
	for batch := 0; batch < 400; batch++ {
		for i := 0; i < 50; i++ {
			var args []string
			switch rng.IntN(19) {
			case 0:
				args = []string{"SET", key("k:"), value}
			case 1:
				args = []string{"GET", key("k:")}
			case 2:
				args = []string{"INCR", key("n:")}
			case 3:
				args = []string{"LPUSH", key("l:"), value}
			case 4:
				args = []string{"RPUSH", key("l:"), value}
			case 5:
				args = []string{"LPOP", key("l:")}
			case 6:
				args = []string{"RPOP", key("l:")}
			case 7:
				args = []string{"LRANGE", key("l:"), "0", "99"}
			case 8:
				args = []string{"SADD", key("s:"), key("m:")}
			case 9:
				args = []string{"SPOP", key("s:")}
			case 10:
				args = []string{"HSET", key("h:"), key("f:"), value}
			case 11:
				args = []string{"HGET", key("h:"), key("f:")}
			case 12:
				args = []string{"ZADD", key("z:"), strconv.Itoa(rng.IntN(10000)), key("m:")}
			case 13:
				args = []string{"ZRANGE", key("z:"), "0", "9"}
			case 14:
				args = []string{"MSET"}
				for j := 0; j < 5; j++ {
					args = append(args, key("k:"), value)
				}
			case 15:
				args = []string{"DEL", key("k:")}
			case 16:
				args = []string{"EXPIRE", key("k:"), "1000"}
			case 17:
				args = []string{"EXISTS", key("k:")}
			default:
				args = []string{"PING"}
			}
			writeCommand(w, args...)
		}
		if err := w.Flush(); err != nil {
			return fmt.Errorf("training: %w", err)
		}
		for i := 0; i < 50; i++ {
			if err := skipReply(r); err != nil {
				return fmt.Errorf("training: reading a reply: %w", err)
			}
		}
	}
	return nil
}

func writeCommand(w *bufio.Writer, args ...string) {
	fmt.Fprintf(w, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(w, "$%d\r\n%s\r\n", len(a), a)
	}
}

// skipReply reads one RESP reply of any type, arrays whole.
func skipReply(r *bufio.Reader) error {
	line, err := r.ReadString('\n')
	if err != nil {
		return err
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return fmt.Errorf("empty reply line")
	}
	switch line[0] {
	case '+', '-', ':':
		return nil
	case '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return err
		}
		_, err = io.CopyN(io.Discard, r, int64(n)+2)
		return err
	case '*':
		n, err := strconv.Atoi(line[1:])
		if err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if err := skipReply(r); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unexpected reply %q", line)
}
