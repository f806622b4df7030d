/**
 * Statements that turn the published Parquet files into tables, and the derived table
 * cell_status every chart query reads. All aggregation lives here and in charts.ts, in SQL.
 */
import { LAZY_COLUMNS, lazyTable, OPTIONAL_COLUMNS, SCHEMA, storedName, type TableName, tableFile } from './schema';
import { COUNT_REPEATS, COUNTED_METRICS, LATENCY_METRICS, type Metric, MIN_TIME_SECONDS, RPS } from '../vocabulary';
import { query, type Query } from './query';
import { depColumnsQuery } from './releaseCauses';

/**
 * Makes one table readable: a view over its registered Parquet file with the documented columns
 * cast to the documented types (DuckDB binds it at once, so a missing column fails here), or an
 * empty table of that shape when the collector has not written the file yet. Views, not copies:
 * the derived tables below read each file once, and nothing else reads the large ones at start.
 * builds, runs, results and the redone runs and results are created as all_<table> (storedName).
 * With `split`, the registered file is the table's lean file (without its LAZY_COLUMNS): the
 * view takes those from lazy.<name> (lazyTable), created empty here and filled when asked for.
 */
export function createTableSql(table: TableName, hasFile: boolean, split = false): string {
  const columns = Object.entries(SCHEMA[table]);
  const name = storedName(table);
  if (!hasFile) return `CREATE OR REPLACE TABLE ${name} (${columns.map(([column, type]) => `"${column}" ${type}`).join(', ')})`;
  const lazy = split ? LAZY_COLUMNS[table] : undefined;
  if (!lazy) {
    const select = columns.map(([column, type]) => `"${column}"::${type} AS "${column}"`).join(', ');
    return `CREATE OR REPLACE VIEW ${name} AS SELECT ${select} FROM ${readFileSql(table, columns)}`;
  }
  const from = (column: string) => (lazy.columns.includes(column) ? 'z' : 'l');
  const select = columns.map(([column, type]) => `${from(column)}."${column}"::${type} AS "${column}"`).join(', ');
  const lean = columns.filter(([column]) => !lazy.columns.includes(column));
  const lazyColumns = [...lazy.key.map((k) => `"${k}" VARCHAR`), ...lazy.columns.map((c) => `"${c}" ${SCHEMA[table][c] ?? 'VARCHAR'}`)];
  return `CREATE SCHEMA IF NOT EXISTS lazy;
CREATE OR REPLACE TABLE ${lazyTable(table)} (${lazyColumns.join(', ')});
CREATE OR REPLACE VIEW ${name} AS SELECT ${select} FROM ${readFileSql(table, lean)} l
LEFT JOIN ${lazyTable(table)} z ON ${lazy.key.map((k) => `z."${k}" = l."${k}"`).join(' AND ')}`;
}

/**
 * The table's registered file as a FROM item with `columns`. An optional column (OPTIONAL_COLUMNS)
 * the file lacks comes from the empty side of a union, as NULL; a required one it lacks still fails
 * to bind. (A lateral reference to an outer NULL does the same but made every query of results ~5x
 * slower in DuckDB 0.9.)
 */
function readFileSql(table: TableName, columns: [string, string][]): string {
  const file = `read_parquet('${tableFile(table)}')`;
  const optional = (OPTIONAL_COLUMNS[table] ?? []).filter((column) => columns.some(([c]) => c === column));
  if (!optional.length) return file;
  const defaults = optional.map((column) => `NULL::${SCHEMA[table][column] ?? 'VARCHAR'} AS "${column}"`).join(', ');
  return `(SELECT ${defaults} WHERE false UNION ALL BY NAME SELECT * FROM ${file})`;
}

/** Fills a split table's lazy table (createTableSql) from `file`, the registered lazy file. */
export function fillLazySql(table: TableName, file: string): string {
  const lazy = LAZY_COLUMNS[table];
  if (!lazy) throw new Error(`${table} has no lazy columns`);
  const select = [...lazy.key.map((k) => `"${k}"::VARCHAR`), ...lazy.columns.map((c) => `"${c}"::${SCHEMA[table][c] ?? 'VARCHAR'}`)];
  return `INSERT INTO ${lazyTable(table)} SELECT ${select.join(', ')} FROM read_parquet('${file}')`;
}

/**
 * The CPU other processes used during a run, percent of one CPU: the leading "others:N" of the
 * runs.other_cpu column `column` (NULL when not recorded).
 */
