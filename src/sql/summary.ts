/**
 * The summary: every configuration's speed relative to a baseline configuration, as geometric
 * means over the tests, per mode, for each version and over all versions (the Redis/Intel
 * study's score), with the distribution of the per-test changes behind each mean.
 *
 * An item is one test's ratio (configuration / baseline, best repeat over best repeat):
 *   - for one version: the ratio on that version, its band the larger spread of the two (at least the floor);
 *   - over all versions: the geometric mean of the test's ratios on every version where both
 *     configurations measured it, its band the geometric mean of their bands.
 * A score is the geometric mean of a scope's items (each test weighs the same), with the
 * geometric-mean band and the noise verdict of noise.ts; the counts are the items' verdicts.
 */
import { type ConfigRef, type Metric, type RatioInterval, RPS, type Verdict, type VerdictCounts } from '../vocabulary';
import { bandSql, cellSpreadSql, geomeanBandSql, geomeanSql, ratioSql, verdictCountsSql, verdictSql } from './noise';
import { query, type Query } from './query';

/** One configuration's score in one mode, for one version or (version null) over all versions. */
export interface SummaryRow extends VerdictCounts {
  compiler: string;
  flag_set: string;
  compiler_index: number;
  flag_index: number;
  mode: string;
  /** The version, or null for all versions. */
  version: string | null;
  /** The geometric mean of the items' ratios (1.05 = 5% faster than the baseline; for a cost, 5% costlier). */
  ratio: number;
  /** Its noise band (0.02 = 2%), null when no item has a known spread. */
  band: number | null;
  verdict: Verdict;
  /** Items (tests) in the mean. */
  tests: number;
  /** The item that compares worst and best with the baseline (for a cost: the highest and the lowest ratio). */
  worst_test: string;
  worst_ratio: number;
  best_test: string;
  best_ratio: number;
  /** In a precision mode, the ratio's bootstrap interval (src/model/precision.ts): the band is null there. */
  interval?: RatioInterval;
}

/** One item: one test's change for one configuration in one mode and scope. */
export interface SummaryItemRow {
  compiler: string;
  flag_set: string;
  mode: string;
  test: string;
  test_index: number;
  ratio: number;
  band: number | null;
  verdict: Verdict;
  /** Versions behind the ratio (1 for a single version). */
  versions: number;
  /** In a precision mode, the ratio's bootstrap interval (src/model/precision.ts). */
  interval?: RatioInterval;
}

/**
 * The items of every scope in `metric`; parameters: the baseline's compiler and flag set. A test
 * without a ratio (a zero figure on one side: noise.ts) is left out, as a missing figure is.
 */
const items = (metric: Metric) => `pairs AS MATERIALIZED (
  SELECT c.compiler, c.flag_set, c.compiler_index, c.flag_index, c.mode, c.version, c.test, c.test_index,
         ${ratioSql('c.best_value', 'b.best_value')} AS ratio, ${bandSql(cellSpreadSql('c'), cellSpreadSql('b'), 'c.band_floor')} AS band
  FROM ${metric.table} c JOIN ${metric.table} b ON b.version = c.version AND b.mode = c.mode AND b.test = c.test
  WHERE c.status = 'ok' AND b.status = 'ok' AND c.protocol = 'reference' AND b.compiler = ? AND b.flag_set = ? AND ${ratioSql('c.best_value', 'b.best_value')} IS NOT NULL
),
items AS (
  SELECT compiler, flag_set, compiler_index, flag_index, mode, version, test, test_index, ratio, band, 1 AS versions FROM pairs
  UNION ALL
  SELECT compiler, flag_set, compiler_index, flag_index, mode, NULL, test, test_index,
         ${geomeanSql('ratio')}, ${geomeanBandSql('band')}, count(*)
  FROM pairs GROUP BY compiler, flag_set, compiler_index, flag_index, mode, test, test_index
),
judged AS (SELECT *, ${verdictSql('ratio', 'band', metric.lower)} AS verdict FROM items)`;

/** Scores of every configuration against `base`, per mode, per version and over all versions. */
export function summaryQuery(base: ConfigRef, metric: Metric = RPS): Query<SummaryRow> {
  const [worst, best] = metric.lower ? ['max', 'min'] : ['min', 'max'];
  return query(
    `WITH ${items(metric)},
     scores AS (
       SELECT j.compiler, j.flag_set, j.compiler_index, j.flag_index, j.mode, j.version,
              ${geomeanSql('j.ratio')} AS ratio, ${geomeanBandSql('j.band')} AS band, count(*)::INTEGER AS tests,
              ${verdictCountsSql('j.verdict')},
              arg_${worst}(j.test, j.ratio) AS worst_test, ${worst}(j.ratio) AS worst_ratio,
              arg_${best}(j.test, j.ratio) AS best_test, ${best}(j.ratio) AS best_ratio
       FROM judged j
       GROUP BY j.compiler, j.flag_set, j.compiler_index, j.flag_index, j.mode, j.version
     )
     SELECT s.*, ${verdictSql('s.ratio', 's.band', metric.lower)} AS verdict
     FROM scores s LEFT JOIN versions v ON v.version = s.version
     ORDER BY s.mode, s.compiler_index, s.flag_index, v.ord NULLS LAST`,
    [base.compiler, base.flag_set],
  );
}

/** The items of one scope (a version, or null for all versions), for the distribution chart. */
export function summaryItemsQuery(base: ConfigRef, version: string | null, metric: Metric = RPS): Query<SummaryItemRow> {
  return query(
    `WITH ${items(metric)}
     SELECT compiler, flag_set, mode, test, test_index, ratio, band, verdict, versions::INTEGER AS versions
     FROM judged WHERE ${version === null ? 'version IS NULL' : 'version = ?'}
     ORDER BY mode, compiler_index, flag_index, test_index, test`,
    version === null ? [base.compiler, base.flag_set] : [base.compiler, base.flag_set, version],
  );
}
