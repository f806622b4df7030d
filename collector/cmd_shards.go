package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/redis-compiler-benchmarks/collector/internal/config"
	"github.com/redis-compiler-benchmarks/collector/internal/runner"
	"github.com/redis-compiler-benchmarks/collector/internal/shards"
	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// cmdShards prints the jobs the counting workflow (.github/workflows/count.yml)
// would start: the cells a count still needs, dealt to jobs of bounded time.
func cmdShards(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("shards", flag.ContinueOnError)
	fs.SetOutput(stderr)
	m := matrixFlags{counted: true}
	m.register(fs)
	l := shards.GitHubFree
	budget := fs.Duration("budget", time.Duration(l.Budget)*time.Second, "most a job may be estimated to take (GitHub-hosted: 6h per job)")
	overhead := fs.Duration("overhead", time.Duration(l.Overhead)*time.Second, "a job's time besides its cells: container, packages, checkouts, client")
	fs.IntVar(&l.MaxJobs, "max-jobs", l.MaxJobs, "most jobs the matrix may start (GitHub: 256)")
	fs.IntVar(&l.Concurrent, "concurrent", l.Concurrent, "jobs running at once (GitHub free plan: 20)")
	parallel := fs.Int("parallel", 0, "counting runs at once in a job (default: the config's count.parallel)")
	timesDir := fs.String("times", "", "dataset whose measured counting and build times estimate each cell (default: -data)")
	asJSON := fs.Bool("json", false, `print the workflow's matrix as JSON: {"include":[{"job":0,"cells":"id,id,...","hours":1.2},...]}`)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	cfg, cells, err := m.load()
	if err != nil {
		return err
	}
	d, err := store.Load(m.data)
	if err != nil {
		return err
	}
	l.Budget, l.Overhead, l.Parallel = budget.Seconds(), overhead.Seconds(), cfg.Count.Parallel
	if *parallel > 0 {
		l.Parallel = *parallel
	}
	td := d
	if *timesDir != "" {
		if td, err = store.Load(*timesDir); err != nil {
			return err
		}
	}
	times := shards.Measure(td)
	if times.Of("").Runs == 0 {
		return fmt.Errorf("no counting runs in %s to estimate from: give -times DIR (e.g. public/data)", m.data)
	}
	missing := missingCells(cfg, cells, d)
	plan, err := shards.Divide(missing, times, l)
	if err != nil {
		return err
	}
	if *asJSON {
		return printShardsJSON(stdout, plan)
	}
	printShards(stdout, plan, len(missing), l)
	return nil
}

// missingCells are the cells of cells, in collection order, with counting
// runs still to do (a cell whose build failed has none).
func missingCells(cfg *config.Config, cells []config.Cell, d *store.Data) []config.Cell {
	var out []config.Cell
	for _, t := range runner.PendingCounts(cfg.InCollectionOrder(cells), cfg.Count.Modes, cfg.Count.Repeats, d, false) {
		if k := len(out); k == 0 || out[k-1].ID() != t.Cell.ID() {
			out = append(out, t.Cell)
		}
	}
	return out
}

// shardJob is one entry of the workflow's matrix.
type shardJob struct {
	Job   int     `json:"job"`
	Cells string  `json:"cells"`
	Count int     `json:"count"`
	Hours float64 `json:"hours"`
}

func printShardsJSON(w io.Writer, plan shards.Plan) error {
	include := []shardJob{}
	for i, j := range plan.Jobs {
		var ids []string
		for _, c := range j.Cells {
			ids = append(ids, c.ID())
		}
		include = append(include, shardJob{Job: i, Cells: strings.Join(ids, ","), Count: len(ids), Hours: round2(j.Seconds / 3600)})
	}
	b, err := json.Marshal(map[string][]shardJob{"include": include})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}

func printShards(w io.Writer, plan shards.Plan, missing int, l shards.Limits) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "JOB\tCELLS\tHOURS\tVERSIONS")
	lo, hi, longest := 0, 0, 0.0
	for i, j := range plan.Jobs {
		fmt.Fprintf(tw, "%d\t%d\t%.2f\t%s\n", i, len(j.Cells), j.Seconds/3600, versionSpan(j.Cells))
		if i == 0 || len(j.Cells) < lo {
			lo = len(j.Cells)
		}
		hi, longest = max(hi, len(j.Cells)), max(longest, j.Seconds)
	}
	tw.Flush()
	if len(plan.Jobs) == 0 {
		fmt.Fprintln(w, "0 cells to count: no jobs")
		return
	}
	fmt.Fprintf(w, "%d cells to count in %d jobs (%d-%d cells each, %d counting runs at a time): %.1f runner hours, %.1f hours of wall time with %d jobs at once; longest job %.2f hours (budget %.1f)\n",
		missing, len(plan.Jobs), lo, hi, l.Parallel, plan.Seconds/3600, plan.Wall/3600, l.Concurrent, longest/3600, l.Budget/3600)
}

// versionSpan names the versions of cells: "7.4.1" or "2.6.0 ... 7.4.1 (5 versions)".
func versionSpan(cells []config.Cell) string {
	var vs []string
	for _, c := range cells {
		if len(vs) == 0 || vs[len(vs)-1] != c.Version {
			vs = append(vs, c.Version)
		}
	}
	switch len(vs) {
	case 1:
		return vs[0]
	case 2:
		return vs[0] + ", " + vs[1]
	}
	return fmt.Sprintf("%s ... %s (%d versions)", vs[0], vs[len(vs)-1], len(vs))
}

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }
