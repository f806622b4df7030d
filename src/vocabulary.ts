/**
 * The site's shared vocabulary: the words every layer speaks (a cell's status, a noise verdict, a
 * configuration, the page's metric, and the shapes the charts draw). It sits at the bottom of the
 * layering (docs/site.md, "Architecture") and imports nothing, so every layer can use it and no
 * import has to run upward for it.
 */

/** Why a bar has, or has no, figure (see cell_status in src/sql/load.ts). */
export type CellStatus = 'ok' | 'unsupported' | 'failed' | 'build_failed' | 'server_failed' | 'not_collected';

/**
 * How a ratio B / A compares with its noise band ('faster' = better: for a cost, cheaper); the
 * rule is in src/sql/noise.ts.
 */
export type Verdict = 'faster' | 'slower' | 'tie' | 'unknown';

/** Verdict counts of a set of comparisons. */
export interface VerdictCounts {
  faster: number;
  slower: number;
  tie: number;
  unknown: number;
}

/**
 * How a mode is measured (docs/method.md): 'reference', the 2014 page's protocol (best of
 * repeats, judged by the noise rule of src/sql/noise.ts), or 'precision' (calibrated request
 * counts, interleaved rounds, judged by bootstrap intervals: src/model/stats.ts).
 */
export type Protocol = 'reference' | 'precision';

/**
 * A ratio's bootstrap interval in a precision mode (src/model/stats.ts): the 95% interval of the
 * geometric mean of per-round paired ratios, from `rounds` rounds; lo and hi are null with fewer
 * than two rounds (no interval, no verdict).
 */
export interface RatioInterval {
  readonly lo: number | null;
  readonly hi: number | null;
  readonly rounds: number;
}

/** A configuration: compiler and flag set. */
export interface ConfigRef {
  readonly compiler: string;
  readonly flag_set: string;
}

/** A version with a configuration, or with null for its fastest configuration per test. */
export interface SideRef {
  readonly version: string;
  readonly config: ConfigRef | null;
}

/**
 * The page's metric: what every chart, verdict and geometric mean is computed on. Requests per
 * second and the p50, p95 and p99 latency are measured in the throughput runs (per hardware
 * class; requests/second higher is better, a latency lower); instructions, estimated cycles,
 * simulated L1 and last-level cache misses and branch mispredictions per request are counted
 * under Valgrind (collector count: lower is better, one dataset for every hardware class).
 * Everything that depends on the direction reads it from here, so a view never inverts a number
 * on its own.
 */
export type MetricId = 'rps' | 'p50' | 'p95' | 'p99' | 'ir' | 'cycles' | 'l1' | 'll' | 'branch';

/** Every metric, in the control's order (the default is state.ts's DEFAULTS.metric). */
export const METRIC_IDS: readonly MetricId[] = ['rps', 'p50', 'p95', 'p99', 'ir', 'cycles', 'l1', 'll', 'branch'];

/**
 * The instruments the summary compares with one another (src/model/summary.ts, instrumentLines):
 * requests/second and the counted metrics. The latencies are left out: they come from the same
 * runs as requests/second and, in a closed loop of clients, restate it (LATENCY_NOTE).
 */
export const INSTRUMENT_IDS: readonly MetricId[] = ['rps', 'ir', 'cycles', 'l1', 'll', 'branch'];

