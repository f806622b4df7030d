/**
 * Rankings of configurations, for asking whether the order of builds on one hardware class
 * carries over to another: ranks (fastest first, ties sharing their mean rank) and Spearman's
 * rank correlation, the Pearson correlation of the two rankings.
 */

/** Rank of each value, 1 for the largest; equal values share the mean of the ranks they span. */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((x, y) => y.value - x.value);
  const out = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.value === order[start]!.value) end++;
    const rank = (start + end) / 2 + 1;
    for (let i = start; i <= end; i++) out[order[i]!.index] = rank;
    start = end + 1;
  }
  return out;
}

/**
 * Spearman's rank correlation of paired values (1: same order, −1: reversed), or null when it
 * says nothing: fewer than three pairs, or one side's values all equal.
 */
export function spearman(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length) throw new Error(`spearman: ${x.length} values against ${y.length}`);
  if (x.length < 3) return null;
  const rx = ranks(x);
  const ry = ranks(y);
  const mean = (v: readonly number[]) => v.reduce((s, a) => s + a, 0) / v.length;
  const mx = mean(rx);
  const my = mean(ry);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < rx.length; i++) {
    const dx = rx[i]! - mx;
    const dy = ry[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}
