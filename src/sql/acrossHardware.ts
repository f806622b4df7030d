/**
 * Across hardware: the same builds measured on two hardware classes, side by side. Everywhere
 * else the page reads one class (hardware.ts); this section alone reads every machine's results
 * (all_runs, all_results, machine_hardware), and only ever pairs a figure of class A with the
 * figure of the same cell, mode and test on class B, never combining them into one figure.
 *
 * An item is one (cell, mode, test) measured on both classes: each side's figure is its best
 * repeat on that class over as many repeats as both classes have (ITEMS), its spread that
 * class's own spread of those repeats, and the pair is judged by the site's noise rule (noise.ts).
 *   - hardwareRatiosQuery: B / A per item, as geometric means per mode for every configuration
 *     and version, every configuration over all versions, every version over all
 *     configurations, every test over all cells, and everything (each item weighs the same).
 *   - hardwareRankingQuery: does the choice of build carry over? Each configuration's speed
 *     against a baseline configuration, on A and on B, over the same items (the version and
 *     test measured for both configurations on both classes), so the two columns differ only
 *     by the hardware.
 */
import type { ConfigRef, Verdict, VerdictCounts } from '../vocabulary';
import { bandSql, geomeanBandSql, geomeanSql, spreadSql, verdictCountsSql, verdictSql } from './noise';
import { query, type Query } from './query';

/**
 * Items of classes A and B (parameters: A's label, B's label, four times). Each side takes as
 * many repeats of a (cell, mode) as the class with fewer has, its lowest-numbered ones (repeat
 * numbers are unique per cell and mode across machines): a best of three is higher than a best
 * of one by itself, so a class further along would otherwise look faster. With every repeat
 * measured on both, the figures are the charts' own. Aggregates only, no window function
 * (DuckDB-WASM runs those slowly cold).
 */
const ITEMS = `measured AS (
  SELECT mh.hardware, r.cell_id, r.mode, list_sort(list(r.repeat)) AS repeats
  FROM all_runs r JOIN machine_hardware mh ON mh.machine_id = r.machine_id
  WHERE r.status <> 'server_failed' AND r.round_seed IS NULL AND mh.hardware IN (?, ?)
  GROUP BY mh.hardware, r.cell_id, r.mode
),
shared AS (
  SELECT a.cell_id, a.mode, least(len(a.repeats), len(b.repeats)) AS n, a.repeats AS a_repeats, b.repeats AS b_repeats
  FROM measured a JOIN measured b ON b.cell_id = a.cell_id AND b.mode = a.mode
  WHERE a.hardware = ? AND b.hardware = ?
),
-- The highest repeat number each side uses (UNION: one row when A and B are the same class).
limits AS (
  SELECT ? AS hardware, cell_id, mode, n, a_repeats[n] AS last FROM shared
  UNION SELECT ? AS hardware, cell_id, mode, n, b_repeats[n] AS last FROM shared
),
side AS MATERIALIZED (
  SELECT l.hardware, r.cell_id, r.mode, x.test, min(x.test_index) AS test_index, min(l.n)::INTEGER AS used,
         max(x.rps)::DOUBLE AS best, min(x.rps)::DOUBLE AS low, count(x.rps)::INTEGER AS repeats
  FROM all_runs r
  JOIN machine_hardware mh ON mh.machine_id = r.machine_id
  JOIN limits l ON l.hardware = mh.hardware AND l.cell_id = r.cell_id AND l.mode = r.mode AND r.repeat <= l.last
  JOIN all_results x ON x.run_id = r.run_id
  WHERE r.status <> 'server_failed' AND x.status = 'ok' AND x.rps IS NOT NULL
  GROUP BY l.hardware, r.cell_id, r.mode, x.test
),
items AS MATERIALIZED (
  SELECT p.version, p.compiler, p.flag_set, p.compiler_index::INTEGER AS compiler_index, p.flag_index::INTEGER AS flag_index,
         a.mode, a.test, a.test_index, a.used,
         a.best AS a_best, ${spreadSql('a.best', 'a.low', 'a.repeats')} AS a_spread,
         b.best AS b_best, ${spreadSql('b.best', 'b.low', 'b.repeats')} AS b_spread
  FROM side a
  JOIN side b ON b.cell_id = a.cell_id AND b.mode = a.mode AND b.test = a.test
  JOIN plan p ON p.cell_id = a.cell_id
  WHERE a.hardware = ? AND b.hardware = ?
)`;

/**
 * B / A in one mode for one scope: a configuration (compiler and flag set, or null for all) on
 * one version (or null for all versions), or one test over every cell (test not null; then
 * configuration and version are null).
 */
