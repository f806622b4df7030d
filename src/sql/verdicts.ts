/**
 * Noise-aware readings of the version charts: whether each version's fastest configuration beats
 * the others by more than the noise, and whether each version is faster or slower than the
 * release before it beyond the noise. The rule itself is in noise.ts.
 */
import { type Metric, type RatioInterval, RPS, type Verdict } from '../vocabulary';
import { type ChartSubset, chartSubsetSql } from './charts';
import { bandSql, cellSpreadSql, ratioSql, verdictSql } from './noise';
import { query, type Query } from './query';

/**
 * How a version's fastest configuration stands against the others:
 *   clear    it beats every other measured configuration by more than that pair's noise band
 *   tie      some other configuration is within the noise band of it (a tie within noise)
 *   unknown  none is within noise, but some comparison has no spread (a side with one repeat;
 *            in a precision mode, fewer than two rounds: no interval)
 *   alone    no other configuration was measured
 */
export type WinnerCall = 'clear' | 'tie' | 'unknown' | 'alone';

/** One version of one chart: its winner's standing and its change from the previous release. */
export interface VersionVerdictRow {
  mode: string;
  test: string;
  version: string;
  /** The winner's spread of repeats ((best − worst) / best), null with one repeat. */
  spread: number | null;
  winner_call: WinnerCall;
  /** Other configurations within the noise band of the winner. */
  ties: number;
  /** The second-fastest configuration, its best repeat (requests/s) and spread. */
  runner_compiler: string | null;
  runner_flag_set: string | null;
  runner_best: number | null;
  runner_spread: number | null;
  /** The nearest earlier release with a figure for this test and mode, null for the first. */
  prev_version: string | null;
  /** This version's figure over that release's, minus 1 (0.05 = 5% faster); null without a ratio (a zero figure on one side: noise.ts). */
  change: number | null;
  /** The noise band of that change: the larger spread of the two winners, at least the metric's floor (noise.ts). */
  change_band: number | null;
  /** faster = an improvement beyond noise (for a cost: cheaper), slower = a regression beyond noise. */
  change_verdict: Verdict | null;
  /**
   * In a precision mode (src/model/precision.ts): the change's bootstrap interval (the bands are
   * null there), and each other configuration against the winner, by cell id.
   */
  change_interval?: RatioInterval;
  standings?: Readonly<Record<string, Standing>>;
}

/** A configuration against its version's fastest in a precision mode: the paired effect, its interval and verdict. */
export interface Standing {
  readonly ratio: number;
  readonly interval: RatioInterval;
  /** 'slower' beyond the interval, 'tie' within it, 'unknown' without an interval (fewer than two rounds), 'faster' when the fastest by figure loses the paired rounds. */
  readonly verdict: Verdict;
}

/**
 * Every version of every chart, or of the `charts` subset (both modes, all versions: a version's
 * previous release does not depend on the range shown); with `currentOnly`, the rows of the
 * current versions (versions.current) alone, each as it is among all (its previous release is the
 * nearest earlier one, current or not). No window functions (see charts.ts): winners come from
 * the exact score, the previous release from arg_max over earlier ones.
 */
export function versionVerdictsQuery(metric: Metric = RPS, currentOnly = false, charts: ChartSubset = null): Query<VersionVerdictRow> {
  // No ratio to a rival (the winner counts zero, the rival more: noise.ts) is no tie: the winner is clear of it.
  const versusWinner = verdictSql(ratioSql('t.best', 'f.best_value'), bandSql('t.spread', 'f.spread', 'f.band_floor'), metric.lower);
  const change = ratioSql('t.best', 'p.prev_best');
  const subset = chartSubsetSql('s', charts);
  return query(
    `WITH f AS MATERIALIZED (
       SELECT s.mode, s.test, s.version, v.ord, v.current, s.compiler, s.flag_set, s.best_value, s.score, ${cellSpreadSql('s')} AS spread, s.band_floor
       FROM ${metric.table} s JOIN versions v ON v.version = s.version WHERE s.status = 'ok' AND s.protocol = 'reference'${charts ? ` AND ${subset.sql}` : ''}
     ),
     t AS MATERIALIZED (
       SELECT mode, test, version, ord, current, max(score) AS score, arg_max(best_value, score) AS best, arg_max(spread, score) AS spread, max(band_floor) AS band_floor
       FROM f GROUP BY mode, test, version, ord, current
     ),
     rivals AS (
       SELECT t.mode, t.test, t.version, count(*)::INTEGER AS rivals,
              count(*) FILTER (WHERE ${versusWinner} = 'tie')::INTEGER AS ties,
              count(*) FILTER (WHERE ${versusWinner} = 'unknown')::INTEGER AS unknowns,
              arg_max(f.compiler, f.score) AS runner_compiler, arg_max(f.flag_set, f.score) AS runner_flag_set,
              ${metric.lower ? 'min' : 'max'}(f.best_value) AS runner_best, arg_max(f.spread, f.score) AS runner_spread
       FROM t JOIN f ON f.mode = t.mode AND f.test = t.test AND f.version = t.version AND f.score < t.score
       GROUP BY t.mode, t.test, t.version
     ),
     prev AS (
       SELECT t.mode, t.test, t.version, arg_max(p.version, p.ord) AS prev_version,
              arg_max(p.best, p.ord) AS prev_best, arg_max(p.spread, p.ord) AS prev_spread
       FROM t JOIN t p ON p.mode = t.mode AND p.test = t.test AND p.ord < t.ord
       GROUP BY t.mode, t.test, t.version
     )
     SELECT t.mode, t.test, t.version, t.spread,
            CASE WHEN coalesce(r.rivals, 0) = 0 THEN 'alone' WHEN r.ties > 0 THEN 'tie'
                 WHEN r.unknowns > 0 THEN 'unknown' ELSE 'clear' END AS winner_call,
            coalesce(r.ties, 0) AS ties, r.runner_compiler, r.runner_flag_set, r.runner_best, r.runner_spread,
            p.prev_version, ${change} - 1 AS change,
            ${bandSql('t.spread', 'p.prev_spread', 't.band_floor')} AS change_band,
            ${verdictSql(change, bandSql('t.spread', 'p.prev_spread', 't.band_floor'), metric.lower)} AS change_verdict
     FROM t
     LEFT JOIN rivals r ON r.mode = t.mode AND r.test = t.test AND r.version = t.version
     LEFT JOIN prev p ON p.mode = t.mode AND p.test = t.test AND p.version = t.version${currentOnly ? '\n     WHERE t.current' : ''}
     ORDER BY t.mode, t.test, t.ord`,
    subset.params,
  );
}
