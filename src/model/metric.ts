/**
 * The page's metric in words and marks: its suffix in titles, the cycles' formula, and the arrow
 * of a change. The metrics themselves (direction, table, words) are in src/vocabulary.ts.
 */
import type { Metric } from '../vocabulary';

/**
 * The metric as a title names it after what is shown: '' for requests/second (named by every
 * title already), ", instructions per request (counted)" for a count, ", p50 latency (measured)".
 */
export function metricSuffix(metric: Metric): string {
  return metric.id === 'rps' ? '' : `, ${metric.label}`;
}

/** The formula of the estimated cycles (iai's), as the page and the docs print it. */
export const CYCLES_FORMULA =
  'estimated cycles = L1 hits + 5 × last-level hits + 35 × RAM accesses, where accesses = instructions + data reads + data writes (ir + dr + dw), ' +
  'L1 misses = i1mr + d1mr + d1mw, RAM accesses = last-level misses = ilmr + dlmr + dlmw';

/**
 * The arrow a change shows: by the sign of the number (▲ up, ▼ down), never inverted, whichever
 * direction is better; `verdict` is 'faster' (better beyond noise) or 'slower' (worse).
 */
export function changeGlyph(metric: Metric, verdict: 'faster' | 'slower'): string {
  const up = (verdict === 'faster') !== metric.lower;
  return up ? '▲' : '▼';
}

/** Requests per pipe-mode run of the reference protocol (`redis-benchmark -n 120000 -P 1000`). */
export const PIPE_REQUESTS = 120_000;

/**
 * The resolution of a pipe-mode requests/second figure: the client times a test in whole
 * milliseconds, so each figure is PIPE_REQUESTS / k ms, and near `high` req/s neighbouring figures
 * lie one millisecond apart: "timed in whole ms: 120000 requests / k ms, steps of 1.7% near 2.0M req/s".
 */
export function pipeResolutionText(high: number): string {
  const ms = Math.max(1, Math.round(PIPE_REQUESTS / (high / 1000)));
  const step = 1 / ms;
  const near = high >= 1e6 ? `${(high / 1e6).toFixed(1)}M` : `${Math.round(high / 1000)}k`;
  return `timed in whole milliseconds: each figure is ${PIPE_REQUESTS} requests / k ms, steps of ${(step * 100).toFixed(1)}% near ${near} req/s`;
}