export interface HardwareRatioRow extends VerdictCounts {
  mode: string;
  compiler: string | null;
  flag_set: string | null;
  version: string | null;
  test: string | null;
  test_index: number | null;
  /** The geometric mean of the items' B / A (1.2 = B 20% faster). */
  ratio: number;
  /** Its noise band (geometric mean of the items' bands), null when no item has a known one. */
  band: number | null;
  verdict: Verdict;
  /** Items in the mean, and the distinct cells behind them. */
  items: number;
  cells: number;
  /** The 10th and 90th percentile of the items' ratios. */
  p10: number;
  p90: number;
  /** The fewest and most repeats per side behind an item (each side's best is over that many). */
  min_used: number;
  max_used: number;
}

/** Every scope's B / A, per mode; parameters: the labels of A and B. */
export function hardwareRatiosQuery(a: string, b: string): Query<HardwareRatioRow> {
  return query(
    `WITH ${ITEMS},
     judged AS (
       SELECT *, b_best / a_best AS ratio, ${bandSql('a_spread', 'b_spread', '0::DOUBLE')} AS band
       FROM items
     ),
     judged_v AS (SELECT *, ${verdictSql('ratio', 'band')} AS verdict FROM judged),
     scopes AS (
       SELECT mode, compiler, flag_set, version, test, min(test_index)::INTEGER AS test_index,
              ${geomeanSql('ratio')} AS ratio, ${geomeanBandSql('band')} AS band,
              count(*)::INTEGER AS items, count(DISTINCT version || '|' || compiler || '|' || flag_set)::INTEGER AS cells,
              quantile_cont(ratio, 0.1) AS p10, quantile_cont(ratio, 0.9) AS p90,
              min(used)::INTEGER AS min_used, max(used)::INTEGER AS max_used,
              ${verdictCountsSql('verdict')},
              min(compiler_index) AS ci, min(flag_index) AS fi
       FROM judged_v
       GROUP BY GROUPING SETS ((mode, compiler, flag_set, version), (mode, compiler, flag_set), (mode, version), (mode, test), (mode))
     )
     SELECT s.mode, s.compiler, s.flag_set, s.version, s.test, s.test_index, s.ratio, s.band, ${verdictSql('s.ratio', 's.band')} AS verdict,
            s.items, s.cells, s.p10, s.p90, s.min_used, s.max_used, s.faster, s.slower, s.tie, s.unknown
     FROM scopes s LEFT JOIN versions v ON v.version = s.version
     ORDER BY s.mode, s.test IS NOT NULL, s.test_index, s.test, s.compiler IS NULL, s.ci, s.fi, v.ord NULLS LAST`,
    [a, b, a, b, a, b, a, b],
  );
}

/** One configuration's speed against the baseline in one mode, on A and on B, over the same items. */
export interface HardwareRankingRow {
  mode: string;
  compiler: string;
  flag_set: string;
  compiler_index: number;
  flag_index: number;
  /** Geometric means of configuration / baseline on A and on B (1.03 = 3% faster than the baseline). */
  a_ratio: number;
  a_band: number | null;
  a_verdict: Verdict;
  b_ratio: number;
  b_band: number | null;
  b_verdict: Verdict;
  /** Items (version and test) behind both means, and the versions among them. */
  items: number;
  versions: number;
}

/** Every configuration against `base` on A and on B, per mode; parameters: the labels of A and B. */
export function hardwareRankingQuery(a: string, b: string, base: ConfigRef): Query<HardwareRankingRow> {
  return query(
    `WITH ${ITEMS},
     pairs AS (
       SELECT c.mode, c.compiler, c.flag_set, c.compiler_index, c.flag_index, c.version,
              c.a_best / o.a_best AS a_ratio, ${bandSql('c.a_spread', 'o.a_spread', '0::DOUBLE')} AS a_band,
              c.b_best / o.b_best AS b_ratio, ${bandSql('c.b_spread', 'o.b_spread', '0::DOUBLE')} AS b_band
       FROM items c
       JOIN items o ON o.version = c.version AND o.mode = c.mode AND o.test = c.test
       WHERE o.compiler = ? AND o.flag_set = ?
     ),
     scores AS (
       SELECT mode, compiler, flag_set, compiler_index, flag_index,
              ${geomeanSql('a_ratio')} AS a_ratio, ${geomeanBandSql('a_band')} AS a_band,
              ${geomeanSql('b_ratio')} AS b_ratio, ${geomeanBandSql('b_band')} AS b_band,
              count(*)::INTEGER AS items, count(DISTINCT version)::INTEGER AS versions
       FROM pairs GROUP BY mode, compiler, flag_set, compiler_index, flag_index
     )
     SELECT mode, compiler, flag_set, compiler_index, flag_index,
            a_ratio, a_band, ${verdictSql('a_ratio', 'a_band')} AS a_verdict,
            b_ratio, b_band, ${verdictSql('b_ratio', 'b_band')} AS b_verdict, items, versions
     FROM scores ORDER BY mode, compiler_index, flag_index`,
    [a, b, a, b, a, b, a, b, base.compiler, base.flag_set],
  );
}
