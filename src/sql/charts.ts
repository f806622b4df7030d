/**
 * Queries behind the charts. They read the metric's table (cell_status, or a counted metric's
 * view: src/vocabulary.ts, load.ts) and versions; the chart code only draws what they return.
 * best_value and worst_value are the best and worst repeat in the metric's unit (for a cost the
 * lowest and the highest); the winner is the best by the exact score, whichever the direction.
 */
import { type CellStatus, type Metric, type Protocol, RPS, type Verdict } from '../vocabulary';
import { bandSql, cellSpreadSql, ratioSql, verdictSql } from './noise';
import { query, type Query, type SqlParam } from './query';

/** One chart: a test in a mode. */
export interface ChartId {
  readonly mode: string;
  readonly test: string;
}

/**
 * The charts a query over every chart covers: all of them (null), `only` these, or all `except`
 * these. Each chart's rows do not depend on the other charts, so a chart's rows are the same
 * whichever subset asks for them: the page asks for its first charts first, then the rest.
 */
export type ChartSubset = { readonly only: readonly ChartId[] } | { readonly except: readonly ChartId[] } | null;

/** A condition on the columns mode and test of `alias` picking `charts`, with its parameters ('TRUE' for all). */
export function chartSubsetSql(alias: string, charts: ChartSubset): { readonly sql: string; readonly params: readonly SqlParam[] } {
  if (!charts) return { sql: 'TRUE', params: [] };
  const list = 'only' in charts ? charts.only : charts.except;
  const any = list.length ? list.map(() => `(${alias}.mode = ? AND ${alias}.test = ?)`).join(' OR ') : 'FALSE';
  return { sql: 'only' in charts ? `(${any})` : `NOT (${any})`, params: list.flatMap((c) => [c.mode, c.test]) };
}

/** One bar of a version chart: the best configuration of one version for one test and mode. */
export interface VersionRow {
  mode: string;
  test: string;
  test_index: number;
  version: string;
  ord: number;
  /** ok when any configuration measured the test; otherwise the most telling reason there is none. */
  status: CellStatus;
  /**
   * The winning configuration's figure in the metric's unit (Metric.unit; Metric.lower says which
   * way is better): its best repeat, in a precision mode its geometric mean over the rounds; null
   * unless status is ok.
   */
  best_value: number | null;
  /** The winner's worst repeat or round, in the metric's unit (spread of the repeats = worst_value..best_value). */
  worst_value: number | null;
  ok_repeats: number | null;
  planned_repeats: number | null;
  /** p50 latency of the winner's best repeat, milliseconds (null for clients that do not print it). */
  p50_ms: number | null;
  compiler: string | null;
  flag_set: string | null;
  cc_version: string | null;
  /** The most CPU other processes used during the winner's runs, percent of one CPU (null: not recorded). */
  busy_pct: number | null;
  /** The most CPU the VM's host took (steal) during the winner's runs, percent of one CPU (null: not recorded). */
  steal_pct: number | null;
  /** An error message explaining a non-ok status, when there is one. */
  reason: string | null;
  /** The winner's coefficient of variation over its repeats or rounds (null with fewer than two; always null for a count). */
  cv: number | null;
  /** 'precision' in a precision mode (best_value is then the geometric mean over the rounds), else 'reference'. */
  protocol: Protocol;
  /** The winner's rounds that lasted less than the precision modes' min_time (0 in a reference mode). */
  short_rounds: number;
  /** Configurations planned for this version and mode, and how many of them are in each state. */
  planned_cells: number;
  ok_cells: number;
  unsupported_cells: number;
  failed_cells: number;
  build_failed_cells: number;
  server_failed_cells: number;
  not_collected_cells: number;
}

/** Orders statuses for arg_min: a version takes the first of these that any configuration has. */
export const STATUS_PRIORITY = `CASE status WHEN 'ok' THEN 0 WHEN 'unsupported' THEN 1 WHEN 'failed' THEN 2
  WHEN 'not_collected' THEN 3 WHEN 'server_failed' THEN 4 ELSE 5 END`;

const countOf = (status: CellStatus): string =>
  `count(*) FILTER (WHERE s.status = '${status}')::INTEGER AS ${status}_cells`;

/**
 * Every version bar of every chart (all tests, every mode), or of the `charts` subset, in the
 * catalog's order (the reference modes' charts first; test order, then mode), then release order; with a range, only versions whose ord is within [from,
 * to]; with `currentOnly`, only the current versions (versions.current).
 */
