package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/redis-compiler-benchmarks/collector/internal/store"
)

// The published schema is written in four places: the Go table structs (the
// source: the collector writes them), docs/data-schema.md, the site's
// src/sql/schema.ts and the fixture generator's Parquet files. This test reads
// all four and fails, naming the table and column and what to add where, when
// they disagree.

// repoRoot is the repository, three folders above this package.
var repoRoot = filepath.Join("..", "..", "..")

// publishedTables maps each published table to the Go struct its rows are.
var publishedTables = map[string]any{
	"plan": store.Plan{}, "builds": store.Build{}, "runs": store.Run{}, "results": store.Result{}, "machines": store.Machine{},
	"redone_runs": store.RedoneRun{}, "redone_results": store.Result{}, "calibrations": store.Calibration{},
	"counts": store.Count{}, "count_runs": store.CountRun{}, "counts_superseded": store.Count{}, "count_runs_superseded": store.CountRun{},
	"rebuild_bands": store.RebuildBand{},
}

// siteSkipsTable lists the tables the site deliberately does not load.
var siteSkipsTable = map[string]string{
	"calibrations":      "evidence of the precision modes' request counts; each result carries its own (results.requests)",
	"counts_superseded": "counts of earlier protocols and of disturbed runs, kept as evidence; the page shows the superseded runs, not their counts",
}

// siteSkipsColumn lists the columns the site deliberately does not read, as
// "table.column": each with why.
var siteSkipsColumn = map[string]string{
	"runs.overhead_seconds":        "the collector's own time around a run; collector stats reports it, the page does not",
	"redone_runs.overhead_seconds": "as runs.overhead_seconds",
}

// column is one column as one place declares it. typ is DuckDB's name;
// nullable is unknown ("") where the place does not say.
type column struct {
	typ      string
	nullable string // "null", "not null" or "" (not stated)
}

// goColumns reads a struct's parquet tags, embedded structs inlined.
func goColumns(t reflect.Type) ([]string, map[string]column) {
	var order []string
	cols := map[string]column{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			o, c := goColumns(f.Type)
			order = append(order, o...)
			for k, v := range c {
				cols[k] = v
			}
			continue
		}
		tag, ok := f.Tag.Lookup("parquet")
		if !ok || tag == "-" {
			continue
		}
		parts := strings.Split(tag, ",")
		ft := f.Type
		nullable := "not null"
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
			nullable = "null"
		}
		for _, p := range parts[1:] {
			if p == "optional" {
				nullable = "null"
			}
		}
		order = append(order, parts[0])
		cols[parts[0]] = column{duckType(ft), nullable}
	}
	return order, cols
}

// duckType is the DuckDB type DuckDB reads a Go field's Parquet column as.
func duckType(t reflect.Type) string {
	if t == reflect.TypeOf(time.Time{}) {
		return "TIMESTAMP"
	}
	switch t.Kind() {
	case reflect.String:
		return "VARCHAR"
	case reflect.Int32:
		return "INTEGER"
	case reflect.Int64:
		return "BIGINT"
	case reflect.Float64:
		return "DOUBLE"
	case reflect.Bool:
		return "BOOLEAN"
	}
	return "unknown Go type " + t.String()
}