export const othersPercentSql = (column: string): string =>
  `TRY_CAST(regexp_extract(${column}, '^others:([0-9.]+)', 1) AS DOUBLE)`;

/**
 * Whether a plan row is an extended configuration (plan.extended: -O3, -O3 -flto, ...); NULL, from
 * plans written before the column, which held only the reference configurations, is not.
 */
export const EXTENDED_SQL = 'coalesce(extended, false)';

/**
 * The view `plan` every query reads: the published plan (all_plan) with the reference
 * configurations only, or with the extended ones too (`extended`); and the counted instrument's
 * tables (counts, count_runs, count_runs_superseded) as views of those cells. The page shows one
 * or the other, as it shows one hardware class (builds, runs and results: hardwareViewsSql with
 * plannedOnly), so no query needs a condition of its own.
 */
export function planViewsSql(extended: boolean): string {
  const planned = extended ? '' : ' WHERE cell_id IN (SELECT cell_id FROM plan)';
  return [
    `CREATE OR REPLACE VIEW plan AS SELECT * FROM all_plan${extended ? '' : ` WHERE NOT ${EXTENDED_SQL}`}`,
    ...(['counts', 'count_runs', 'count_runs_superseded'] as const).map((t) => `CREATE OR REPLACE VIEW ${t} AS SELECT * FROM ${storedName(t)}${planned}`),
  ].join(';\n');
}

/**
 * One row of the catalog: a planned version, a compiler, a configuration (in plan order), a chart
 * (mode and test), or a version's rounds in a precision mode on the class shown.
 */
export interface CatalogRow {
  /**
   * 'other': a version that is not current (also listed as a 'version'); 'extended': an extended
   * configuration of the published plan, shown or not (name its flag set, mode its compiler);
   * 'dep': a builds column holding a bundled dependency's version (src/sql/releaseCauses.ts).
   */
  kind: 'version' | 'other' | 'compiler' | 'config' | 'extended' | 'chart' | 'rounds' | 'counted' | 'measured' | 'dep';
  /** The version, compiler, configuration's flag set, test, or the rounds' version. */
  name: string;
  /** The chart's or the rounds' mode, the configuration's compiler; null for the other kinds. */
  mode: string | null;
  /**
   * Position: the version's ord, the compiler's index, the configuration's plan position or the
   * test's index (a precision mode's charts after every reference mode's); the rounds' count.
   */
  ord: number;
}

/** Orders a precision mode's charts after the reference modes' (a test index is below this). */
export const PRECISION_CHART_ORDER = 100000;

/**
 * Aggregate over a version's plan rows: whether it is a current version (plan.current; NULL, from
 * plans written before the column, which held only current versions, counts as current).
 */
const CURRENT_SQL = 'coalesce(bool_and("current"), true)';

/**
 * The versions table: version -> ord (0 = oldest) and current (the matrix's default set), first taken from the collector's
 * plan.version_index, so that page load needs no extra trip. The caller checks it against
 * compareVersions (and ords 0, 1, 2, ...) and replaces the table with versionsTableSql when they
 * disagree (e.g. shards merged from configs that list versions differently).
 */
export const PLAN_VERSIONS_SQL = `CREATE OR REPLACE TABLE versions AS
SELECT version, min(version_index)::INTEGER AS ord, ${CURRENT_SQL} AS current FROM plan GROUP BY version`;

/**
 * What the data holds: versions in the versions table's order, compilers and configurations in
 * plan order, charts in test order (the reference modes' first, then the precision modes'), and
 * the rounds each version has in each precision mode on the class shown.
 */
