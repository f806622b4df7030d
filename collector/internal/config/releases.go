package config

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// releaseTag is a release's tag: x.y.z, no release candidate.
var releaseTag = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)

// ReleaseTags are the release versions among the refs of `git ls-remote
// --tags` output ("<sha>\trefs/tags/7.4.1", peeled "^{}" lines too), in
// release order, each once.
func ReleaseTags(lsRemote string) []string {
	seen := map[string]bool{}
	var out []string
	for _, line := range strings.Split(lsRemote, "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		tag := strings.TrimSuffix(strings.TrimPrefix(f[1], "refs/tags/"), "^{}")
		if releaseTag.MatchString(tag) && !seen[tag] {
			seen[tag] = true
			out = append(out, tag)
		}
	}
	slices.SortFunc(out, CompareVersions)
	return out
}

// AddReleases adds to a matrix file's text the releases of tags newer than its
// first release that it lacks, and makes the newest patch release of each line
// the line's current version. The redis-benchmark client stays the one the
// matrix had (a new client would count every server differently): when the
// file does not name it, a client_version line pins it under [benchmark].
// It returns the new text and the versions added, in release order; the rest
// of the text (comments, other settings) is kept as it is.
func AddReleases(text string, tags []string) (string, []string, error) {
	cfg, err := Parse(text, "matrix")
	if err != nil {
		return "", nil, err
	}
	releases := cfg.ReleaseList()
	if len(releases) == 0 {
		return "", nil, fmt.Errorf("the matrix lists no versions")
	}
	var added []string
	for _, t := range tags {
		if CompareVersions(t, releases[0]) > 0 && !slices.Contains(releases, t) {
			added = append(added, t)
		}
	}
	if len(added) == 0 {
		return text, nil, nil
	}
	slices.SortFunc(added, CompareVersions)
	all := slices.SortedFunc(slices.Values(append(slices.Clone(releases), added...)), CompareVersions)
	current := newestPerLine(all)
	out, err := replaceArray(text, "versions", formatVersions(current))
	if err != nil {
		return "", nil, err
	}
	if len(cfg.Releases) > 0 {
		if out, err = replaceArray(out, "releases", formatReleases(all)); err != nil {
			return "", nil, err
		}
	}
	if !regexp.MustCompile(`(?m)^client_version\s*=`).MatchString(out) {
		if out, err = pinClient(out, cfg.Bench.ClientVersion); err != nil {
			return "", nil, err
		}
	}
	if _, err := Parse(out, "matrix with new releases"); err != nil {
		return "", nil, err
	}
	return out, added, nil
}

// newestPerLine is the newest release of each line (x.y) of releases, in
// release order.
func newestPerLine(releases []string) []string {
	var out []string
	for i, v := range releases {
		if i+1 == len(releases) || MinorLine(releases[i+1]) != MinorLine(v) {
			out = append(out, v)
		}
	}
	return out
}

// replaceArray replaces the array of the top-level key name with value.
func replaceArray(text, name, value string) (string, error) {
	re := regexp.MustCompile(`(?ms)^` + name + ` = \[.*?\]`)
	if !re.MatchString(text) {
		return "", fmt.Errorf("matrix file: no %s = [...] to rewrite", name)
	}
	return re.ReplaceAllLiteralString(text, name+" = "+value), nil
}

// formatVersions writes the current versions as matrix.toml does: six a
// line, continuation lines under the first.
func formatVersions(vs []string) string {
	var rows []string
	for i := 0; i < len(vs); i += 6 {
		rows = append(rows, quoteAll(vs[i:min(i+6, len(vs))]))
	}
	return "[" + strings.Join(rows, ",\n            ") + "]"
}

// formatReleases writes the releases as matrix.toml does: a line's releases
// together, nine a row.
func formatReleases(vs []string) string {
	var rows []string
	for i := 0; i < len(vs); {
		j := i
		for j < len(vs) && MinorLine(vs[j]) == MinorLine(vs[i]) {
			j++
		}
		for k := i; k < j; k += 9 {
			rows = append(rows, "    "+quoteAll(vs[k:min(k+9, j)]))
		}
		i = j
	}
	return "[\n" + strings.Join(rows, ",\n") + "\n]"
}

func quoteAll(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = `"` + v + `"`
	}
	return strings.Join(q, ", ")
}

// pinClient names client in a client_version line under [benchmark].
func pinClient(text, client string) (string, error) {
	const header = "[benchmark]\n"
	i := strings.Index(text, header)
	if i < 0 {
		return "", fmt.Errorf("matrix file: no [benchmark] table to pin the client version in")
	}
	line := "# The one redis-benchmark client, pinned when new releases were added (a\n# new client would count every server differently).\nclient_version = \"" + client + "\"\n"
	return text[:i+len(header)] + line + text[i+len(header):], nil
}
