package runner

import (
	"reflect"
	"testing"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

func TestPendingBuildsSkipFailedBuildsUnlessRetried(t *testing.T) {
	c := testConfig(t)
	f := &fixture{d: &store.Data{}}
	f.build("2.6.17|gcc|-O2", "failed")
	f.build("7.4.1|gcc|-O2", "ok")
	ids := func(cells []config.Cell) (out []string) {
		for _, c := range cells {
			out = append(out, c.ID())
		}
		return out
	}
	if got := ids(PendingBuilds(c.Cells(), f.d, false)); !reflect.DeepEqual(got, []string{"2.6.17|gcc|-O2 -flto", "7.4.1|gcc|-O2", "7.4.1|gcc|-O2 -flto"}) {
		t.Errorf("pending builds = %q: the failed one left out, the built one kept (its binary may not be at hand)", got)
	}
	if got := PendingBuilds(c.Cells(), f.d, true); len(got) != 4 {
		t.Errorf("with retry-failed, %d pending builds, want 4", len(got))
	}
}