export function catalogQuery(): Query<CatalogRow> {
  return query(
    `SELECT 'version' AS kind, version AS name, NULL::VARCHAR AS mode, ord FROM versions
     UNION ALL SELECT 'other', version, NULL, ord FROM versions WHERE NOT current
     UNION ALL SELECT 'compiler', compiler, NULL, min(compiler_index)::INTEGER FROM plan GROUP BY compiler
     UNION ALL SELECT 'config', flag_set, compiler, min(compiler_index * 1000 + flag_index)::INTEGER FROM plan GROUP BY compiler, flag_set
     UNION ALL SELECT 'extended', flag_set, compiler, min(compiler_index * 1000 + flag_index)::INTEGER FROM all_plan WHERE ${EXTENDED_SQL} GROUP BY compiler, flag_set
     UNION ALL SELECT 'chart', test, mode, min(test_index + CASE WHEN protocol = 'precision' THEN ${PRECISION_CHART_ORDER} ELSE 0 END)::INTEGER
       FROM cell_status GROUP BY test, mode
     UNION ALL SELECT 'rounds', version, mode, count(DISTINCT repeat)::INTEGER FROM runs WHERE round_seed IS NOT NULL GROUP BY version, mode
     UNION ALL SELECT 'counted', p.version, NULL, min(v.ord) FROM counts c JOIN plan p USING (cell_id) JOIN versions v ON v.version = p.version
       WHERE c.status = 'ok' GROUP BY p.version
     UNION ALL SELECT 'measured', p.version, NULL, min(v.ord) FROM runs r JOIN plan p USING (cell_id) JOIN versions v ON v.version = p.version
       WHERE r.round_seed IS NULL AND r.status <> 'server_failed' GROUP BY p.version
     UNION ALL SELECT 'dep', column_name, NULL, 0 FROM (${depColumnsQuery().sql})
     ORDER BY kind, ord, name, mode`,
  );
}

/** Replaces the versions table with this release order (0 = oldest). */
export function versionsTableSql(ordered: readonly string[]): Query<never> {
  if (!ordered.length) return query(`CREATE OR REPLACE TABLE versions (version VARCHAR, ord INTEGER, current BOOLEAN)`);
  const rows = ordered.map(() => '(?, ?::INTEGER)').join(', ');
  return query(
    `CREATE OR REPLACE TABLE versions AS SELECT t.version, t.ord, c.current FROM (VALUES ${rows}) AS t(version, ord)
     JOIN (SELECT version, ${CURRENT_SQL} AS current FROM plan GROUP BY version) c ON c.version = t.version`,
    ordered.flatMap((version, ord) => [version, ord]),
  );
}

/**
 * Why a cell, mode and test has a figure or none, from its repeats' statistics (alias `stats`:
 * ok_repeats, unsupported, cell_id NULL when nothing ran), whether its build failed and whether
 * its server failed: the first that holds of ok, unsupported, failed, build_failed,
 * server_failed, else not_collected.
 */
const statusSql = (stats: string, buildFailed: string, serverFailed: string): string => `CASE
         WHEN ${stats}.ok_repeats > 0 THEN 'ok'
         WHEN ${stats}.unsupported THEN 'unsupported'
         WHEN ${stats}.cell_id IS NOT NULL THEN 'failed'
         WHEN ${buildFailed} THEN 'build_failed'
         WHEN ${serverFailed} THEN 'server_failed'
         ELSE 'not_collected'
       END`;

/**
 * Score steps per unit of `metric` (1 / its resolution): a score is round(best × steps) × 10000
 * plus the configuration's order, an exact integer in a DOUBLE while round(best × steps) stays
 * below 9 × 10^11 (90 million requests/s at 100 steps; 900,000 misses per request at 10^6).
 */
function scoreSteps(metric: Metric): number {
  return Math.round(1 / metric.resolution);
}

const pickBuild = (column: string): string =>
  `arg_max(${column}, (status = 'ok')::BIGINT * 10000000000000 + epoch_ms(finished_at))`;

/**
 * cell_status: one row per planned cell x mode x test (tests as the client printed them), with
 * the cell's figures over its repeats and a status saying why there is no figure:
 *   ok            at least one repeat measured the test
 *   unsupported   the server rejected the command (e.g. XADD before 5.0)
 *   failed        the test errored, crashed or timed out in every repeat (reason = the error)
 *   build_failed  the cell did not build (reason = the build's error)
 *   server_failed the server did not start, crashed or hung in this mode
 *   not_collected nothing measured yet for this cell and mode (on the selected hardware: a
 *                 cell built and measured only on other machines is not collected here)
 * The modes are the plan's (protocol 'reference') and the precision modes, those of any machine's
 * runs with a round (runs.round_seed: protocol 'precision'), planned for every cell.
 * The figure (best_value) is the best repeat in a reference mode and the geometric mean over the
 * rounds in a precision mode; worst_value is the worst repeat or round, cv the coefficient of
 * variation of the repeats or rounds (sample standard deviation over mean; NULL with fewer than
 * two). A precision mode's planned_repeats is the most rounds any version has in it on the class.
 * busy_pct and steal_pct are how busy the machine was while the cell was measured in the mode (see
 * run_counts). band_floor, the floor of the noise bands (src/sql/noise.ts), is 0: requests/second
 * has no rebuild band. short_rounds counts the repeats or rounds that lasted less than the
 * precision modes' min_time (requests / rps under MIN_TIME_SECONDS; 0 in a reference mode, whose
 * results have no requests).
 * `score` ranks the configurations of a version for picking its winner: the figure to the
 * cent (as redis-benchmark prints it), ties broken by compiler then flag-set order. It is an
 * exact integer in a DOUBLE (below 2^53 up to 90 million requests/s), so max() and arg_max()
 * pick one winner everywhere without a window function (which DuckDB-WASM runs slowly cold).
 * One statement: each extra statement costs a round trip and cold-code time at page load.
 */