export function versionBarsQuery(
  range: { readonly from: number; readonly to: number } | null, metric: Metric = RPS, currentOnly = false, charts: ChartSubset = null,
): Query<VersionRow> {
  const winner = (column: string) => `arg_max(s.${column}, s.score)`;
  // All versions of all charts need no parameters: one trip to the worker, not two.
  const subset = chartSubsetSql('s', charts);
  const conditions = [...(range ? ['v.ord BETWEEN ? AND ?'] : []), ...(currentOnly ? ['v.current'] : []), ...(charts ? [subset.sql] : [])];
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  return query(
    `SELECT s.mode, s.test, s.test_index, s.version, v.ord,
            arg_min(s.status, ${STATUS_PRIORITY}) AS status,
            ${winner('best_value')} AS best_value,
            ${winner('worst_value')} AS worst_value,
            ${winner('ok_repeats')} AS ok_repeats,
            ${winner('planned_repeats')} AS planned_repeats,
            ${winner('p50_ms')} AS p50_ms,
            ${winner('compiler')} AS compiler,
            ${winner('flag_set')} AS flag_set,
            ${winner('cc_version')} AS cc_version,
            ${winner('busy_pct')} AS busy_pct,
            ${winner('steal_pct')} AS steal_pct,
            ${winner('cv')} AS cv,
            ${winner('short_rounds')} AS short_rounds,
            min(s.protocol) AS protocol,
            arg_min(s.reason, ${STATUS_PRIORITY}) AS reason,
            count(*)::INTEGER AS planned_cells,
            ${countOf('ok')}, ${countOf('unsupported')}, ${countOf('failed')},
            ${countOf('build_failed')}, ${countOf('server_failed')}, ${countOf('not_collected')}
     FROM ${metric.table} s JOIN versions v ON v.version = s.version
     ${where}
     GROUP BY s.mode, s.test, s.test_index, s.version, v.ord
     ORDER BY min(s.protocol) = 'precision', s.test_index, s.test, s.mode, v.ord`,
    [...(range ? [range.from, range.to] : []), ...subset.params],
  );
}

/** One bar of a drilldown: one configuration of one version for one test and mode. */
export interface ConfigRow {
  version: string;
  cell_id: string;
  compiler: string;
  flag_set: string;
  status: CellStatus;
  /** This configuration's figure in the metric's unit: its best repeat (precision: geometric mean over the rounds); null unless status is ok. */
  best_value: number | null;
  /** Its worst repeat or round, in the metric's unit. */
  worst_value: number | null;
  ok_repeats: number;
  planned_repeats: number;
  p50_ms: number | null;
  reason: string | null;
  cc_version: string | null;
  cflags: string | null;
  ldflags: string | null;
  compat_flags: string | null;
  /** The most CPU other processes used during this cell's runs, percent of one CPU (null: not recorded). */
  busy_pct: number | null;
  /** The most CPU the VM's host took (steal) during this cell's runs, percent of one CPU (null: not recorded). */
  steal_pct: number | null;
  /** True for the version's winning configuration. */
  winner: boolean;
  /**
   * best_value relative to the version winner's, minus 1 (0 for the winner, -0.05 for 5% slower; for a cost, 0.05 for 5% costlier);
   * null without a figure, or without a ratio (the winner counts zero and this one more: noise.ts).
   */
  vs_winner: number | null;
  /** Spread of the repeats, |best − worst| / best; null with fewer than two (noise.ts), and in a precision mode. */
  spread: number | null;
  /** The coefficient of variation over the repeats or rounds (null with fewer than two; always null for a count). */
  cv: number | null;
  /** 'precision' in a precision mode (best_value is then the geometric mean over the rounds, and the verdicts are in the chart's verdicts), else 'reference'. */
  protocol: Protocol;
  /** The rounds that lasted less than the precision modes' min_time (0 in a reference mode). */
  short_rounds: number;
  /** This configuration against the winner by the noise rule: 'slower' beyond noise, 'tie' within it ('unknown' without spreads); null for the winner and without a figure. */
  vs_winner_verdict: Verdict | null;
}

/**
 * The drilldowns of one chart: every version's planned configurations for one test and mode, by
 * compiler then flag set. One query per chart, so that pointing at a chart fetches whatever bar
 * is clicked next; this is the query a chart's SQL tools show. Aggregates over a CTE rather than
 * window functions: DuckDB-WASM compiles each new operator on first use, and window functions
 * cost most.
 */
export function configBarsQuery(mode: string, test: string, metric: Metric = RPS): Query<ConfigRow> {
  return query(
    `WITH c AS (SELECT *, CASE WHEN protocol = 'reference' THEN ${cellSpreadSql()} END AS spread FROM ${metric.table} WHERE mode = ? AND test = ?),
          top AS (SELECT mode, test, version, max(score) AS top_score, ${metric.lower ? 'min' : 'max'}(best_value) AS top_value, arg_max(spread, score) AS top_spread
                  FROM c GROUP BY mode, test, version)
     SELECT c.version, c.cell_id, c.compiler, c.flag_set, c.status, c.best_value, c.worst_value, c.ok_repeats,
            c.planned_repeats, c.p50_ms, c.reason, c.cc_version, c.cflags, c.ldflags, c.compat_flags, c.busy_pct, c.steal_pct, c.protocol, c.cv, c.short_rounds,
            coalesce(c.score = top.top_score, false) AS winner,
            ${ratioSql('c.best_value', 'top.top_value')} - 1 AS vs_winner, c.spread,
            CASE WHEN c.score < top.top_score AND c.protocol = 'reference' THEN ${verdictSql(ratioSql('c.best_value', 'top.top_value'), bandSql('top.top_spread', 'c.spread', 'c.band_floor'), metric.lower)} END AS vs_winner_verdict
     FROM c JOIN top ON top.mode = c.mode AND top.test = c.test AND top.version = c.version
     ORDER BY c.version, c.compiler_index, c.flag_index`,
    [mode, test],
  );
}
