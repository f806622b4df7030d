/**
 * Changes between consecutive releases in a counted metric: for each pair of releases given (in
 * release order), each mode and test, how many configurations got cheaper or costlier beyond
 * noise (the noise rule of noise.ts, each side's band from its own counting repeats), how many
 * stayed within noise, had no noise estimate, or lack a count on either side, and why.
 */
import { type Metric } from '../vocabulary';
import { bandSql, cellSpreadSql, geomeanSql, ratioSql, verdictSql } from './noise';
import { query, type Query, type SqlParam } from './query';

/** One (pair of releases, mode, test): its configurations' changes, counted by verdict. */
export interface ReleaseChangeRow {
  /** Position of the pair in the list given (0 = the oldest pair). */
  pair_index: number;
  from_version: string;
  to_version: string;
  mode: string;
  test: string;
  test_index: number;
  /** Configurations planned on both releases. */
  configs: number;
  /** Of those, configurations with a count on both sides and a ratio. */
  compared: number;
  /** Beyond noise: cheaper (ratio < 1) and costlier; within noise; one repeat on a side (no band). */
  cheaper: number;
  costlier: number;
  within: number;
  unknown: number;
  /** Configurations changed beyond noise, "compiler flag set" joined by ", " in plan order; NULL for none. */
  cheaper_configs: string | null;
  costlier_configs: string | null;
  /** Geometric mean of the ratios (newer / older) of the configurations changed each way. */
  cheaper_ratio: number | null;
  costlier_ratio: number | null;
  /** The smallest and the largest ratio changed each way. */
  cheaper_min: number | null;
  cheaper_max: number | null;
  costlier_min: number | null;
  costlier_max: number | null;
  /** The widest noise band among the configurations changed (either way). */
  band: number | null;
  /** Configurations without a count on a side, by that side's status (the newer side when both lack one). */
  not_collected: number;
  build_failed: number;
  unsupported: number;
  failed: number;
  /** Configurations counted on both sides without a ratio: zero on one side only (noise.ts). */
  no_ratio: number;
}

/**
 * Every (pair, mode, test) of `pairs` (each [older, newer], consecutive releases) in `metric`,
 * a counted metric's status table; ordered by pair, mode, test.
 */
export function releaseChangesQuery(pairs: readonly (readonly [string, string])[], metric: Metric): Query<ReleaseChangeRow> {
  if (!pairs.length) {
    return query('SELECT * FROM (SELECT 0 AS pair_index) WHERE false');
  }
  const values = pairs.map((_, i) => `(?, ?, ${i})`).join(', ');
  const params: SqlParam[] = pairs.flatMap(([a, b]) => [a, b]);
  const ratio = ratioSql('b.best_value', 'a.best_value');
  const missing = `CASE WHEN b.best_value IS NULL THEN b.status WHEN a.best_value IS NULL THEN a.status WHEN ${ratio} IS NULL THEN 'no_ratio' END`;
  const configs = (verdict: string) =>
    `string_agg(compiler || ' ' || flag_set, ', ' ORDER BY compiler_index, flag_index) FILTER (WHERE verdict = '${verdict}')`;
  return query(
    `WITH pairs(from_version, to_version, pair_index) AS (VALUES ${values}),
     items AS MATERIALIZED (
       SELECT p.pair_index, p.from_version, p.to_version, a.mode, a.test, a.test_index,
              a.compiler, a.flag_set, a.compiler_index, a.flag_index,
              ${ratio} AS ratio, ${bandSql(cellSpreadSql('a'), cellSpreadSql('b'), 'a.band_floor')} AS band,
              ${missing} AS missing
       FROM pairs p
       JOIN ${metric.table} a ON a.version = p.from_version
       JOIN ${metric.table} b ON b.version = p.to_version AND b.compiler = a.compiler AND b.flag_set = a.flag_set
                              AND b.mode = a.mode AND b.test = a.test
     ),
     judged AS (SELECT *, ${verdictSql('ratio', 'band', true)} AS verdict FROM items)
     SELECT pair_index::INTEGER AS pair_index, from_version, to_version, mode, test, min(test_index)::INTEGER AS test_index,
            count(*)::INTEGER AS configs, count(ratio)::INTEGER AS compared,
            count(*) FILTER (WHERE verdict = 'faster')::INTEGER AS cheaper,
            count(*) FILTER (WHERE verdict = 'slower')::INTEGER AS costlier,
            count(*) FILTER (WHERE verdict = 'tie')::INTEGER AS within,
            count(*) FILTER (WHERE verdict = 'unknown')::INTEGER AS unknown,
            ${configs('faster')} AS cheaper_configs, ${configs('slower')} AS costlier_configs,
            ${geomeanSql("CASE WHEN verdict = 'faster' THEN ratio END")} AS cheaper_ratio,
            ${geomeanSql("CASE WHEN verdict = 'slower' THEN ratio END")} AS costlier_ratio,
            min(ratio) FILTER (WHERE verdict = 'faster') AS cheaper_min, max(ratio) FILTER (WHERE verdict = 'faster') AS cheaper_max,
            min(ratio) FILTER (WHERE verdict = 'slower') AS costlier_min, max(ratio) FILTER (WHERE verdict = 'slower') AS costlier_max,
            max(band) FILTER (WHERE verdict IN ('faster', 'slower')) AS band,
            count(*) FILTER (WHERE missing = 'not_collected')::INTEGER AS not_collected,
            count(*) FILTER (WHERE missing = 'build_failed')::INTEGER AS build_failed,
            count(*) FILTER (WHERE missing = 'unsupported')::INTEGER AS unsupported,
            count(*) FILTER (WHERE missing IN ('failed', 'server_failed'))::INTEGER AS failed,
            count(*) FILTER (WHERE missing = 'no_ratio')::INTEGER AS no_ratio
     FROM judged
     GROUP BY pair_index, from_version, to_version, mode, test
     ORDER BY pair_index, mode, test_index, test`,
    params,
  );
}