/** A cell's figure in a mode: the best repeat (reference), the geometric mean over the rounds (precision). */
const FIGURE = "CASE WHEN cm.protocol = 'precision' THEN ts.mean_rps ELSE ts.best_rps END";

export const CELL_STATUS_SQL = `CREATE OR REPLACE TABLE cell_status AS
WITH tests AS (
  -- Every machine's tests: each hardware class gets the same charts, its missing figures marked.
  SELECT test, min(test_index)::INTEGER AS test_index FROM all_results GROUP BY test
),
precision_modes AS (
  SELECT DISTINCT mode FROM all_runs WHERE round_seed IS NOT NULL
),
planned AS (
  SELECT cell_id, version, compiler, flag_set, compiler_index::INTEGER AS compiler_index,
         flag_index::INTEGER AS flag_index, repeats::INTEGER AS planned_repeats, modes
  FROM plan
),
rounds AS (
  SELECT mode, max(n)::INTEGER AS n FROM (SELECT mode, version, count(DISTINCT repeat) AS n FROM runs WHERE round_seed IS NOT NULL GROUP BY mode, version) GROUP BY mode
),
cell_modes AS (
  SELECT * EXCLUDE (modes), 'reference' AS protocol FROM (SELECT *, trim(unnest(string_split(modes, ','))) AS mode FROM planned)
  WHERE mode NOT IN (SELECT mode FROM precision_modes)
  UNION ALL
  SELECT p.* EXCLUDE (modes, planned_repeats), coalesce(r.n, 0) AS planned_repeats, m.mode, 'precision' AS protocol
  FROM planned p CROSS JOIN precision_modes m LEFT JOIN rounds r ON r.mode = m.mode
),
build AS (
  -- A cell counts as built when any attempt succeeded; otherwise its latest failure explains it.
  -- The key ranks ok attempts above failed ones, then later above earlier (milliseconds < 1e13).
  SELECT cell_id, ${pickBuild('status')} AS build_status, ${pickBuild('error')} AS build_error,
         ${pickBuild('cc_version')} AS cc_version, ${pickBuild('cflags')} AS cflags,
         ${pickBuild('ldflags')} AS ldflags, ${pickBuild('compat_flags')} AS compat_flags
  FROM builds GROUP BY cell_id
),
run_counts AS (
  -- busy_pct: the most CPU (percent of one CPU) other processes used during any run of the cell
  -- in this mode, from other_cpu's leading "others:N" (NULL when not recorded); steal_pct: the
  -- most CPU the VM's host took during any of them (runs.steal_pct, NULL before collector 0.1.6).
  SELECT cell_id, mode, count(*) FILTER (WHERE status = 'server_failed')::INTEGER AS server_failed_runs,
         max(${othersPercentSql('other_cpu')}) AS busy_pct,
         max(steal_pct)::DOUBLE AS steal_pct
  FROM runs GROUP BY cell_id, mode
),
test_stats AS (
  SELECT cell_id, mode, test,
         max(rps)::DOUBLE AS best_rps,
         exp(avg(ln(rps)) FILTER (WHERE rps > 0))::DOUBLE AS mean_rps,
         min(rps)::DOUBLE AS min_rps,
         (stddev_samp(rps) / avg(rps))::DOUBLE AS cv,
         count(rps)::INTEGER AS ok_repeats,
         arg_max(p50_latency_ms, rps)::DOUBLE AS p50_ms,
         bool_or(status = 'unsupported') AS unsupported,
         min(error) FILTER (WHERE status <> 'ok') AS test_error,
         count(*) FILTER (WHERE requests / rps < ${MIN_TIME_SECONDS})::INTEGER AS short_rounds
  FROM results GROUP BY cell_id, mode, test
)
SELECT cm.cell_id, cm.version, cm.compiler, cm.flag_set, cm.compiler_index, cm.flag_index, cm.mode,
       t.test, t.test_index, cm.planned_repeats,
       ${statusSql('ts', "b.build_status = 'failed'", 'rc.server_failed_runs > 0')} AS status,
       ${FIGURE} AS best_value, ts.min_rps AS worst_value, coalesce(ts.ok_repeats, 0) AS ok_repeats, ts.p50_ms,
       coalesce(ts.test_error, b.build_error) AS reason,
       b.cc_version, b.cflags, b.ldflags, b.compat_flags, rc.busy_pct, rc.steal_pct,
       round(${FIGURE} * ${scoreSteps(RPS)}) * 10000 - (cm.compiler_index * 100 + cm.flag_index) AS score,
       cm.protocol, ts.cv, 0::DOUBLE AS band_floor, coalesce(ts.short_rounds, 0) AS short_rounds
FROM cell_modes cm
CROSS JOIN tests t
LEFT JOIN build b ON b.cell_id = cm.cell_id
LEFT JOIN run_counts rc ON rc.cell_id = cm.cell_id AND rc.mode = cm.mode
LEFT JOIN test_stats ts ON ts.cell_id = cm.cell_id AND ts.mode = cm.mode AND ts.test = t.test`;

