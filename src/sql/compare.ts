/**
 * Compare two builds test by test: each side (SideRef) is a version with one configuration, or a
 * version at its fastest configuration per test. Ratios are B / A (best repeat over best repeat), judged
 * by the noise rule (noise.ts), with their geometric mean per mode. In the precision modes the
 * query gives each side's figure (the geometric mean over its rounds) and its coefficient of
 * variation; the ratios and verdicts are the bootstrap's (src/model/precision.ts), from the
 * rounds paired by precisionCompareQuery.
 */
import { type CellStatus, type Metric, type Protocol, type RatioInterval, RPS, type SideRef, type Verdict, type VerdictCounts } from '../vocabulary';
import { STATUS_PRIORITY } from './charts';
import { bandSql, cellSpreadSql, geomeanBandSql, geomeanSql, ratioSql, verdictCountsSql, verdictSql } from './noise';
import { query, type Query, type SqlParam } from './query';

/** One test in one mode (test null: the mode's geometric mean over the tests both sides measured). */
export interface CompareRow extends VerdictCounts {
  mode: string;
  test: string | null;
  test_index: number | null;
  a_status: CellStatus | null;
  a_best: number | null;
  /** Spread of A's repeats (reference modes; null in the precision modes). */
  a_spread: number | null;
  /** A's coefficient of variation over its repeats or rounds. */
  a_cv: number | null;
  /** The configuration behind A's figure (the fastest one when A is a version's best). */
  a_config: string | null;
  a_reason: string | null;
  b_status: CellStatus | null;
  b_best: number | null;
  b_spread: number | null;
  b_cv: number | null;
  b_config: string | null;
  b_reason: string | null;
  /** B / A (1.05 = B is 5% faster); for a mode, their geometric mean. */
  ratio: number | null;
  band: number | null;
  verdict: Verdict | null;
  /** Tests in a mode's mean (0 on test rows). */
  tests: number;
  /** In a precision mode, the ratio's bootstrap interval (src/model/precision.ts); absent from the query's rows. */
  interval?: RatioInterval;
}

const side = (name: string, s: SideRef, metric: Metric, protocol: Protocol) => {
  const where = s.config ? 'version = ? AND compiler = ? AND flag_set = ?' : 'version = ?';
  const params: SqlParam[] = s.config ? [s.version, s.config.compiler, s.config.flag_set] : [s.version];
  // For one configuration each group has one row; for a version's best, the exact score picks the winner.
  const sql = `${name} AS (
    SELECT mode, test, min(test_index) AS test_index, arg_min(status, ${STATUS_PRIORITY}) AS status,
           arg_max(best_value, score) AS best, arg_max(${protocol === 'reference' ? cellSpreadSql() : 'NULL::DOUBLE'}, score) AS spread, arg_max(cv, score) AS cv, max(band_floor) AS band_floor,
           arg_max(compiler || ' ' || flag_set, score) AS config, arg_min(reason, ${STATUS_PRIORITY}) AS reason
    FROM ${metric.table} WHERE ${where} AND protocol = '${protocol}' GROUP BY mode, test
  )`;
  return { sql, params };
};

/** Every test of the protocol's modes, A against B, then one geometric-mean row per mode. */
export function compareQuery(a: SideRef, b: SideRef, metric: Metric = RPS, protocol: Protocol = 'reference'): Query<CompareRow> {
  const sa = side('a', a, metric, protocol);
  const sb = side('b', b, metric, protocol);
  return query(
    `WITH ${sa.sql}, ${sb.sql},
     rows AS MATERIALIZED (
       SELECT a.mode, a.test, a.test_index, a.status AS a_status, a.best AS a_best, a.spread AS a_spread, a.cv AS a_cv,
              a.config AS a_config, a.reason AS a_reason,
              b.status AS b_status, b.best AS b_best, b.spread AS b_spread, b.cv AS b_cv, b.config AS b_config, b.reason AS b_reason,
              ${ratioSql('b.best', 'a.best')} AS ratio, ${bandSql('a.spread', 'b.spread', 'a.band_floor')} AS band
       FROM a JOIN b ON a.mode = b.mode AND a.test = b.test
     ),
     judged AS (SELECT *, ${verdictSql('ratio', 'band', metric.lower)} AS verdict FROM rows)
     SELECT * FROM (
     SELECT mode, test, test_index, a_status, a_best, a_spread, a_cv, CASE WHEN a_best IS NOT NULL THEN a_config END AS a_config,
            CASE WHEN a_status <> 'ok' THEN a_reason END AS a_reason,
            b_status, b_best, b_spread, b_cv, CASE WHEN b_best IS NOT NULL THEN b_config END AS b_config,
            CASE WHEN b_status <> 'ok' THEN b_reason END AS b_reason,
            ratio, CASE WHEN ratio IS NOT NULL THEN band END AS band, verdict,
            0 AS faster, 0 AS slower, 0 AS tie, 0 AS unknown, 0 AS tests
     FROM judged
     UNION ALL
     SELECT mode, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, gm, gb, ${verdictSql('gm', 'gb', metric.lower)},
            faster, slower, tie, unknown, tests
     FROM (SELECT mode, ${geomeanSql('ratio')} AS gm, ${geomeanBandSql('band')} AS gb, count(ratio)::INTEGER AS tests,
                  ${verdictCountsSql('verdict')}
           FROM judged GROUP BY mode))
     ORDER BY mode, test IS NULL, test_index, test`,
    [...sa.params, ...sb.params],
  );
}
