/**
 * Statements that turn the published Parquet files into tables, and the derived table
 * cell_status every chart query reads. All aggregation lives here and in charts.ts, in SQL.
 */
import { SCHEMA, type TableName, tableFile } from '../data/schema';
import { query, type Query } from './query';

/**
 * Creates one table: from its registered Parquet file, or empty with the documented columns when
 * the collector has not written that file yet.
 */
export function createTableSql(table: TableName, hasFile: boolean): string {
  if (hasFile) return `CREATE OR REPLACE TABLE ${table} AS SELECT * FROM read_parquet('${tableFile(table)}')`;
  const columns = Object.entries(SCHEMA[table]).map(([name, type]) => `"${name}" ${type}`);
  return `CREATE OR REPLACE TABLE ${table} (${columns.join(', ')})`;
}

/** Column names of every loaded table, for checking them against the schema. */
export function columnsQuery(): Query<{ table_name: string; column_name: string }> {
  return query(`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'main'`);
}

/** Every version the data names (plan, builds and results), to be put in release order by the caller. */
export function versionNamesQuery(): Query<{ version: string }> {
  return query(`SELECT version FROM plan UNION SELECT version FROM builds UNION SELECT version FROM results`);
}

/**
 * The versions table: version -> ord (0 = oldest), from a list already in release order, so that
 * SQL orders and filters versions by the same comparator the tests check.
 */
export function versionsTableSql(ordered: readonly string[]): Query<never> {
  if (!ordered.length) return query(`CREATE OR REPLACE TABLE versions (version VARCHAR, ord INTEGER)`);
  const rows = ordered.map(() => '(?, ?::INTEGER)').join(', ');
  return query(
    `CREATE OR REPLACE TABLE versions AS SELECT * FROM (VALUES ${rows}) AS t(version, ord)`,
    ordered.flatMap((version, ord) => [version, ord]),
  );
}

/**
 * cell_status: one row per planned cell x mode x test (tests as the client printed them), with
 * the cell's best-of-repeats figures and a status saying why there is no figure:
 *   ok            at least one repeat measured the test (best_rps = the best repeat)
 *   unsupported   the server rejected the command (e.g. XADD before 5.0)
 *   failed        the test errored, crashed or timed out in every repeat (reason = the error)
 *   build_failed  the cell did not build (reason = the build's error)
 *   server_failed the server did not start, crashed or hung in this mode
 *   not_collected nothing measured yet for this cell and mode
 * rank_in_version orders the configurations of one version, test and mode, best first (ties by
 * compiler then flag-set order), so rank 1 with status ok is the version's winner.
 */
export const DERIVED_TABLES_SQL: readonly string[] = [
  `CREATE OR REPLACE TABLE tests AS SELECT test, min(test_index)::INTEGER AS test_index FROM results GROUP BY test`,
  `CREATE OR REPLACE TABLE cell_status AS
WITH cell_modes AS (
  SELECT cell_id, version, compiler, flag_set, compiler_index::INTEGER AS compiler_index,
         flag_index::INTEGER AS flag_index, repeats::INTEGER AS planned_repeats,
         trim(unnest(string_split(modes, ','))) AS mode
  FROM plan
),
build AS (
  -- A cell counts as built when any attempt succeeded; otherwise its latest failure explains it.
  SELECT * EXCLUDE (pick) FROM (
    SELECT cell_id, status AS build_status, error AS build_error, cc_version, cflags, ldflags, compat_flags,
           row_number() OVER (PARTITION BY cell_id ORDER BY status = 'ok' DESC, finished_at DESC) AS pick
    FROM builds
  ) WHERE pick = 1
),
run_counts AS (
  SELECT cell_id, mode, count(*) FILTER (WHERE status = 'server_failed')::INTEGER AS server_failed_runs
  FROM runs GROUP BY cell_id, mode
),
test_stats AS (
  SELECT cell_id, mode, test,
         max(rps)::DOUBLE AS best_rps,
         min(rps)::DOUBLE AS min_rps,
         count(rps)::INTEGER AS ok_repeats,
         arg_max(p50_latency_ms, rps)::DOUBLE AS p50_ms,
         bool_or(status = 'unsupported') AS unsupported,
         min(error) FILTER (WHERE status <> 'ok') AS test_error
  FROM results GROUP BY cell_id, mode, test
),
joined AS (
  SELECT cm.cell_id, cm.version, cm.compiler, cm.flag_set, cm.compiler_index, cm.flag_index, cm.mode,
         t.test, t.test_index, cm.planned_repeats,
         CASE
           WHEN ts.ok_repeats > 0 THEN 'ok'
           WHEN ts.unsupported THEN 'unsupported'
           WHEN ts.test_error IS NOT NULL OR ts.cell_id IS NOT NULL THEN 'failed'
           WHEN b.build_status = 'failed' THEN 'build_failed'
           WHEN rc.server_failed_runs > 0 THEN 'server_failed'
           ELSE 'not_collected'
         END AS status,
         ts.best_rps, ts.min_rps, coalesce(ts.ok_repeats, 0) AS ok_repeats, ts.p50_ms,
         coalesce(ts.test_error, b.build_error) AS reason,
         b.build_status, b.cc_version, b.cflags, b.ldflags, b.compat_flags
  FROM cell_modes cm
  CROSS JOIN tests t
  LEFT JOIN build b ON b.cell_id = cm.cell_id
  LEFT JOIN run_counts rc ON rc.cell_id = cm.cell_id AND rc.mode = cm.mode
  LEFT JOIN test_stats ts ON ts.cell_id = cm.cell_id AND ts.mode = cm.mode AND ts.test = t.test
)
SELECT *,
       row_number() OVER (PARTITION BY mode, test, version
                          ORDER BY best_rps DESC NULLS LAST, compiler_index, flag_index)::INTEGER AS rank_in_version
FROM joined`,
];
