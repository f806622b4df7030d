package report

import (
	"fmt"
	"io"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// RebuildBands prints each counted metric's rebuild band (docs/method.md,
// "Rebuild bands"), the noise floor of its verdicts, one line per metric.
func RebuildBands(w io.Writer, bands []store.RebuildBand) {
	for _, b := range bands {
		fmt.Fprintf(w, "rebuild band: %s\n", b)
	}
}
