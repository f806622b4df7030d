/**
 * Effects of the build factors: compiler, optimisation level and LTO, each as the geometric
 * mean of ratios between builds that differ in that factor only.
 *
 * A flag set is read as an optimisation level plus LTO: "-Os -flto" is level -Os with LTO on,
 * "-O2" is level -O2 with LTO off. The pairs of a factor hold everything else fixed:
 *   compiler  each other compiler against the plan's first (clang vs gcc): same version, mode,
 *             test, level and LTO;
 *   level     each other level against the level of the plan's first flag set (-Os vs -O2,
 *             -Ofast vs -O2): same version, mode, test, compiler and LTO;
 *   lto       -flto against the same flags without it: same version, mode, test, compiler, level.
 * An effect is the geometric mean of its pairs' ratios (each pair's band the larger spread, at least the floor), per
 * version and over all versions, with the noise verdict of noise.ts.
 */
import { type Metric, type RatioInterval, RPS, type Verdict, type VerdictCounts } from '../vocabulary';
import { bandSql, cellSpreadSql, geomeanBandSql, geomeanSql, ratioSql, verdictCountsSql, verdictSql } from './noise';
import { query, type Query } from './query';

/** Which factor an effect varies. */
export type Factor = 'compiler' | 'level' | 'lto';

/** One effect in one mode, for one version or (version null) over all versions. */
export interface EffectRow extends VerdictCounts {
  factor: Factor;
  /** The level measured: a compiler, an optimisation level, or 'on' for LTO. */
  level: string;
  /** What it is measured against: the first compiler, the first level, or 'off'. */
  base: string;
  /** Orders the rows: factor, then the level's position in the plan. */
  level_order: number;
  mode: string;
  version: string | null;
  /** Geometric mean of the pairs' ratios (1.04 = 4% faster with the level than with the base). */
  ratio: number;
  band: number | null;
  verdict: Verdict;
  pairs: number;
  /** In a precision mode, the ratio's bootstrap interval (src/model/precision.ts): the band is null there. */
  interval?: RatioInterval;
}

/** The compiler (first in plan order) and level (of the first flag set) effects are measured against. */
const factors = (metric: Metric) => `f AS MATERIALIZED (
  SELECT s.version, s.mode, s.test, s.compiler, s.compiler_index, s.flag_index, s.best_value, ${cellSpreadSql('s')} AS spread, s.band_floor,
         list_contains(string_split(s.flag_set, ' '), '-flto') AS lto,
         trim(replace(' ' || s.flag_set || ' ', ' -flto ', ' ')) AS level
  FROM ${metric.table} s WHERE s.status = 'ok' AND s.protocol = 'reference'
),
first AS (
  SELECT arg_min(compiler, compiler_index) AS compiler,
         trim(replace(' ' || arg_min(flag_set, flag_index) || ' ', ' -flto ', ' ')) AS level
  FROM plan
)`;

/** One factor's pairs; a pair without a ratio (a zero figure on one side: noise.ts) is left out. */
const pair = (factor: Factor, level: string, base: string, order: string, same: string, where: string) =>
  `SELECT '${factor}' AS factor, ${level} AS level, ${base} AS base, ${order} AS level_order, a.version, a.mode,
          ${ratioSql('a.best_value', 'b.best_value')} AS ratio, ${bandSql('a.spread', 'b.spread', 'a.band_floor')} AS band
   FROM f a JOIN f b ON a.version = b.version AND a.mode = b.mode AND a.test = b.test AND ${same}, first
   WHERE ${where} AND ${ratioSql('a.best_value', 'b.best_value')} IS NOT NULL`;

/** Every effect in `metric`, per mode, per version and over all versions. */
export function effectsQuery(metric: Metric = RPS): Query<EffectRow> {
  const pairs = [
    pair('compiler', 'a.compiler', 'b.compiler', 'a.compiler_index', 'a.level = b.level AND a.lto = b.lto',
      'b.compiler = first.compiler AND a.compiler <> first.compiler'),
    pair('level', 'a.level', 'b.level', 'a.flag_index', 'a.compiler = b.compiler AND a.lto = b.lto',
      'b.level = first.level AND a.level <> first.level'),
    pair('lto', `'on'`, `'off'`, '0', 'a.compiler = b.compiler AND a.level = b.level', 'a.lto AND NOT b.lto'),
  ];
  return query(
    `WITH ${factors(metric)},
     pairs AS MATERIALIZED (${pairs.join('\nUNION ALL\n')}),
     judged AS (SELECT *, ${verdictSql('ratio', 'band', metric.lower)} AS verdict FROM pairs),
     effects AS (
       SELECT factor, level, base, min(level_order) AS level_order, mode, version,
              ${geomeanSql('ratio')} AS ratio, ${geomeanBandSql('band')} AS band, count(*)::INTEGER AS pairs,
              ${verdictCountsSql('verdict')}
       FROM judged GROUP BY GROUPING SETS ((factor, level, base, mode, version), (factor, level, base, mode))
     )
     SELECT e.*, ${verdictSql('e.ratio', 'e.band', metric.lower)} AS verdict
     FROM effects e LEFT JOIN versions v ON v.version = e.version
     ORDER BY e.mode, CASE e.factor WHEN 'compiler' THEN 0 WHEN 'level' THEN 1 ELSE 2 END, e.level_order, e.level, v.ord NULLS LAST`,
  );
}