// docTables reads docs/data-schema.md: each "## <table>.parquet" section's
// table of columns. A row names one or more columns ("a, b"), and its type
// cell holds one type for all, or one per column, then ", null" when the
// columns may be null. A row without a type ("| a, b | | as in counts |")
// takes the types of the table it names. The sections whose prose says "the
// same columns as" are derived here, as the prose says.
func docTables(t *testing.T, md string) map[string]map[string]column {
	t.Helper()
	tables := map[string]map[string]column{}
	heading := regexp.MustCompile(`^## ([a-z_]+)\.parquet`)
	row := regexp.MustCompile(`^\| ([a-z0-9_, ]+) \|\s*([A-Z, a-z]*?)\s*\| (.*)\|$`)
	asIn := regexp.MustCompile(`as in ([a-z_]+)`)
	current := ""
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "## ") {
			current = ""
			if m := heading.FindStringSubmatch(line); m != nil {
				current = m[1]
				if tables[current] == nil {
					tables[current] = map[string]column{}
				}
			}
			continue
		}
		m := row.FindStringSubmatch(line)
		if current == "" || m == nil || m[1] == "column" {
			continue
		}
		names := strings.Split(m[1], ", ")
		types := strings.Split(strings.TrimSpace(m[2]), ", ")
		nullable := "not null"
		if types[len(types)-1] == "null" {
			nullable = "null"
			types = types[:len(types)-1]
		}
		for i, name := range names {
			switch {
			case len(types) == 1 && types[0] == "":
				ref := asIn.FindStringSubmatch(m[3])
				if ref == nil {
					t.Fatalf("docs/data-schema.md, %s: the row %q has no type and names no table it is \"as in\"", current, line)
				}
				tables[current][name] = tables[ref[1]][name]
			case len(types) == len(names):
				tables[current][name] = column{types[i], nullable}
			case len(types) == 1:
				tables[current][name] = column{types[0], nullable}
			default:
				t.Fatalf("docs/data-schema.md, %s: the row %q gives %d types for %d columns", current, line, len(types), len(names))
			}
		}
	}
	// "redone_results has the columns of results; redone_runs those of runs plus: ..."
	for name, col := range tables["runs"] {
		tables["redone_runs"][name] = col
	}
	tables["redone_results"] = copyColumns(tables["results"])
	// "The same columns as count_runs and counts."
	tables["count_runs_superseded"] = copyColumns(tables["count_runs"])
	tables["counts_superseded"] = copyColumns(tables["counts"])
	return tables
}

func copyColumns(c map[string]column) map[string]column {
	out := map[string]column{}
	for k, v := range c {
		out[k] = v
	}
	return out
}

// siteTables reads src/sql/schema.ts: the SCHEMA object, whose tables are
// object literals of `name: 'TYPE'`, a constant defined above it (`RUNS`), or
// a literal that spreads one (`{ ...RUNS, redo_reason: 'VARCHAR' }`), and the
// OPTIONAL_COLUMNS lists.
func siteTables(t *testing.T, ts string) (map[string]map[string]column, map[string][]string) {
	t.Helper()
	ts = regexp.MustCompile(`(?m)^\s*//.*$`).ReplaceAllString(ts, "")
	consts := map[string]map[string]column{}
	for _, m := range regexp.MustCompile(`(?s)const ([A-Z_]+) = \{(.*?)\} as const;`).FindAllStringSubmatch(ts, -1) {
		consts[m[1]] = literalColumns(m[2], consts)
	}
	start := strings.Index(ts, "export const SCHEMA")
	if start < 0 {
		t.Fatal("src/sql/schema.ts has no `export const SCHEMA`")
	}
	body := ts[start:]
	body = body[strings.Index(body, "= {")+3 : strings.Index(body, "\n};")]
	tables := map[string]map[string]column{}
	entry := regexp.MustCompile(`(?s)([a-z_]+): (\{.*?\}|[A-Z_]+),`)
	for _, m := range entry.FindAllStringSubmatch(body, -1) {
		if strings.HasPrefix(m[2], "{") {
			tables[m[1]] = literalColumns(m[2], consts)
		} else {
			tables[m[1]] = copyColumns(consts[m[2]])
		}
	}
	optional := map[string][]string{}
	if i := strings.Index(ts, "export const OPTIONAL_COLUMNS"); i >= 0 {
		block := ts[i:]
		block = block[:strings.Index(block, "\n};")]
		for _, m := range regexp.MustCompile(`([a-z_]+): \[([^\]]*)\]`).FindAllStringSubmatch(block, -1) {
			for _, q := range regexp.MustCompile(`'([a-z0-9_]+)'`).FindAllStringSubmatch(m[2], -1) {
				optional[m[1]] = append(optional[m[1]], q[1])
			}
		}
	}
	return tables, optional
}

func literalColumns(body string, consts map[string]map[string]column) map[string]column {
	out := map[string]column{}
	for _, m := range regexp.MustCompile(`\.\.\.([A-Z_]+)`).FindAllStringSubmatch(body, -1) {
		for k, v := range consts[m[1]] {
			out[k] = v
		}
	}
	for _, m := range regexp.MustCompile(`([a-z0-9_]+): '([A-Z]+)'`).FindAllStringSubmatch(body, -1) {
		out[m[1]] = column{typ: m[2]}
	}
	return out
}

