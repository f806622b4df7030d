package build

import (
	"fmt"
	"slices"
	"strings"
)

// Check verifies from a V=1 make log that the flags reached both a compile of
// the server's own code and the link of redis-server.
func Check(log, flags string) error {
	want := strings.Fields(flags)
	var compiled, linked bool
	for _, line := range strings.Split(log, "\n") {
		if !hasAll(line, want) {
			continue
		}
		if serverCompile(line) {
			compiled = true
		}
		if strings.Contains(line, "-o redis-server") {
			linked = true
		}
	}
	switch {
	case !compiled:
		return fmt.Errorf("flags %q not found on the compile of server.c/redis.c", flags)
	case !linked:
		return fmt.Errorf("flags %q not found on the link of redis-server", flags)
	}
	return nil
}

// checkNoneAdded refuses a build whose compile of the server's own code
// carries an optimisation level or LTO flag (-O…, -flto…) that its flags do
// not: the release's Makefile added it (MakefileAddsLTO), and the build is
// not the configuration it is named after. A stock build takes the
// Makefile's flags by design and is not checked.
func checkNoneAdded(log, flags string, stock bool) error {
	if stock {
		return nil
	}
	want := strings.Fields(flags)
	for _, line := range strings.Split(log, "\n") {
		if !serverCompile(line) {
			continue
		}
		for _, f := range strings.Fields(line) {
			if (strings.HasPrefix(f, "-O") || strings.HasPrefix(f, "-flto")) && !slices.Contains(want, f) {
				return fmt.Errorf("the compile of the server has %s, which the flags %q do not: the release's Makefile added it", f, flags)
			}
		}
	}
	return nil
}

// serverCompile says whether a V=1 make log line compiles the server's own
// code (server.c, redis.c before 3.2).
func serverCompile(line string) bool {
	return strings.Contains(line, " -c ") && (strings.Contains(line, "server.c") || strings.Contains(line, "redis.c"))
}

func hasAll(line string, flags []string) bool {
	fields := map[string]bool{}
	for _, f := range strings.Fields(line) {
		fields[f] = true
	}
	for _, f := range flags {
		if !fields[f] {
			return false
		}
	}
	return true
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func lastLine(s string) string {
	return oneLine(tail(s, 1))
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// lastError picks the most telling line of a failed build: the last line
// mentioning "error", else the last line; make's own lines ("make[1]: ***",
// "make: Leaving directory") are skipped while there are others.
func lastError(log string) string {
	lines := strings.Split(strings.TrimRight(log, "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], "error:") && !isMakes(lines[i]) {
			return oneLine(lines[i])
		}
	}
	last := ""
	for i := len(lines) - 1; i >= 0; i-- {
		if isMakes(lines[i]) || strings.TrimSpace(lines[i]) == "" {
			continue
		}
		if strings.Contains(strings.ToLower(lines[i]), "error") {
			return oneLine(lines[i])
		}
		if last == "" {
			last = oneLine(lines[i])
		}
	}
	if last == "" {
		return lastLine(log)
	}
	return last
}

// isMakes says whether a log line is make's own ("make: *** ...", "make[1]:
// Leaving ..."), also when a parallel job's output ran into it ("1make: ***").
func isMakes(line string) bool {
	return strings.HasPrefix(line, "make") || strings.Contains(line, "make: ***") || strings.Contains(line, "make[")
}

// shellJoin quotes args for sh: the recorded make line can be pasted and rerun.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.Trim(a, safeShellChars) == "" {
			q[i] = a
		} else {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

// safeShellChars never need quoting in a word of sh.
const safeShellChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,:/@%"
