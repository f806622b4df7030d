/**
 * The noise rule, as SQL expressions every comparison on the site shares (docs/site.md,
 * "Noise rule"). One place defines it for the site, so the charts, the summary, the build-factor
 * effects and the compare table can never disagree about what counts as a real difference. The
 * README's headline computes the same rule in Go (collector/internal/headline); both pass the
 * cases of tests/fixtures/fixture-noise.json.
 *
 *   spread    of a configuration (one test, one mode): |best − worst| / best over its measured
 *             repeats (for a cost the best repeat is the lowest); unknown (NULL) with fewer than
 *             two repeats.
 *   band      of a pair: the larger of the two spreads, and at least the metric's floor; unknown
 *             (NULL) when either spread is unknown: one repeat says nothing about how far that
 *             configuration's own figure can move (a single repeat caught in a slow spell of the
 *             host must not be called slower beyond the other's small spread).
 *   floor     of a counted metric: its rebuild band (rebuild_bands.band, docs/method.md "Rebuild
 *             bands"), how far the metric moves when a cell is built again from the same inputs;
 *             a build's repeats agree exactly, so without it a count's band would be 0. 0 for
 *             requests/second, and where the data has no rebuild band. Each metric's table
 *             carries it as band_floor (src/sql/load.ts).
 *   verdict   of a ratio r = B / A against its band: 'faster' when r − 1 > band, 'slower' when
 *             1 / r − 1 > band (the faster side beats the slower by more than the band, either
 *             way round), 'tie' otherwise, 'unknown' when the band is unknown. For a cost
 *             (src/vocabulary.ts, lower is better) 'faster' reads "better", i.e. cheaper:
 *             'faster' when 1 / r − 1 > band, 'slower' when r − 1 > band.
 *   geomean   of ratios: exp(mean(ln r)); its band: exp(mean(ln(1 + band))) − 1, the geometric
 *             mean of the bands (unknown bands left out); its verdict: the same rule.
 *   zero      a figure of zero (a count of simulated last-level misses can be: none in the
 *             window) has no ratio to a figure above zero: such a pair is not compared, as if a
 *             figure were missing. Two zeros are equal (ratio 1), and repeats that agree have no
 *             spread, zero or not.
 */

/** B / A: 1 when both are zero, NULL when only one is (no ratio) or either is NULL. */
export function ratioSql(b: string, a: string): string {
  return `CASE WHEN (${a}) > 0 AND (${b}) > 0 THEN (${b}) / (${a}) WHEN (${a}) = 0 AND (${b}) = 0 THEN 1.0 END`;
}

/**
 * The relative spread of repeats: |best − worst| / best; 0 when they agree (zero or not), NULL
 * with fewer than two repeats or a best of zero and a worst above it.
 */
export function spreadSql(best: string, worst: string, repeats: string): string {
  return `CASE WHEN ${repeats} >= 2 THEN CASE WHEN ${best} = ${worst} THEN 0.0 ELSE abs(${best} - ${worst}) / ${best} END END`;
}

/** The spread of a cell_status row (alias `s`, or none). */
export function cellSpreadSql(alias = ''): string {
  const p = alias ? `${alias}.` : '';
  return spreadSql(`${p}best_value`, `${p}worst_value`, `${p}ok_repeats`);
}

/**
 * The noise band of a pair: the larger spread and `floor`, NULL when either spread is unknown
 * (DuckDB's greatest would skip a NULL). A metric's floor is its table's band_floor column
 * (src/sql/load.ts): the same on every row of one metric.
 */
export function bandSql(spreadA: string, spreadB: string, floor: string): string {
  return `CASE WHEN (${spreadA}) IS NOT NULL AND (${spreadB}) IS NOT NULL THEN greatest(${spreadA}, ${spreadB}, ${floor}) END`;
}

/**
 * The verdict of `ratio` (B / A) against `band`; NULL when the ratio is NULL. With `lower` (a
 * cost: lower is better) 'faster' means B costs less beyond the band, 'slower' that it costs more.
 */
export function verdictSql(ratio: string, band: string, lower = false): string {
  const r = `(${ratio})`;
  const b = `(${band})`;
  const [up, down] = lower ? ['slower', 'faster'] : ['faster', 'slower'];
  return `CASE WHEN ${r} IS NULL THEN NULL WHEN ${b} IS NULL THEN 'unknown'
    WHEN ${r} - 1 > ${b} THEN '${up}' WHEN 1 / ${r} - 1 > ${b} THEN '${down}' ELSE 'tie' END`;
}

/** Aggregate: the geometric mean of ratios (NULLs left out). */
export function geomeanSql(ratio: string): string {
  return `exp(avg(ln((${ratio}))))`;
}

/** Aggregate: the band of a geometric mean, the geometric mean of 1 + band, minus 1. */
export function geomeanBandSql(band: string): string {
  return `(exp(avg(ln(1 + (${band})))) - 1)`;
}

/** Aggregate: how many rows have each verdict, as INTEGER columns faster, slower, tie, unknown. */
export function verdictCountsSql(verdict: string): string {
  return (['faster', 'slower', 'tie', 'unknown'] as const)
    .map((v) => `count(*) FILTER (WHERE ${verdict} = '${v}')::INTEGER AS ${v}`)
    .join(', ');
}