/** One metric: its direction, the table its figures come from, and its words. */
export interface Metric {
  readonly id: MetricId;
  /** True for a cost (counted per request): a smaller figure is the better one. */
  readonly lower: boolean;
  /** 'measured' (throughput on the selected hardware) or 'counted' (Valgrind, every machine alike). */
  readonly kind: 'measured' | 'counted';
  /**
   * The derived table with one row per planned cell × mode × test and cell_status's columns
   * (src/sql/load.ts): best_value and worst_value hold the best and the worst repeat in this
   * metric's unit (for a cost the lowest and the highest), score ranks the best first.
   */
  readonly table: string;
  /** The column of counts a counted metric reads (null for a measured one). */
  readonly countColumn: string | null;
  /** The column of results a latency metric reads (results.p50_latency_ms, ...; null for the others). */
  readonly latencyColumn: string | null;
  /** The control's label: "instructions per request (counted)". */
  readonly label: string;
  /** What a figure is, for captions: "instructions per request". */
  readonly name: string;
  /** The name as a sentence says it after a number: "requests per second". */
  readonly spoken: string;
  /** Unit after a number: "req/s", "instr/req". */
  readonly unit: string;
  /** The best configuration: "fastest", "cheapest" or "lowest-latency". */
  readonly best: string;
  /** Better and worse beyond noise: "faster"/"slower", "cheaper"/"costlier". */
  readonly better: string;
  readonly worse: string;
  /** The direction in words, for axis captions: "higher is better". */
  readonly direction: string;
  /**
   * The step, in the metric's unit, by which a version's configurations are ranked to pick its
   * winner (an exact integer score: cell_status, countStatusSql, latencyStatusSql): a hundredth of a
   * request per second or of an instruction; a thousandth of a millisecond (the client prints
   * three decimals); a millionth of a miss, of which a request has few (or none).
   */
  readonly resolution: number;
  /** What the figure is when its name does not say enough (the simulated misses, the latencies): shown with the charts. */
  readonly note?: string;
}

const COUNTED = {
  lower: true, kind: 'counted', latencyColumn: null, best: 'cheapest', better: 'cheaper', worse: 'costlier', direction: 'lower is better', resolution: 0.01,
} as const;

/**
 * What the simulated misses are (collector count's Valgrind command, docs/method.md): callgrind's
 * cache and branch models, not the CPU's counters.
 */
export const SIMULATED_NOTE =
  'L1 misses, last-level misses and branch mispredictions are simulated by Valgrind\'s callgrind, not read from the hardware\'s counters: ' +
  'caches of a fixed geometry (32 KiB 8-way L1 instruction and data caches, an 8 MiB 16-way last level, 64-byte lines) on every machine, ' +
  'and callgrind\'s simple branch predictor (conditional and indirect branches). They show how the code each compiler produced uses a cache ' +
  'and a predictor of that shape, not what a given CPU counts.';

const SIMULATED = { ...COUNTED, resolution: 1e-6, note: SIMULATED_NOTE } as const;

/**
 * How the counted workload differs from the throughput modes' and why (docs/method.md, "Counted
 * instrument"): each change is there to make the count repeat.
 */
export const COUNT_WORKLOAD_NOTE =
  'The throughput modes\' requests (-d 64, random keys, -P 1000 in pipe mode), changed only where a count would otherwise not repeat: ' +
  'one client connection (with 50, how many the server serves per turn of its event loop depends on timing); the client\'s keys seeded ' +
  '(--seed 42); 1,000 requests per test (the figure is per request); each test counted on its own, from an idle server to an idle one ' +
  '(start-up, the warm-up and the other tests are outside); a test whose command the server lacks (ZPOPMIN, XADD before 5.0) is not sent, ' +
  'since its error replies would leave the server in a state that depends on timing. A preloaded library (freezeclock.so) stops the server\'s clock, so timer-driven ' +
  'work such as serverCron\'s rehashing and expiry never runs between requests, fixes its randomness (hash seed, process id), hands its event ' +
  'loop one ready event per turn, and in pipe mode makes a read wait for its whole pipeline. jemalloc 3.x and 4.x (Redis 2.6 to 4.0) is kept out of ' +
  'the mode it enters under Valgrind (no thread cache, a quarantine of freed memory), so it allocates as it does natively. ' +
  'Details: docs/method.md in the repository.';

/**
 * Where a latency only restates throughput (docs/site.md, "Latency"): the clients keep 50
 * connections (-c 50) in a closed loop, so by Little's law p50 follows 50 / requests per second;
 * in pipe mode every request of a pipeline is recorded with the pipeline's figure.
 */
export const LATENCY_NOTE =
  'Latency as redis-benchmark reports it: from writing a request to the first read of its reply, the round trip included. ' +
  'The client keeps 50 connections (-c 50) in a closed loop, each sending its next request when its reply comes, ' +
  'so p50 follows 50 / requests per second (Little\'s law): it restates the throughput more than it adds to it. ' +
  'In pipe mode (-P 1000) every request of a pipeline of 1,000 is recorded with the pipeline\'s figure, from its first write to the first read of its replies. ' +
  'p95 and p99 describe the tail. Details: docs/site.md in the repository.';

