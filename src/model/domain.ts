/**
 * The value-axis domain of a bar chart in each of the two views of the reference page. Neither
 * starts at zero unless the data reaches it; the page says so next to every chart.
 */

/** "real": zoomed out around the data to show larger trends; "max": fitted to min..max. */
export type AxisView = 'real' | 'max';

/** Each view's name, as the page and the exports write it. */
export const VIEW_NAMES: Readonly<Record<AxisView, string>> = { real: 'Real View', max: 'Max Change View' };

/** Real View pads by this fraction of the largest value below and above the data (~10%). */
export const REAL_VIEW_PADDING = 0.1;

/** A [low, high] value range, in the data's unit (requests/second). */
export type Domain = readonly [number, number];

/**
 * The axis domain for these values (NaN and infinities ignored), or null when none is finite.
 * Real View: [max(0, min - 10% of max), max + 10% of max]. Max Change View: exactly [min, max].
 * A single distinct value gets a small symmetric range so that it still has an axis (zero: [0, 1]).
 */
export function axisDomain(values: Iterable<number>, view: AxisView): Domain | null {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min > max) return null;
  if (view === 'max') {
    if (min < max) return [min, max];
    // A single zero (no misses counted in any bar) gets [0, 1]: the axis does not go below zero for it.
    const half = Math.abs(min) * 0.005 || 1;
    return [min === 0 ? 0 : min - half, max + half];
  }
  const pad = Math.abs(max) * REAL_VIEW_PADDING || 1;
  return [Math.max(0, min - pad), max + pad];
}
