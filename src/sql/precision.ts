/**
 * The precision modes' rounds, paired (docs/method.md, "Statistics of the precision modes"): SQL
 * pairs each figure with the one it is compared with in the same round and returns the logarithm
 * of their ratio; src/model/precision.ts turns the pairs into effects with bootstrap intervals.
 *
 * A round is one hardware class's runs of one version and mode with one repeat number: the
 * class's k-th round is its k-th repeat number (runs.round_seed marks a precision run). Within a
 * version, two configurations pair in the same round: measured minutes apart, in a random order,
 * under nearly the same host. Across versions (a release against the one before, two versions
 * compared), rounds pair by number: the class's k-th round of each, as `collector stats` pairs the
 * reference modes' repeats by pass. A missing figure leaves out its (round, test) pair only.
 */
import { type ConfigRef, type SideRef, UNSTABLE_CV } from '../vocabulary';
import { type ChartSubset, chartSubsetSql } from './charts';
import { query, type Query, type SqlParam } from './query';
import type { ReleaseChangeRow } from './releaseChanges';

/**
 * Every precision figure of the class shown with its round number (1 = the class's first round of
 * that version and mode): results of runs with a round seed, ok, with a positive rate.
 */
const ROUNDS = `numbered AS (
  SELECT version, mode, repeat, dense_rank() OVER (PARTITION BY version, mode ORDER BY repeat)::INTEGER AS round
  FROM (SELECT DISTINCT version, mode, repeat FROM runs WHERE round_seed IS NOT NULL)
),
rounds AS MATERIALIZED (
  SELECT x.mode, x.version, x.cell_id, p.compiler, p.flag_set, p.compiler_index::INTEGER AS compiler_index,
         p.flag_index::INTEGER AS flag_index, x.test, x.test_index, k.round, x.rps
  FROM results x
  JOIN runs u ON u.run_id = x.run_id
  JOIN plan p ON p.cell_id = x.cell_id
  JOIN numbered k ON k.version = x.version AND k.mode = x.mode AND k.repeat = x.repeat
  WHERE u.round_seed IS NOT NULL AND x.status = 'ok' AND x.rps > 0
)`;

/** One paired round: the logarithm of a figure over the one it is compared with, in one round. */
export interface PairedRound {
  /** The class's round number (1-based) the two figures share. */
  round: number;
  /** ln(figure / the compared figure). */
  lr: number;
}

/** A configuration's ratio to the baseline in one round, one version, mode and test. */
export interface SummaryRoundRow extends PairedRound {
  mode: string;
  version: string;
  compiler: string;
  flag_set: string;
  compiler_index: number;
  flag_index: number;
  test: string;
  test_index: number;
}

/** Every configuration against `base` (the baseline itself too: ln 1 = 0), round by round. */
export function precisionSummaryQuery(base: ConfigRef): Query<SummaryRoundRow> {
  return query(
    `WITH ${ROUNDS}
     SELECT c.mode, c.version, c.compiler, c.flag_set, c.compiler_index, c.flag_index, c.test, c.test_index, c.round,
            ln(c.rps / b.rps) AS lr
     FROM rounds c JOIN rounds b ON b.mode = c.mode AND b.version = c.version AND b.test = c.test AND b.round = c.round
     WHERE b.compiler = ? AND b.flag_set = ?
     ORDER BY c.mode, c.compiler_index, c.flag_index, c.version, c.test_index, c.round`,
    [base.compiler, base.flag_set],
  );
}

/** One pair of builds that differ in one factor (src/sql/effects.ts), in one round, version, mode and test. */
export interface EffectRoundRow extends PairedRound {
  factor: 'compiler' | 'level' | 'lto';
  level: string;
  base: string;
  level_order: number;
  mode: string;
  version: string;
  /** The pair: the measured build's compiler and flag set. */
  pair: string;
  test: string;
}

