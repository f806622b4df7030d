/**
 * The page's metric: what every chart, verdict and geometric mean is computed on. Requests per
 * second is measured (higher is better); instructions and estimated cycles per request are
 * counted under Valgrind (collector count: lower is better, one dataset for every hardware
 * class). Everything that depends on the direction reads it from here, so a view never inverts a
 * number on its own.
 */

/** The metrics a page can show. */
export type MetricId = 'rps' | 'ir' | 'cycles';

/** The metrics in the control's order; the first is the default. */
export const METRIC_IDS: readonly MetricId[] = ['rps', 'ir', 'cycles'];

/** One metric: its direction, the table its figures come from, and its words. */
export interface Metric {
  readonly id: MetricId;
  /** True for a cost (counted per request): a smaller figure is the better one. */
  readonly lower: boolean;
  /** 'measured' (throughput on the selected hardware) or 'counted' (Valgrind, every machine alike). */
  readonly kind: 'measured' | 'counted';
  /**
   * The derived table with one row per planned cell × mode × test and cell_status's columns
   * (src/sql/load.ts): best_rps and min_rps hold the best and the worst repeat in this metric's
   * unit (for a cost the lowest and the highest), score ranks the best first.
   */
  readonly table: string;
  /** The column of counts a counted metric reads (null for the measured one). */
  readonly countColumn: string | null;
  /** The control's label: "instructions per request (counted)". */
  readonly label: string;
  /** What a figure is, for captions: "instructions per request". */
  readonly name: string;
  /** The name as a sentence says it after a number: "requests per second". */
  readonly spoken: string;
  /** Unit after a number: "req/s", "instr/req". */
  readonly unit: string;
  /** The best configuration: "fastest" or "cheapest". */
  readonly best: string;
  /** Better and worse beyond noise: "faster"/"slower", "cheaper"/"costlier". */
  readonly better: string;
  readonly worse: string;
  /** The direction in words, for axis captions: "higher is better". */
  readonly direction: string;
}

const COUNTED = {
  lower: true, kind: 'counted', best: 'cheapest', better: 'cheaper', worse: 'costlier', direction: 'lower is better',
} as const;

/** Every metric by id. */
export const METRICS: Readonly<Record<MetricId, Metric>> = {
  rps: {
    id: 'rps', lower: false, kind: 'measured', table: 'cell_status', countColumn: null, label: 'requests/second (measured)',
    name: 'requests/second', spoken: 'requests per second', unit: 'req/s', best: 'fastest', better: 'faster', worse: 'slower', direction: 'higher is better',
  },
  ir: {
    id: 'ir', ...COUNTED, table: 'ir_status', countColumn: 'instructions_per_request', label: 'instructions per request (counted)',
    name: 'instructions per request', spoken: 'instructions per request', unit: 'instr/req',
  },
  cycles: {
    id: 'cycles', ...COUNTED, table: 'cycles_status', countColumn: 'est_cycles_per_request', label: 'estimated cycles per request (counted)',
    name: 'estimated cycles per request', spoken: 'estimated cycles per request', unit: 'cycles/req',
  },
};

/** Counting runs per cell and mode that the counting protocol plans (collector/matrix.toml, [count] repeats). */
export const COUNT_REPEATS = 2;

/** The default metric: requests per second. */
export const RPS: Metric = METRICS.rps;

/**
 * The metric as a title names it after what is shown: '' for requests/second (the page's
 * default, named by every title already), ", instructions per request (counted)" for a count.
 */
export function metricSuffix(metric: Metric): string {
  return metric.kind === 'counted' ? `, ${metric.label}` : '';
}

/** The metric of an id. */
export function metricOf(id: MetricId): Metric {
  return METRICS[id];
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
