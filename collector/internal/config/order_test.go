package config

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// placed writes an order as "version:phase" words, phases by their first letter.
func placed(order []Placed) string {
	var words []string
	for _, p := range order {
		words = append(words, p.Version+":"+p.Phase[:1])
	}
	return strings.Join(words, " ")
}

// line is the releases x.y.0 ... x.y.(n-1).
func line(xy string, n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, fmt.Sprintf("%s.%d", xy, i))
	}
	return out
}

func TestCollectionOrder(t *testing.T) {
	tests := []struct {
		name              string
		releases, current []string
		want              string
	}{
		{"current versions alone keep release order", []string{"2.6.17", "7.4.1"}, []string{"2.6.17", "7.4.1"},
			"2.6.17:c 7.4.1:c"},
		{"current, then each line's first release, then the midpoint of the one gap",
			line("1.0", 5), []string{"1.0.4"},
			"1.0.4:c 1.0.0:f 1.0.2:b 1.0.1:b 1.0.3:b"},
		{"a gap's midpoint rounds down; then the larger half, then the older of equal halves",
			line("1.0", 8), []string{"1.0.7"},
			"1.0.7:c 1.0.0:f 1.0.3:b 1.0.5:b 1.0.1:b 1.0.2:b 1.0.4:b 1.0.6:b"},
		{"the largest gap over every line goes first, so a long line is bisected more",
			append(line("1.0", 9), line("1.2", 5)...), []string{"1.0.8", "1.2.4"},
			"1.0.8:c 1.2.4:c 1.0.0:f 1.2.0:f 1.0.4:b 1.0.2:b 1.0.6:b 1.2.2:b 1.0.1:b 1.0.3:b 1.0.5:b 1.0.7:b 1.2.1:b 1.2.3:b"},
		{"a line without a current version is bisected up to its end",
			append(line("1.0", 2), line("1.2", 4)...), []string{"1.0.1"},
			"1.0.1:c 1.0.0:f 1.2.0:f 1.2.2:b 1.2.1:b 1.2.3:b"},
		{"two releases a line: nothing to bisect", append(line("1.0", 2), line("1.2", 2)...), []string{"1.0.1", "1.2.1"},
			"1.0.1:c 1.2.1:c 1.0.0:f 1.2.0:f"},
		{"a current version that is a line's first release is placed once", []string{"1.0.0", "1.0.1", "1.0.2"}, []string{"1.0.0"},
			"1.0.0:c 1.0.1:b 1.0.2:b"},
		{"release candidates belong to their line", []string{"7.0-rc1", "7.0.0", "7.0.1", "7.0.2"}, []string{"7.0.2"},
			"7.0.2:c 7.0-rc1:f 7.0.0:b 7.0.1:b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CollectionOrder(tt.releases, tt.current)
			if placed(got) != tt.want {
				t.Errorf("order\n got %s\nwant %s", placed(got), tt.want)
			}
		})
	}
}

func TestCollectionOrderOfTheMatrix(t *testing.T) {
	c, err := Load("../../matrix.toml")
	if err != nil {
		t.Fatal(err)
	}
	order := c.CollectionOrder()
	if len(order) != 160 {
		t.Fatalf("%d versions in the order, want 160", len(order))
	}
	seen := map[string]bool{}
	for _, p := range order {
		if seen[p.Version] {
			t.Errorf("%s placed twice", p.Version)
		}
		seen[p.Version] = true
	}
	head := placed(order[:27])
	want := "2.6.17:c 2.8.24:c 3.0.7:c 3.2.13:c 4.0.14:c 5.0.14:c 6.0.20:c 6.2.16:c 7.0.15:c 7.2.6:c 7.4.1:c 8.0.6:c " +
		"2.6.0:f 2.8.0:f 3.0.0:f 3.2.0:f 4.0.0:f 5.0.0:f 6.0.0:f 6.2.0:f 7.0.0:f 7.2.0:f 7.4.0:f 8.0.2:f " +
		// 2.8 (25 releases) has the largest gap, 6.0 (21) the next, 2.6 (18) the third.
		"2.8.12:b 6.0.10:b 2.6.8:b"
	if head != want {
		t.Errorf("order starts\n %s\nwant\n %s", head, want)
	}
}

func TestInCollectionOrder(t *testing.T) {
	c := Config{Versions: []string{"1.0.2"}, Releases: line("1.0", 3),
		Compilers: []Compiler{{Name: "gcc"}, {Name: "clang"}}, FlagSets: []FlagSet{{Name: "-O2"}}}
	var got []string
	for _, cell := range c.InCollectionOrder(c.Cells()) {
		got = append(got, cell.ID())
	}
	want := []string{"1.0.2|gcc|-O2", "1.0.2|clang|-O2", "1.0.0|gcc|-O2", "1.0.0|clang|-O2", "1.0.1|gcc|-O2", "1.0.1|clang|-O2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cells in collection order = %q, want %q", got, want)
	}
}

func TestCompareVersions(t *testing.T) {
	ordered := []string{"2.6.0", "2.6.2", "2.6.10", "2.8.0", "7.0-rc1", "7.0.0-rc2", "7.0", "7.0.1", "10.0.0", "nightly", "unstable"}
	for i, a := range ordered {
		for j, b := range ordered {
			got := CompareVersions(a, b)
			if (i < j) != (got < 0) || (i == j) != (got == 0) {
				t.Errorf("CompareVersions(%q, %q) = %d", a, b, got)
			}
		}
	}
	if CompareVersions("7.0", "7.0.0") != 0 {
		t.Error("7.0 and 7.0.0 differ; a missing part counts as 0")
	}
}