/** The pairs of every build factor, round by round: the same pairs as effectsQuery's. */
export function precisionEffectsQuery(): Query<EffectRoundRow> {
  const pair = (factor: string, level: string, base: string, order: string, same: string, where: string) =>
    `SELECT '${factor}' AS factor, ${level} AS level, ${base} AS base, ${order} AS level_order, a.mode, a.version,
            a.compiler || ' ' || a.flag_set AS pair, a.test, a.round, ln(a.rps / b.rps) AS lr
     FROM f a JOIN f b ON a.version = b.version AND a.mode = b.mode AND a.test = b.test AND a.round = b.round AND ${same}, first
     WHERE ${where}`;
  return query(
    `WITH ${ROUNDS},
     f AS MATERIALIZED (
       SELECT *, list_contains(string_split(flag_set, ' '), '-flto') AS lto,
              trim(replace(' ' || flag_set || ' ', ' -flto ', ' ')) AS level
       FROM rounds
     ),
     first AS (
       SELECT arg_min(compiler, compiler_index) AS compiler,
              trim(replace(' ' || arg_min(flag_set, flag_index) || ' ', ' -flto ', ' ')) AS level
       FROM plan
     )
     SELECT * FROM (
     ${pair('compiler', 'a.compiler', 'b.compiler', 'a.compiler_index', 'a.level = b.level AND a.lto = b.lto', 'b.compiler = first.compiler AND a.compiler <> first.compiler')}
     UNION ALL
     ${pair('level', 'a.level', 'b.level', 'a.flag_index', 'a.compiler = b.compiler AND a.lto = b.lto', 'b.level = first.level AND a.level <> first.level')}
     UNION ALL
     ${pair('lto', `'on'`, `'off'`, '0', 'a.compiler = b.compiler AND a.level = b.level', 'a.lto AND NOT b.lto')})
     ORDER BY mode, factor, level_order, level, version, pair, test, round`,
  );
}

/** B over A in one round of one mode and test (rounds paired by number across versions). */
export interface CompareRoundRow extends PairedRound {
  mode: string;
  test: string;
}

/**
 * A side's figures, round by round: one configuration of a version, or (no configuration) each
 * test's fastest configuration of the version, the one its chart's bar shows (the highest
 * geometric mean over the rounds: cell_status's score).
 */
function sideRounds(name: string, side: SideRef): { sql: string; params: SqlParam[] } {
  if (side.config) {
    return {
      sql: `${name} AS (SELECT mode, test, round, rps FROM rounds WHERE version = ? AND compiler = ? AND flag_set = ?)`,
      params: [side.version, side.config.compiler, side.config.flag_set],
    };
  }
  return {
    sql: `${name} AS (
      SELECT r.mode, r.test, r.round, r.rps FROM rounds r
      JOIN (SELECT mode, test, arg_max(cell_id, score) AS cell_id FROM cell_status
            WHERE version = ? AND protocol = 'precision' AND status = 'ok' GROUP BY mode, test) w
        ON w.mode = r.mode AND w.test = r.test AND w.cell_id = r.cell_id)`,
    params: [side.version],
  };
}

/** B against A in every precision mode and test, round by round. */
export function precisionCompareQuery(a: SideRef, b: SideRef): Query<CompareRoundRow> {
  const sa = sideRounds('a', a);
  const sb = sideRounds('b', b);
  return query(
    `WITH ${ROUNDS}, ${sa.sql}, ${sb.sql}
     SELECT a.mode, a.test, a.round, ln(b.rps / a.rps) AS lr
     FROM a JOIN b ON b.mode = a.mode AND b.test = a.test AND b.round = a.round
     ORDER BY a.mode, a.test, a.round`,
    [...sa.params, ...sb.params],
  );
}

/**
 * One version bar of a precision chart, round by round: each other configuration against the
 * version's fastest (kind 'rival': ln(rival / fastest)), or the fastest against the fastest of the
 * nearest earlier release with a figure (kind 'previous': ln(this / that), rounds by number).
 */
export interface VerdictRoundRow extends PairedRound {
  kind: 'rival' | 'previous';
  mode: string;
  test: string;
  version: string;
  /** A rival's cell id, or the previous release. */
  other: string;
  /** A rival's compiler, flag set and figure (its geometric mean over the rounds); null for 'previous'. */
  compiler: string | null;
  flag_set: string | null;
  figure: number | null;
}

/**
 * The pairs behind every precision chart's winner calls and changes against the previous release,
 * or those of the `charts` subset. The fastest is cell_status's: the highest geometric mean over
 * the rounds. Every rival measured appears, with no row when it shares no round with the fastest.
 */
export function precisionVerdictsQuery(charts: ChartSubset = null): Query<VerdictRoundRow> {
  const subset = chartSubsetSql('s', charts);
  return query(
    `WITH ${ROUNDS},
     top AS MATERIALIZED (
       SELECT s.mode, s.test, s.version, v.ord, arg_max(s.cell_id, s.score) AS cell_id
       FROM cell_status s JOIN versions v ON v.version = s.version
       WHERE s.protocol = 'precision' AND s.status = 'ok' AND ${subset.sql}
       GROUP BY s.mode, s.test, s.version, v.ord
     ),
     prev AS (
       SELECT t.mode, t.test, t.version, t.cell_id, arg_max(p.version, p.ord) AS prev_version, arg_max(p.cell_id, p.ord) AS prev_cell
       FROM top t JOIN top p ON p.mode = t.mode AND p.test = t.test AND p.ord < t.ord
       GROUP BY t.mode, t.test, t.version, t.cell_id
     )
     SELECT * FROM (
     SELECT 'rival' AS kind, t.mode, t.test, t.version, s.cell_id AS other, s.compiler, s.flag_set, s.best_value AS figure,
            w.round, ln(c.rps / w.rps) AS lr
     FROM top t
     JOIN cell_status s ON s.mode = t.mode AND s.test = t.test AND s.version = t.version AND s.status = 'ok' AND s.cell_id <> t.cell_id
     LEFT JOIN rounds w ON w.cell_id = t.cell_id AND w.mode = t.mode AND w.test = t.test
     LEFT JOIN rounds c ON c.cell_id = s.cell_id AND c.mode = t.mode AND c.test = t.test AND c.round = w.round
     UNION ALL
     SELECT 'previous', p.mode, p.test, p.version, p.prev_version, NULL, NULL, NULL, w.round, ln(w.rps / o.rps)
     FROM prev p
     JOIN rounds w ON w.cell_id = p.cell_id AND w.mode = p.mode AND w.test = p.test
     JOIN rounds o ON o.cell_id = p.prev_cell AND o.mode = p.mode AND o.test = p.test AND o.round = w.round)
     ORDER BY mode, test, version, kind, other, round`,
    subset.params,
  );
}

/** One configuration of one release pair in one mode and test: a paired round, or why it has none. */
export interface ReleaseRoundRow extends Pick<ReleaseChangeRow, 'pair_index' | 'from_version' | 'to_version' | 'mode' | 'test' | 'test_index'> {
  compiler: string;
  flag_set: string;
  compiler_index: number;
  flag_index: number;
  /** The status of the side without a figure (the newer side when both lack one); null when both have one. */
  missing: string | null;
  /** The round both releases measured and ln(newer / older) in it; null when there is no such round. */
  round: number | null;
  lr: number | null;
}

/**
 * Every configuration planned on both releases of each pair of `pairs` ([older, newer]), per
 * precision mode and test, with its rounds paired by number; ordered by pair, mode, test and plan.
 */
export function precisionReleaseChangesQuery(pairs: readonly (readonly [string, string])[]): Query<ReleaseRoundRow> {
  if (!pairs.length) return query('SELECT * FROM (SELECT 0 AS pair_index) WHERE false');
  const values = pairs.map((_, i) => `(?, ?, ${i})`).join(', ');
  return query(
    `WITH ${ROUNDS},
     pairs(from_version, to_version, pair_index) AS (VALUES ${values}),
     items AS (
       SELECT p.pair_index::INTEGER AS pair_index, p.from_version, p.to_version, a.mode, a.test, a.test_index,
              a.compiler, a.flag_set, a.compiler_index, a.flag_index,
              CASE WHEN b.best_value IS NULL THEN b.status WHEN a.best_value IS NULL THEN a.status END AS missing
       FROM pairs p
       JOIN cell_status a ON a.version = p.from_version AND a.protocol = 'precision'
       JOIN cell_status b ON b.version = p.to_version AND b.compiler = a.compiler AND b.flag_set = a.flag_set
                          AND b.mode = a.mode AND b.test = a.test
     )
     SELECT i.*, ra.round, ln(rb.rps / ra.rps) AS lr
     FROM items i
     LEFT JOIN rounds ra ON i.missing IS NULL AND ra.version = i.from_version AND ra.mode = i.mode AND ra.test = i.test
                         AND ra.compiler = i.compiler AND ra.flag_set = i.flag_set
     LEFT JOIN rounds rb ON rb.version = i.to_version AND rb.mode = i.mode AND rb.test = i.test
                         AND rb.compiler = i.compiler AND rb.flag_set = i.flag_set AND rb.round = ra.round
     ORDER BY i.pair_index, i.mode, i.test_index, i.test, i.compiler_index, i.flag_index, ra.round`,
    pairs.flatMap(([a, b]) => [a, b]),
  );
}