const LATENCY = {
  lower: true, kind: 'measured', countColumn: null, unit: 'ms', best: 'lowest-latency', better: 'lower', worse: 'higher',
  direction: 'lower is better', resolution: 0.001, note: LATENCY_NOTE,
} as const;

/** Every metric by id. */
export const METRICS: Readonly<Record<MetricId, Metric>> = {
  rps: {
    id: 'rps', lower: false, kind: 'measured', table: 'cell_status', countColumn: null, latencyColumn: null, label: 'requests/second (measured)',
    name: 'requests/second', spoken: 'requests per second', unit: 'req/s', best: 'fastest', better: 'faster', worse: 'slower', direction: 'higher is better',
    resolution: 0.01,
  },
  p50: {
    id: 'p50', ...LATENCY, table: 'p50_status', latencyColumn: 'p50_latency_ms', label: 'p50 latency (measured)',
    name: 'p50 latency', spoken: 'milliseconds p50 latency',
  },
  p95: {
    id: 'p95', ...LATENCY, table: 'p95_status', latencyColumn: 'p95_latency_ms', label: 'p95 latency (measured)',
    name: 'p95 latency', spoken: 'milliseconds p95 latency',
  },
  p99: {
    id: 'p99', ...LATENCY, table: 'p99_status', latencyColumn: 'p99_latency_ms', label: 'p99 latency (measured)',
    name: 'p99 latency', spoken: 'milliseconds p99 latency',
  },
  ir: {
    id: 'ir', ...COUNTED, table: 'ir_status', countColumn: 'instructions_per_request', label: 'instructions per request (counted)',
    name: 'instructions per request', spoken: 'instructions per request', unit: 'instr/req',
  },
  cycles: {
    id: 'cycles', ...COUNTED, table: 'cycles_status', countColumn: 'est_cycles_per_request', label: 'estimated cycles per request (counted)',
    name: 'estimated cycles per request', spoken: 'estimated cycles per request', unit: 'cycles/req',
  },
  l1: {
    id: 'l1', ...SIMULATED, table: 'l1_status', countColumn: 'l1_misses_per_request', label: 'L1 misses per request (counted, simulated)',
    name: 'simulated L1 misses per request', spoken: 'simulated L1 misses per request', unit: 'L1 misses/req',
  },
  ll: {
    id: 'll', ...SIMULATED, table: 'll_status', countColumn: 'll_misses_per_request', label: 'last-level misses per request (counted, simulated)',
    name: 'simulated last-level misses per request', spoken: 'simulated last-level cache misses per request', unit: 'LL misses/req',
  },
  branch: {
    id: 'branch', ...SIMULATED, table: 'branch_status', countColumn: 'branch_misses_per_request', label: 'branch mispredictions per request (counted, simulated)',
    name: 'simulated branch mispredictions per request', spoken: 'simulated branch mispredictions per request', unit: 'mispredicts/req',
  },
};

/** The counted metrics (each with a table of counts and a column), in the control's order. */
export const COUNTED_METRICS: readonly Metric[] = METRIC_IDS.map((id) => METRICS[id]).filter((m) => m.kind === 'counted');

/** The latency metrics (each with a column of results), in the control's order. */
export const LATENCY_METRICS: readonly Metric[] = METRIC_IDS.map((id) => METRICS[id]).filter((m) => m.latencyColumn !== null);

/** The default metric: requests per second. */
export const RPS: Metric = METRICS.rps;

/** The metric of an id. */
export function metricOf(id: MetricId): Metric {
  return METRICS[id];
}

/** Coefficient of variation above which a figure is marked unstable (Redis's benchmark specification). */
export const UNSTABLE_CV = 0.1;

/**
 * The precision modes' min_time, seconds (collector/matrix.toml, [[benchmark.precision]] min_time):
 * each test is calibrated to last at least this long; a result that lasted less (requests / rps)
 * fell short, and is marked.
 */
export const MIN_TIME_SECONDS = 1.5;

/** Counting runs per cell and mode that the counting protocol plans (collector/matrix.toml, [count] repeats). */
export const COUNT_REPEATS = 2;

/** One bar of a bar chart (src/chart/barChart.ts), ready to draw. */
export interface Bar {
  /** Unique within the chart (a version, or a cell id). */
  readonly key: string;
  /** Tick label under the bar. */
  readonly label: string;
  /** Bars of the same group stand together, under the group's name ('' for no group). */
  readonly group: string;
  /** Requests/second, or null when status says why there is no figure. */
  readonly value: number | null;
  readonly status: CellStatus;
  /** Fill colour of a bar with a figure. */
  readonly color: string;
  /** The label inside a bar without a figure, when its status's (not collected) is not the word: "not measured" (a latency). */
  readonly missingLabel?: string;
  /** The fastest: a heavier outline, and a star unless it is a tie. */
  readonly winner: boolean;
  /**
   * Why the fastest is not called a winner: 'tie' marks it and those within its noise band ≈;
   * 'unknown' (no spread to judge by) marks it ?. Either replaces the ★.
   */
  readonly noise?: 'tie' | 'unknown' | null;
  /**
   * The worst repeat, in the value's unit: a whisker from it to the value shows the repeats'
   * spread (below the bar's top for a throughput, above it for a cost, whose worst is higher).
   */
  readonly low?: number | null;
  /** A change beyond noise against the bar before it (the previous release): faster (blue) = better, slower (orange) = worse. */
  readonly change?: 'faster' | 'slower' | null;
  /** The change's arrow, by the sign of the number (default ▲ for faster, ▼ for slower; a cheaper cost is ▼). */
  readonly changeMark?: string;
  /** Measured while other processes kept the machine busy: labelled "⚠ busy" inside the bar. */
  readonly busy?: boolean;
  /** A figure whose coefficient of variation over its rounds is above 10% (UNSTABLE_CV): labelled "⚠ unstable". */
  readonly unstable?: boolean;
  /** A precision figure with a round that lasted less than MIN_TIME_SECONDS: named in the card's note. */
  readonly short?: boolean;
  /** The bar's accessible name. */
  readonly ariaLabel: string;
  /** Lines shown on hover and focus. */
  readonly tooltip: readonly string[];
}

/** One test's change in a change strip (src/chart/changeStrip.ts). */
export interface StripPoint {
  readonly key: string;
  readonly ratio: number;
  readonly verdict: Verdict;
  readonly tooltip: readonly string[];
}

/** One configuration's row of a change strip. */
export interface StripRow {
  readonly key: string;
  readonly label: string;
  /** The geometric mean of the points and its band, or null when nothing was compared. */
  readonly mean: number | null;
  readonly band: number | null;
  /** In a precision mode, the mean's bootstrap interval: drawn around the mean instead of the band around 0. */
  readonly interval?: RatioInterval;
  readonly verdict: Verdict | null;
  /** Text at the right, after the mean (e.g. "▲10 ≈0 ▼0"). */
  readonly note: string;
  readonly points: readonly StripPoint[];
  readonly ariaLabel: string;
  readonly tooltip: readonly string[];
  /** Drawn as the reference row (the baseline). */
  readonly reference: boolean;
  /** The mean's verdict mark in the page's metric (default: requests/second's; a cheaper cost is ▼). */
  readonly glyph?: string;
}

/** One cell of a heat table (src/chart/heatTable.ts): a ratio with its verdict, or no figure. */
export interface HeatCell {
  /** B / A (1.04 = 4% faster), or null when there is nothing to compare. */
  readonly ratio: number | null;
  readonly verdict: Verdict | null;
  /** The cell's full description: its tooltip and accessible name. */
  readonly title: string;
  /** The verdict's mark in the page's metric (default: requests/second's; a cheaper cost is ▼). */
  readonly glyph?: string;
}

/** One row of a heat table's cells, one per column. */
export interface HeatRow {
  readonly key: string;
  readonly label: string;
  readonly cells: readonly HeatCell[];
}

/** A heat table's content. */
export interface HeatTableData {
  readonly caption: string;
  readonly columns: readonly { readonly key: string; readonly label: string }[];
  readonly rows: readonly HeatRow[];
}
