/** Number and text formatting shared by the header, charts and tooltips. */
import { format } from 'd3-format';

const integer = format(',.0f');
const twoDecimals = format(',.2f');
const threeDigits = format('.3r');
const percent1 = format('.1%');

/**
 * A count with thousands separators: "11,371" (d3-format: the first toLocaleString of a page
 * costs Chromium some 15 ms of ICU setup, before the first paint).
 */
export function formatCount(n: number): string {
  return integer(n);
}

/** Milliseconds with two decimals: "0.31 ms". */
export function formatMs(ms: number): string {
  return `${twoDecimals(ms)} ms`;
}

/** A fraction as a percentage with one decimal: 0.0123 -> "1.2%". */
export function formatPercent(fraction: number): string {
  return percent1(fraction);
}

/** A spread or small change as a percentage: one decimal, three below 0.1% (a count's repeats differ by thousandths). */
export function formatSpread(fraction: number): string {
  return fraction > 0 && fraction < 0.001 ? `${(fraction * 100).toFixed(3)}%` : percent1(fraction);
}

/** Bytes in binary units: 25769803776 -> "24.0 GiB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

/**
 * A figure in `unit` (req/s, or a counted cost per request): a grouped integer, with two decimals
 * below 100, and three significant digits below 1 ("0.00233" last-level misses per request).
 */
export function formatFigure(value: number, unit = 'req/s'): string {
  if (unit === 'req/s' || Math.abs(value) >= 100) return integer(value);
  return Math.abs(value) >= 1 || value === 0 ? twoDecimals(value) : threeDigits(value);
}

/**
 * The d3-format specifier of a value axis's ticks whose top is `high`: SI prefixes from 1,000 on
 * ("120k"), plain digits below ("0.0025", not "2.5m": a count of misses per request is no milli-unit).
 */
export function tickSpecifier(high: number): string {
  return Math.abs(high) >= 1000 ? '~s' : ',~r';
}

/** The printed axis note: "axis 81,200 – 121,000 req/s (does not start at 0)"; `unit` names the metric's unit. */
export function formatAxisRange([low, high]: readonly [number, number], unit = 'req/s'): string {
  const zero = low <= 0 ? 'starts at 0' : 'does not start at 0';
  return `axis ${formatFigure(low, unit)} – ${formatFigure(high, unit)} ${unit} (${zero})`;
}
