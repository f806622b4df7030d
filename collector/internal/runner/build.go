package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// PendingBuilds are the cells of cells, in their order, that have no build
// usable here: every cell but those whose latest build failed (unless
// retryFailed), since a binary is kept only in the work directory that built
// it. Build skips the cells whose binary is at hand.
func PendingBuilds(cells []config.Cell, d *store.Data, retryFailed bool) []config.Cell {
	latest := LatestBuilds(d)
	var out []config.Cell
	for _, c := range cells {
		if b, ok := latest[c.ID()]; ok && b.Status != "ok" && !retryFailed {
			continue
		}
		out = append(out, c)
	}
	return out
}

// Build builds every cell of o.Cells in collection order whose binary is
// not in the work directory, and records each build (ok or failed, with its
// log tail and reason), saving after each; count and run then reuse the
// binaries. Cells whose latest build failed are left alone unless o.RetryFailed.
func Build(ctx context.Context, o Options) error {
	c, _, err := open(o)
	if err != nil {
		return err
	}
	if err := c.fillDeps(ctx); err != nil {
		return err
	}
	cells := PendingBuilds(o.Config.InCollectionOrder(o.Cells), c.data, o.RetryFailed)
	fmt.Fprintf(o.Log, "%d cells, %d to build unless their binary is at hand\n", len(o.Cells), len(cells))
	if o.Progress != nil {
		o.Progress.Start(len(cells))
		defer o.Progress.Finish()
	}
	failed := 0
	for i, cell := range cells {
		if err := ctx.Err(); err != nil {
			return err
		}
		_, _, summary, err := c.ensureBuild(ctx, cell)
		if errors.Is(err, errBuildFailed) {
			failed++
			err = nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", cell.ID(), err)
		}
		if summary == "" {
			summary = "binary at hand"
		}
		c.step(fmt.Sprintf("[%d/%d] %s: %s", i+1, len(cells), cell.ID(), summary))
	}
	fmt.Fprintf(o.Log, "done; %d of %d builds failed\n", failed, len(cells))
	return nil
}