/**
 * A counted metric's table (src/vocabulary.ts: ir_status, cycles_status, l1_status, ll_status,
 * branch_status): a view with cell_status's rows of the reference modes (every planned cell ×
 * mode × test) and columns, so every chart and section query reads any of them. best_value and
 * worst_value hold the lowest and the highest repeat of the metric's column of counts (a cost: the
 * lowest is the best), ok_repeats the repeats with a figure, planned_repeats the counting runs
 * recorded for the cell and mode (at least the protocol's COUNT_REPEATS). A status says why there is no figure as
 * cell_status's does, from the counting runs: unsupported, failed (every repeat errored, crashed
 * or timed out), server_failed (a counting run whose server did not start), build_failed (from
 * the builds), else not_collected; never a zero. A count does not depend on the machine: no load
 * figures (busy_pct, steal_pct and p50_ms are NULL). score ranks the cheapest first in steps of
 * the metric's resolution, ties broken by compiler then flag-set order (as cell_status's); cv is
 * NULL, short_rounds 0. band_floor is the metric's rebuild band (rebuild_bands, 0 without one): the floor of its
 * noise bands (src/sql/noise.ts).
 */
export function countStatusSql(metric: Metric): string {
  const column = metric.countColumn;
  if (!column) throw new Error(`${metric.id} is not a counted metric`);
  return `CREATE OR REPLACE VIEW ${metric.table} AS
WITH count_stats AS (
  SELECT cell_id, mode, test,
         min(${column})::DOUBLE AS best, max(${column})::DOUBLE AS worst, count(${column})::INTEGER AS ok_repeats,
         bool_or(status = 'unsupported') AS unsupported, min(error) FILTER (WHERE status <> 'ok') AS test_error
  FROM counts GROUP BY cell_id, mode, test
),
count_run_stats AS (
  SELECT cell_id, mode, count(DISTINCT repeat)::INTEGER AS repeats,
         count(*) FILTER (WHERE status = 'server_failed')::INTEGER AS server_failed_runs
  FROM count_runs GROUP BY cell_id, mode
)
SELECT s.cell_id, s.version, s.compiler, s.flag_set, s.compiler_index, s.flag_index, s.mode, s.test, s.test_index,
       greatest(coalesce(r.repeats, 0), ${COUNT_REPEATS})::INTEGER AS planned_repeats,
       ${statusSql('c', "s.status = 'build_failed'", 'r.server_failed_runs > 0')} AS status,
       CASE WHEN c.ok_repeats > 0 THEN c.best END AS best_value, CASE WHEN c.ok_repeats > 0 THEN c.worst END AS worst_value,
       coalesce(c.ok_repeats, 0) AS ok_repeats, NULL::DOUBLE AS p50_ms,
       CASE WHEN c.cell_id IS NOT NULL THEN c.test_error WHEN s.status = 'build_failed' THEN s.reason END AS reason,
       s.cc_version, s.cflags, s.ldflags, s.compat_flags, NULL::DOUBLE AS busy_pct, NULL::DOUBLE AS steal_pct,
       -round(c.best * ${scoreSteps(metric)}) * 10000 - (s.compiler_index * 100 + s.flag_index) AS score,
       s.protocol, NULL::DOUBLE AS cv, coalesce(f.band, 0)::DOUBLE AS band_floor, 0::INTEGER AS short_rounds
FROM cell_status s
LEFT JOIN count_stats c ON c.cell_id = s.cell_id AND c.mode = s.mode AND c.test = s.test
LEFT JOIN count_run_stats r ON r.cell_id = s.cell_id AND r.mode = s.mode
LEFT JOIN (SELECT max(band) AS band FROM rebuild_bands WHERE metric = '${column}') f ON true
-- Counts are of the reference modes' workloads: the precision modes have none.
WHERE s.protocol = 'reference'`;
}

