/**
 * Queries about the counted metrics as a whole: whether any count is published, and how many
 * chart winners each metric decides beyond noise (the summary's comparison of the instruments).
 */
import { METRIC_IDS, metricOf } from '../model/metric';
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
  const parts = METRIC_IDS.map((id) => `SELECT '${id}' AS metric, mode,
       count(*) FILTER (WHERE winner_call <> 'alone')::INTEGER AS contests,
       count(*) FILTER (WHERE winner_call = 'clear')::INTEGER AS clear,
       count(*) FILTER (WHERE winner_call = 'tie')::INTEGER AS ties,
       count(*) FILTER (WHERE winner_call = 'unknown')::INTEGER AS unknown
FROM (${versionVerdictsQuery(metricOf(id)).sql}) GROUP BY mode`);
  return query(`SELECT * FROM (${parts.join('\nUNION ALL\n')}) ORDER BY mode, CASE metric ${METRIC_IDS.map((id, i) => `WHEN '${id}' THEN ${i}`).join(' ')} END`);
}
