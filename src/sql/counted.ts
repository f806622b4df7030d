/**
 * Queries about the counted metrics as a whole: whether any count is published, and how many
 * chart winners each metric decides beyond noise (the summary's comparison of the instruments).
 */
import { INSTRUMENT_IDS, type MetricId, metricOf } from '../vocabulary';
import { cellSpreadSql } from './noise';
import { query, type Query } from './query';
import { versionVerdictsQuery } from './verdicts';

/** How many counted figures (tests counted ok) the published counts hold. */
export function countedFiguresQuery(): Query<{ figures: number }> {
  return query(`SELECT count(*)::INTEGER AS figures FROM counts WHERE status = 'ok'`);
}

/** One metric in one mode: its chart winners and how many of them are decided beyond noise. */
export interface WinnerTallyRow {
  metric: string;
  mode: string;
  /** Version bars (test × version) with two or more configurations measured: a winner to call. */
  contests: number;
  /** Of those, the winner beats every other configuration beyond noise (winner_call 'clear'). */
  clear: number;
  /** A tie within noise with at least one other configuration. */
  ties: number;
  /** No call: some comparison had no spread (one repeat). */
  unknown: number;
}

/**
 * Per metric and mode, the chart winners (versionVerdictsQuery: one per test and version) and
 * how they are called; a version with one configuration measured has nothing to decide.
 */
export function winnerTallyQuery(): Query<WinnerTallyRow> {
  const parts = INSTRUMENT_IDS.map((id) => `SELECT '${id}' AS metric, mode,
       count(*) FILTER (WHERE winner_call <> 'alone')::INTEGER AS contests,
       count(*) FILTER (WHERE winner_call = 'clear')::INTEGER AS clear,
       count(*) FILTER (WHERE winner_call = 'tie')::INTEGER AS ties,
       count(*) FILTER (WHERE winner_call = 'unknown')::INTEGER AS unknown
FROM (${versionVerdictsQuery(metricOf(id)).sql}) GROUP BY mode`);
  return query(`SELECT * FROM (${parts.join('\nUNION ALL\n')}) ORDER BY mode, CASE metric ${INSTRUMENT_IDS.map((id, i) => `WHEN '${id}' THEN ${i}`).join(' ')} END`);
}

/** The repeat spread of one metric in one mode, over its (cell, test) figures with two or more repeats. */
export interface SpreadRow {
  metric: string;
  mode: string;
  /** Figures with a spread. */
  figures: number;
  /** Median, 99th percentile and largest spread, |best − worst| / best. */
  median: number | null;
  p99: number | null;
  max: number | null;
}

/** The measured repeat spread (noise.ts) of every metric per mode: what its noise bands are made of. */
export function spreadQuery(): Query<SpreadRow> {
  const parts = INSTRUMENT_IDS.map((id) => `SELECT '${id}' AS metric, mode, ${cellSpreadSql()} AS spread FROM ${metricOf(id).table} WHERE status = 'ok' AND protocol = 'reference'`);
  return query(`SELECT metric, mode, count(spread)::INTEGER AS figures, median(spread) AS median,
       quantile_cont(spread, 0.99) AS p99, max(spread) AS max
FROM (${parts.join('\nUNION ALL\n')})
GROUP BY metric, mode
ORDER BY mode, CASE metric ${INSTRUMENT_IDS.map((id, i) => `WHEN '${id}' THEN ${i}`).join(' ')} END`);
}

/** How far the counted instrument got in one mode. */
export interface CountCoverageRow {
  mode: string;
  /** Planned cells, and cells with at least one test counted in this mode. */
  planned_cells: number;
  counted_cells: number;
  /** Counting runs by status (ok, partial: some test unsupported or failed, server_failed). */
  ok_runs: number;
  partial_runs: number;
  server_failed_runs: number;
  /** Tests counted in no repeat because they failed (errored, crashed, timed out) or are unsupported. */
  failed_tests: number;
  unsupported_tests: number;
  /** Cells whose two repeats differed and were counted again (count_runs_superseded.redone). */
  redone_cells: number;
  /**
   * Cells counted again on a rebuild for another reason (count_runs_superseded.redone): their
   * build depended on the build host (jemalloc's address bits), or a rebuild was other code.
   */
  rebuilt_cells: number;
}

/** Per mode, the counted instrument's coverage of the plan (counts are one dataset for every machine). */
export function countCoverageQuery(): Query<CountCoverageRow> {
  return query(`SELECT s.mode, count(DISTINCT s.cell_id)::INTEGER AS planned_cells,
       count(DISTINCT s.cell_id) FILTER (WHERE s.status = 'ok')::INTEGER AS counted_cells,
       (SELECT count(*) FROM count_runs r WHERE r.mode = s.mode AND r.status = 'ok')::INTEGER AS ok_runs,
       (SELECT count(*) FROM count_runs r WHERE r.mode = s.mode AND r.status = 'partial')::INTEGER AS partial_runs,
       (SELECT count(*) FROM count_runs r WHERE r.mode = s.mode AND r.status = 'server_failed')::INTEGER AS server_failed_runs,
       count(*) FILTER (WHERE s.status = 'failed')::INTEGER AS failed_tests,
       count(*) FILTER (WHERE s.status = 'unsupported')::INTEGER AS unsupported_tests,
       (SELECT count(DISTINCT x.cell_id) FROM count_runs_superseded x WHERE x.mode = s.mode AND x.redone LIKE 'repeats differed%')::INTEGER AS redone_cells,
       (SELECT count(DISTINCT x.cell_id) FROM count_runs_superseded x WHERE x.mode = s.mode AND x.redone NOT LIKE 'repeats differed%')::INTEGER AS rebuilt_cells
FROM ${metricOf('ir').table} s GROUP BY s.mode ORDER BY s.mode`);
}

/** One counted metric's rebuild band (rebuild_bands, docs/data-schema.md): the floor of its noise bands. */
export interface RebuildBandRow {
  /** The metric's id (src/vocabulary.ts). */
  metric: MetricId;
  /** The largest relative difference between two builds of one cell from the same inputs (0.0049 = 0.49%); 0 without a pair. */
  band: number;
  /** The 95th percentile of those differences; null without a pair. */
  p95: number | null;
  /** Rebuild pairs compared, of them pairs of identical code, and the cells they are of. */
  pairs: number;
  identical_code_pairs: number;
  cells: number;
}

/** Every counted metric's rebuild band, in the metrics' order; no rows when the data has no rebuild_bands file. */
export function rebuildBandsQuery(): Query<RebuildBandRow> {
  const counted = INSTRUMENT_IDS.filter((id) => metricOf(id).countColumn);
  const ids = counted.map((id) => `WHEN '${metricOf(id).countColumn}' THEN '${id}'`).join(' ');
  const order = counted.map((id, i) => `WHEN '${metricOf(id).countColumn}' THEN ${i}`).join(' ');
  return query(`SELECT CASE metric ${ids} END AS metric, band, p95, pairs, identical_code_pairs, cells
FROM rebuild_bands WHERE metric IN (${counted.map((id) => `'${metricOf(id).countColumn}'`).join(', ')})
ORDER BY CASE metric ${order} END`);
}
