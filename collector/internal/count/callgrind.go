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

// Profile is what one callgrind dump says of each function: the
// instructions executed in its own code (self Ir) and how many times it was
// called, by function name, with the dump's trigger and totals, and the
// inclusive cost of the calls to one function asked for.
type Profile struct {
	Trigger string
	Totals  Events
	// TotalsLine is the dump's totals line as callgrind wrote it (evidence).
	TotalsLine string
	// Events names the events in callgrind's order (Ir first).
	Events []string
	Self   map[string]int64
	Calls  map[string]int64
	// CallCost is the inclusive cost of every call to the function
	// ParseProfile was asked about, summed.
	CallCost Events
}

// ParseProfile reads a callgrind output file (format version 1, names
// compressed as callgrind writes them). Callgrind gives each call line
// ("calls=N target" followed by a cost line) the callee's inclusive cost, so
// a call's cost is the whole cost of that function and everything it called,
// however the compiler inlined the code around it; it is not the caller's
// own. Every other cost line belongs to the function of the last "fn=".
// Only the calls to costOf have their cost read ("" for none): a call still
// in progress in another thread can carry a cost callgrind wrote wrapped
// around below zero.
func ParseProfile(r io.Reader, costOf string) (Profile, error) {
	p := Profile{Self: map[string]int64{}, Calls: map[string]int64{}, CallCost: Events{}}
	ids := map[string]string{}
	positions, ir := 1, -1
	fn, callee, callCost := "", "", false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "positions:"):
			positions = len(strings.Fields(strings.TrimPrefix(line, "positions:")))
			continue
		case strings.HasPrefix(line, "events:"):
			p.Events = strings.Fields(strings.TrimPrefix(line, "events:"))
			for i, e := range p.Events {
				if e == "Ir" {
					ir = i
				}
			}
			continue
		case strings.HasPrefix(line, "desc: Trigger:"):
			p.Trigger = strings.TrimSpace(strings.TrimPrefix(line, "desc: Trigger:"))
			continue
		case strings.HasPrefix(line, "totals:"):
			t, err := eventLine(p.Events, strings.TrimPrefix(line, "totals:"))
			if err != nil {
				return p, fmt.Errorf("callgrind totals: %w", err)
			}
			p.Totals, p.TotalsLine = t, line
			continue
		case strings.HasPrefix(line, "calls="):
			f := strings.Fields(strings.TrimPrefix(line, "calls="))
			n, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				return p, fmt.Errorf("callgrind calls line %q: %w", line, err)
			}
			p.Calls[callee] += n
			callCost = true
			continue
		}
		if m := fnLine.FindStringSubmatch(line); m != nil {
			if m[2] != "" {
				ids[m[1]] = m[2]
			}
			// A call line's callee is the last cfn= before it.
			if strings.HasPrefix(line, "cfn=") {
				callee = ids[m[1]]
			} else {
				fn = ids[m[1]]
			}
			continue
		}
		if c := line[0]; !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '*') {
			continue // ob=, fl=, fi=, fe=, desc:, summary: and the like
		}
		f := strings.Fields(line)
		if callCost {
			callCost = false
			if costOf == "" || callee != costOf {
				continue
			}
			if len(f) <= positions {
				return p, fmt.Errorf("callgrind call cost line %q", line)
			}
			c, err := eventLine(p.Events, strings.Join(f[positions:], " "))
			if err != nil {
				return p, fmt.Errorf("callgrind call cost: %w", err)
			}
			for k, v := range c {
				p.CallCost[k] += v
			}
			continue
		}
		if ir >= 0 && len(f) > positions+ir {
			n, err := strconv.ParseInt(f[positions+ir], 10, 64)
			if err != nil {
				return p, fmt.Errorf("callgrind cost line %q: %w", line, err)
			}
			p.Self[fn] += n
		}
	}
	if err := sc.Err(); err != nil {
		return p, err
	}
	if p.Events == nil || p.Totals == nil {
		return p, fmt.Errorf("callgrind output has no events or totals line")
	}
	return p, nil
}

// ParseDump reads a callgrind output file (ParseProfile) and gives the
// inclusive cost of every call to the function named exclude, summed.
func ParseDump(r io.Reader, exclude string) (Dump, error) {
	p, err := ParseProfile(r, exclude)
	return Dump{Trigger: p.Trigger, Totals: p.Totals, TotalsLine: p.TotalsLine, Excluded: p.CallCost, ExcludedCalls: p.Calls[exclude]}, err
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