// fixtureColumns reads the column names of tests/fixtures/fixture-<table>.parquet.
func fixtureColumns(t *testing.T, table string) ([]string, bool) {
	t.Helper()
	path := filepath.Join(repoRoot, "tests", "fixtures", "fixture-"+table+".parquet")
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var names []string
	for _, field := range pf.Schema().Fields() {
		names = append(names, field.Name())
	}
	return names, true
}

func sorted[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func docType(c column) string {
	if c.nullable == "null" {
		return c.typ + ", null"
	}
	return c.typ
}

// schemaDisagreements lists, one line each, where docs/data-schema.md,
// src/sql/schema.ts and the fixtures disagree with the Go structs, each with
// what to add or change where.
func schemaDisagreements(t *testing.T, md, ts string) []string {
	var out []string
	doc := docTables(t, md)
	site, optional := siteTables(t, ts)
	for _, table := range sorted(publishedTables) {
		order, goCols := goColumns(reflect.TypeOf(publishedTables[table]))
		goName := reflect.TypeOf(publishedTables[table]).String()
		docCols, inDoc := doc[table]
		if !inDoc {
			out = append(out, fmt.Sprintf("%s: a published table (%s) with no section in docs/data-schema.md: add `## %s.parquet: ...` with a row per column", table, goName, table))
		}
		siteCols, inSite := site[table]
		if _, skip := siteSkipsTable[table]; !inSite && !skip {
			out = append(out, fmt.Sprintf("%s: a published table (%s) missing from src/sql/schema.ts SCHEMA (and TABLES): add it there, or to siteSkipsTable in %s with why", table, goName, "collector/internal/store/schema_test.go"))
		}
		for _, name := range order {
			g := goCols[name]
			if inDoc {
				d, ok := docCols[name]
				switch {
				case !ok:
					out = append(out, fmt.Sprintf("%s.%s: in %s (%s) but not in docs/data-schema.md: add the row `| %s | %s | <meaning> |` to its %s.parquet table", table, name, goName, docType(g), name, docType(g), table))
				case d.typ != g.typ:
					out = append(out, fmt.Sprintf("%s.%s: docs/data-schema.md says %s, %s writes %s: make the doc's type %s", table, name, d.typ, goName, g.typ, g.typ))
				case d.nullable != g.nullable:
					out = append(out, fmt.Sprintf("%s.%s: docs/data-schema.md says %q, %s writes it %s: make the doc's type cell `%s`", table, name, docType(d), goName, g.nullable, docType(g)))
				}
			}
			if inSite {
				s, ok := siteCols[name]
				_, skip := siteSkipsColumn[table+"."+name]
				switch {
				case !ok && !skip:
					hint := ""
					if g.nullable == "null" {
						hint = fmt.Sprintf(", and to OPTIONAL_COLUMNS.%s if files written before the column exist", table)
					}
					out = append(out, fmt.Sprintf("%s.%s: in %s (%s) but not in src/sql/schema.ts: add `%s: '%s'` to SCHEMA.%s%s, or list %q in siteSkipsColumn in collector/internal/store/schema_test.go with why the site does not read it", table, name, goName, g.typ, name, g.typ, table, hint, table+"."+name))
				case ok && s.typ != g.typ:
					out = append(out, fmt.Sprintf("%s.%s: src/sql/schema.ts reads %s, %s writes %s: make it `%s: '%s'`", table, name, s.typ, goName, g.typ, name, g.typ))
				}
			}
		}
		for _, name := range sorted(docCols) {
			if _, ok := goCols[name]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: in docs/data-schema.md but no field of %s writes it: remove the row, or add the field", table, name, goName))
			}
		}
		for _, name := range sorted(siteCols) {
			if _, ok := goCols[name]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: in src/sql/schema.ts SCHEMA.%s but no field of %s writes it: remove it there, or add the field", table, name, table, goName))
			}
		}
		for _, name := range optional[table] {
			if g, ok := goCols[name]; ok && g.nullable != "null" {
				out = append(out, fmt.Sprintf("%s.%s: in src/sql/schema.ts OPTIONAL_COLUMNS (read as NULL when absent) but %s writes it not null", table, name, goName))
			}
		}
	}
	for _, key := range sorted(siteSkipsColumn) {
		table, name, _ := strings.Cut(key, ".")
		_, goCols := goColumns(reflect.TypeOf(publishedTables[table]))
		if _, ok := goCols[name]; !ok {
			out = append(out, fmt.Sprintf("%s: in siteSkipsColumn (collector/internal/store/schema_test.go) but no Go table writes it: remove the entry", key))
		} else if _, ok := site[table][name]; ok {
			out = append(out, fmt.Sprintf("%s: in siteSkipsColumn (collector/internal/store/schema_test.go) but src/sql/schema.ts reads it now: remove the entry", key))
		}
	}
	for _, table := range sorted(site) {
		if _, ok := publishedTables[table]; !ok {
			out = append(out, fmt.Sprintf("%s: in src/sql/schema.ts but not a published table: add it to publishedTables in collector/internal/store/schema_test.go with its Go struct", table))
		}
	}
	for _, table := range sorted(doc) {
		if _, ok := publishedTables[table]; !ok {
			out = append(out, fmt.Sprintf("%s: a section of docs/data-schema.md but not a published table: add it to publishedTables in collector/internal/store/schema_test.go with its Go struct", table))
		}
	}
	return out
}

