package report

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// printed is what a section of the report writes for d.
func printed(section func(io.Writer, *store.Data), d *store.Data) string {
	var b bytes.Buffer
	section(&b, d)
	return b.String()
}

// expectLines fails t for each of want that out does not contain.
func expectLines(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("missing %q in:\n%s", w, out)
		}
	}
}

// expectPrinted fails t unless section writes exactly want for d.
func expectPrinted(t *testing.T, section func(io.Writer, *store.Data), d *store.Data, want string) {
	t.Helper()
	if got := printed(section, d); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