/** How long one mode's test lasted and the resolution that gives (redis-benchmark times a test in whole milliseconds). */
export interface TestDurationRow {
  mode: string;
  protocol: 'reference' | 'precision';
  test: string;
  test_index: number;
  /** Results behind the figures (every ok result of the class shown). */
  results: number;
  /** The request count: the reference mode's -n, or the precision mode's smallest and largest calibrated count. */
  min_requests: number;
  max_requests: number;
  /** The test's duration, requests / (requests per second), in seconds: median and shortest. */
  median_seconds: number;
  min_seconds: number;
  /** One millisecond as a share of the median and of the shortest duration (0.0096 = 0.96%). */
  median_resolution: number;
  worst_resolution: number;
}

/**
 * Per mode and test, how long the test lasted (the request count over the measured rate; a
 * reference mode's count is the -n of its runs' client_args, a precision mode's the calibrated
 * results.requests) and one millisecond as a share of it.
 */
export function testDurationQuery(): Query<TestDurationRow> {
  return query(
    `WITH d AS (
       SELECT x.mode, x.test, x.test_index, CASE WHEN u.round_seed IS NULL THEN 'reference' ELSE 'precision' END AS protocol,
              coalesce(x.requests::DOUBLE, TRY_CAST(regexp_extract(u.client_args, '(^|\\s)-n\\s+([0-9]+)', 2) AS DOUBLE)) AS requests, x.rps
       FROM results x JOIN runs u ON u.run_id = x.run_id
       WHERE x.status = 'ok' AND x.rps > 0
     )
     SELECT mode, protocol, test, min(test_index)::INTEGER AS test_index, count(*)::INTEGER AS results,
            min(requests) AS min_requests, max(requests) AS max_requests,
            median(requests / rps) AS median_seconds, min(requests / rps) AS min_seconds,
            0.001 / median(requests / rps) AS median_resolution, 0.001 / min(requests / rps) AS worst_resolution
     FROM d WHERE requests IS NOT NULL
     GROUP BY mode, protocol, test
     ORDER BY min(test_index), test, protocol = 'precision', mode`,
  );
}

/** One precision mode's figures (configuration, version and test) and how much they vary over their rounds. */
export interface PrecisionCvRow {
  mode: string;
  /** Figures with a coefficient of variation (two rounds or more). */
  figures: number;
  median_cv: number | null;
  max_cv: number | null;
  /** Figures above UNSTABLE_CV, and which ("7.4.1 gcc -Os -flto SET (22.6%)"), the most variable first. */
  unstable: number;
  unstable_list: string | null;
}

/** Per precision mode on the class shown, the coefficients of variation of its figures over their rounds (cell_status.cv). */
export function precisionCvQuery(): Query<PrecisionCvRow> {
  return query(
    `SELECT mode, count(cv)::INTEGER AS figures, median(cv) AS median_cv, max(cv) AS max_cv,
            count(*) FILTER (WHERE cv > ${UNSTABLE_CV})::INTEGER AS unstable,
            string_agg(version || ' ' || compiler || ' ' || flag_set || ' ' || test || ' (' || round(cv * 100, 1) || '%)', ', ' ORDER BY cv DESC)
              FILTER (WHERE cv > ${UNSTABLE_CV}) AS unstable_list
     FROM cell_status WHERE protocol = 'precision' AND status = 'ok'
     GROUP BY mode ORDER BY mode`,
  );
}