func TestThePublishedSchemaAgreesInTheGoTablesTheDocAndTheSite(t *testing.T) {
	for _, line := range schemaDisagreements(t, read(t, "docs/data-schema.md"), read(t, "src/sql/schema.ts")) {
		t.Error(line)
	}
}

func TestTheFixturesHoldTheGoTablesColumns(t *testing.T) {
	for _, table := range sorted(publishedTables) {
		names, ok := fixtureColumns(t, table)
		if !ok {
			continue
		}
		_, goCols := goColumns(reflect.TypeOf(publishedTables[table]))
		have := map[string]bool{}
		for _, n := range names {
			have[n] = true
			if _, ok := goCols[n]; !ok {
				t.Errorf("%s.%s: in tests/fixtures/fixture-%s.parquet but no field of the Go table writes it: remove it from tests/fixtures/make-fixtures.mjs and run `npm run fixtures`", table, n, table)
			}
		}
		for _, n := range sorted(goCols) {
			if _, skip := siteSkipsColumn[table+"."+n]; skip {
				continue // the site does not read it, so its fixtures need not hold it
			}
			if !have[n] && goCols[n].nullable != "null" {
				t.Errorf("%s.%s: written by the collector (not null) but missing from tests/fixtures/fixture-%s.parquet: add it in tests/fixtures/make-fixtures.mjs and run `npm run fixtures`", table, n, table)
			}
		}
	}
}

// The check finds a renamed column in each place it reads.
func TestSchemaDisagreementsNameTheTableAndColumn(t *testing.T) {
	md, ts := read(t, "docs/data-schema.md"), read(t, "src/sql/schema.ts")
	if got := schemaDisagreements(t, md, ts); len(got) != 0 {
		t.Skip("the schema disagrees already (the test above says where)")
	}
	cases := []struct {
		name, md, ts, want string
	}{
		{"doc", strings.Replace(md, "| binary_bytes | BIGINT |", "| binary_size | BIGINT |", 1), ts,
			"builds.binary_bytes: in store.Build (BIGINT) but not in docs/data-schema.md: add the row `| binary_bytes | BIGINT | <meaning> |`"},
		{"doc type", strings.Replace(md, "| steal_pct | DOUBLE, null |", "| steal_pct | BIGINT, null |", 1), ts,
			"runs.steal_pct: docs/data-schema.md says BIGINT, store.Run writes DOUBLE"},
		{"site", md, strings.Replace(ts, "binary_bytes: 'BIGINT'", "binary_size: 'BIGINT'", 1),
			"builds.binary_bytes: in store.Build (BIGINT) but not in src/sql/schema.ts: add `binary_bytes: 'BIGINT'` to SCHEMA.builds"},
		{"site, a spread constant", md, strings.Replace(ts, "steal_pct: 'DOUBLE'", "steal: 'DOUBLE'", 1),
			"redone_runs.steal_pct: in store.RedoneRun (DOUBLE) but not in src/sql/schema.ts"},
	}
	for _, c := range cases {
		got := strings.Join(schemaDisagreements(t, c.md, c.ts), "\n")
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: a renamed column gives\n%s\nwant a line containing\n%s", c.name, got, c.want)
		}
	}
}
