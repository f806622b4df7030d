package main

import "runtime/debug"

// Version is the collector's version, recorded with every build and machine.
const Version = "0.3.0"

func collectorVersion() string {
	v := Version
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += "+" + s.Value[:12]
			}
		}
	}
	return v
}