/** Every counted metric's view (countStatusSql), as one script. */
export const COUNT_STATUS_SQL = COUNTED_METRICS.map(countStatusSql).join(';\n');

/**
 * A latency metric's table (src/vocabulary.ts: p50_status, p95_status, p99_status): a view with
 * cell_status's rows of the reference modes and its columns, so every chart and section query
 * reads it as it reads cell_status. best_value and worst_value hold the lowest and the highest repeat of
 * the metric's column of results (lower is better), ok_repeats the repeats with a figure; the
 * noise rule is requests/second's (the repeats' spread, band_floor 0: no rebuild band). A test
 * measured without a latency (a client that prints none) is not_collected with the reason "not
 * measured: this client prints no latency", a cell never measured on the hardware shown (counted
 * only, say) not_collected with "not measured yet": never a zero. score ranks the lowest first in
 * steps of the metric's resolution, ties broken by compiler then flag-set order; cv is NULL (the
 * precision modes, whose rounds cv describes, are judged in requests/second only).
 */
export function latencyStatusSql(metric: Metric): string {
  const column = metric.latencyColumn;
  if (!column) throw new Error(`${metric.id} is not a latency metric`);
  const unmeasured = "s.status = 'ok' AND coalesce(l.ok_repeats, 0) = 0";
  return `CREATE OR REPLACE VIEW ${metric.table} AS
WITH latency_stats AS (
  SELECT cell_id, mode, test, min(${column})::DOUBLE AS best, max(${column})::DOUBLE AS worst, count(${column})::INTEGER AS ok_repeats
  FROM results GROUP BY cell_id, mode, test
)
SELECT s.cell_id, s.version, s.compiler, s.flag_set, s.compiler_index, s.flag_index, s.mode, s.test, s.test_index, s.planned_repeats,
       CASE WHEN ${unmeasured} THEN 'not_collected' ELSE s.status END AS status,
       CASE WHEN l.ok_repeats > 0 THEN l.best END AS best_value, CASE WHEN l.ok_repeats > 0 THEN l.worst END AS worst_value,
       coalesce(l.ok_repeats, 0) AS ok_repeats, s.p50_ms,
       CASE WHEN ${unmeasured} THEN 'not measured: this client prints no latency' WHEN s.status = 'not_collected' THEN 'not measured yet' ELSE s.reason END AS reason,
       s.cc_version, s.cflags, s.ldflags, s.compat_flags, s.busy_pct, s.steal_pct,
       -round(l.best * ${scoreSteps(metric)}) * 10000 - (s.compiler_index * 100 + s.flag_index) AS score,
       s.protocol, NULL::DOUBLE AS cv, 0::DOUBLE AS band_floor, 0::INTEGER AS short_rounds
FROM cell_status s
LEFT JOIN latency_stats l ON l.cell_id = s.cell_id AND l.mode = s.mode AND l.test = s.test
-- The precision modes are judged in requests/second only (their rounds' statistics).
WHERE s.protocol = 'reference'`;
}

/** Every latency metric's view (latencyStatusSql), as one script. */
export const LATENCY_STATUS_SQL = LATENCY_METRICS.map(latencyStatusSql).join(';\n');

/**
 * The names whose mention in a query needs `table`'s lazy columns (LAZY_COLUMNS): the columns
 * themselves, and the metrics' views that read one of them (l1_status reads
 * counts.l1_misses_per_request, p95_status results.p95_latency_ms), since a query on a view does
 * not name the column it reads.
 */
export function lazyReaders(table: TableName): readonly string[] {
  const columns = LAZY_COLUMNS[table]?.columns ?? [];
  const metrics = table === 'counts' ? COUNTED_METRICS : table === 'results' ? LATENCY_METRICS : [];
  const views = metrics.filter((m) => columns.includes(m.countColumn ?? m.latencyColumn ?? '')).map((m) => m.table);
  return [...columns, ...views];
}
