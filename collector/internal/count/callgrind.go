package count

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Events are callgrind's event counts of one dump, by event name ("Ir",
// "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw", "Bc", "Bcm",
// "Bi", "Bim" with --cache-sim=yes --branch-sim=yes).
type Events map[string]int64

// Dump is what one callgrind dump says: its trigger, the totals of the
// dumped part, and the calls of the excluded function (serverCron) within it
// with their inclusive cost.
type Dump struct {
	Trigger  string
	Totals   Events
	Excluded Events
	// ExcludedCalls is how many times the excluded function was called.
	ExcludedCalls int64
	// TotalsLine is the dump's totals line as callgrind wrote it (evidence).
	TotalsLine string
}

var fnLine = regexp.MustCompile(`^c?fn=\((\d+)\)(?: (.*))?$`)

// ParseDump reads a callgrind output file (format version 1, with name
// compression as callgrind writes it) and sums the inclusive cost of every
// call to the function named exclude. Callgrind gives each call line
// ("calls=N target" followed by a cost line) the callee's inclusive cost, so
// the sum is the whole cost of that function and everything it called,
// however the compiler inlined the code around it.
func ParseDump(r io.Reader, exclude string) (Dump, error) {
	var d Dump
	var events []string
	ids := map[string]string{}
	inExcluded, costFollows := false, false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "events:"):
			events = strings.Fields(strings.TrimPrefix(line, "events:"))
			d.Excluded = Events{}
			continue
		case strings.HasPrefix(line, "desc: Trigger:"):
			d.Trigger = strings.TrimSpace(strings.TrimPrefix(line, "desc: Trigger:"))
			continue
		case strings.HasPrefix(line, "totals:"):
			t, err := eventLine(events, strings.TrimPrefix(line, "totals:"))
			if err != nil {
				return d, fmt.Errorf("callgrind totals: %w", err)
			}
			d.Totals, d.TotalsLine = t, line
			continue
		case strings.HasPrefix(line, "calls="):
			costFollows = true
			if inExcluded {
				f := strings.Fields(strings.TrimPrefix(line, "calls="))
				n, err := strconv.ParseInt(f[0], 10, 64)
				if err != nil {
					return d, fmt.Errorf("callgrind calls line %q: %w", line, err)
				}
				d.ExcludedCalls += n
			}
			continue
		}
		if m := fnLine.FindStringSubmatch(line); m != nil {
			if m[2] != "" {
				ids[m[1]] = m[2]
			}
			// A call line's callee is the last cfn= of the current fn=.
			inExcluded = strings.HasPrefix(line, "cfn=") && ids[m[1]] == exclude
			continue
		}
		if costFollows {
			costFollows = false
			if inExcluded {
				// "<position> <cost>...": the first field is the call's line.
				f := strings.Fields(line)
				if len(f) < 2 {
					return d, fmt.Errorf("callgrind call cost line %q", line)
				}
				c, err := eventLine(events, strings.Join(f[1:], " "))
				if err != nil {
					return d, fmt.Errorf("callgrind call cost: %w", err)
				}
				for k, v := range c {
					d.Excluded[k] += v
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return d, err
	}
	if events == nil || d.Totals == nil {
		return d, fmt.Errorf("callgrind output has no events or totals line")
	}
	return d, nil
}

// eventLine reads space-separated counts in the order of events; callgrind
// leaves out trailing zeros.
func eventLine(events []string, s string) (Events, error) {
	f := strings.Fields(s)
	if len(f) > len(events) {
		return nil, fmt.Errorf("%d counts for %d events", len(f), len(events))
	}
	out := Events{}
	for i, name := range events {
		out[name] = 0
		if i < len(f) {
			v, err := strconv.ParseInt(f[i], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("count %q: %w", f[i], err)
			}
			out[name] = v
		}
	}
	return out, nil
}
