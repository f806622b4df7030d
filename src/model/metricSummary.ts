/**
 * What the summary says about the metrics (src/vocabulary.ts): per mode the best configuration
 * over all versions and by how much, how many chart winners each metric decides beyond noise,
 * and how the counted cost and the measured throughput order the configurations.
 */
import type { CountCoverageRow, SpreadRow, WinnerTallyRow } from '../sql/counted';
import type { SummaryRow } from '../sql/summary';
import { INSTRUMENT_IDS, type Metric, metricOf } from '../vocabulary';
import { configName, formatChange, verdictText } from './changeText';
import { formatPercent } from './format';
import { spearman } from './ranking';

/** Every configuration's score over all versions in `mode`, in plan order. */
const overall = (rows: readonly SummaryRow[], mode: string) => rows.filter((r) => r.mode === mode && r.version === null);

/**
 * The best configuration of a mode over all versions (summaryQuery rows against one baseline):
 * the lowest geometric mean for a cost, the highest for requests/second; the first in plan order
 * among equals. Null when nothing was compared.
 */
export function bestConfig(rows: readonly SummaryRow[], mode: string, metric: Metric): SummaryRow | null {
  let best: SummaryRow | null = null;
  for (const r of overall(rows, mode)) {
    if (best === null || (metric.lower ? r.ratio < best.ratio : r.ratio > best.ratio)) best = r;
  }
  return best;
}

/**
 * "data mode: the cheapest build is clang -O2 -flto, −6.1% instructions per request against
 * gcc -O2, cheaper beyond the ±0.1% noise band (8 of 8 tests cheaper beyond noise)".
 */
export function bestConfigText(row: SummaryRow | null, mode: string, base: string, metric: Metric): string {
  if (row === null) return `${mode} mode: nothing compared yet in ${metric.name}`;
  const name = configName(row);
  if (name === base) return `${mode} mode: the ${metric.best} build is the baseline ${base}: every other configuration's geometric mean is ${metric.worse}`;
  return `${mode} mode: the ${metric.best} build is ${name}, ${formatChange(row.ratio)} ${metric.name} against ${base}, `
    + `${verdictText(row.verdict, row.band, metric, row.interval)} (${row.faster} of ${row.tests} tests ${metric.better} ${row.interval ? 'by their 95% intervals' : 'beyond noise'})`;
}

/**
 * One mode's best build under each metric, against the baseline `base`: "data mode, best build
 * against gcc -O2: requests/second clang -O2 -flto +2.1% (within noise) · instructions per request
 * clang -Ofast -flto −5.9% (cheaper beyond noise) · …". `scores` pairs each metric with its
 * summaryQuery rows.
 */
export function bestPerMetricText(scores: readonly (readonly [Metric, readonly SummaryRow[]])[], mode: string, base: string): string {
  const parts = scores.map(([metric, rows]) => {
    const best = bestConfig(rows, mode, metric);
    if (best === null) return `${metric.name}: not collected yet`;
    if (configName(best) === base) return `${metric.name}: the baseline itself`;
    const call = best.verdict === 'faster' ? `${metric.better} beyond noise` : best.verdict === 'tie' ? 'within noise' : best.verdict === 'unknown' ? 'noise not judged' : `${metric.worse} beyond noise`;
    return `${metric.name} ${configName(best)} ${formatChange(best.ratio)} (${call})`;
  });
  return `${mode} mode, best build against ${base}: ${parts.join(' · ')}`;
}

/** One mode's tally of chart winners under each metric: "requests/second 0 of 60, …". */
export function winnerTallyText(rows: readonly WinnerTallyRow[], mode: string): string {
  const parts = INSTRUMENT_IDS.map((id) => {
    const r = rows.find((x) => x.mode === mode && x.metric === id);
    const metric = metricOf(id);
    if (!r) return `${metric.name}: not collected yet`;
    return r.contests > 0 ? `${metric.name} ${r.clear} of ${r.contests}` : `${metric.name}: no version with two configurations to compare yet`;
  });
  return `${mode} mode, chart winners decided beyond noise: ${parts.join(' · ')}`;
}

/** Spearman's rank correlation of the configurations' geometric-mean cost and throughput in one mode. */
export interface OrderCorrelation {
  /** −1: the cheaper a configuration, the faster it runs, always; 0: no relation; null: too few. */
  readonly rho: number | null;
  /** Configurations with both figures. */
  readonly configs: number;
}

/**
 * The rank correlation, over the configurations that have both, of their geometric mean in the
 * cost `cost` and in requests/second `rps` (summaryQuery rows over all versions, same baseline).
 */
export function costThroughputCorrelation(cost: readonly SummaryRow[], rps: readonly SummaryRow[], mode: string): OrderCorrelation {
  const speed = new Map(overall(rps, mode).map((r) => [configName(r), r.ratio]));
  const pairs = overall(cost, mode).flatMap((r) => {
    const s = speed.get(configName(r));
    return s === undefined ? [] : [[r.ratio, s] as const];
  });
  return { rho: spearman(pairs.map((p) => p[0]), pairs.map((p) => p[1])), configs: pairs.length };
}

/** "data mode: rank correlation of instructions per request and requests/second over 12 configurations: −0.71". */
export function correlationText(c: OrderCorrelation, mode: string, cost: Metric): string {
  const what = `${mode} mode: rank correlation of the configurations' ${cost.name} and requests/second (geometric means over all versions)`;
  if (c.rho === null) return `${what}: not enough configurations with both figures yet`;
  const reading = c.rho <= -0.7 ? 'the cheaper builds are mostly the faster ones'
    : c.rho >= 0.7 ? 'the cheaper builds are mostly the slower ones'
    : 'the count orders the builds differently from the measured speed';
  return `${what}: ${c.rho.toFixed(2)} over ${c.configs} configurations (−1: cheaper always faster; ${reading})`;
}

/** "data mode, repeat spread: requests/second median 1.2%, p99 2.9%, max 3.0% · instructions per request …". */
export function spreadText(rows: readonly SpreadRow[], mode: string): string {
  // Counted spreads are thousandths of a percent: they need the digits.
  const pct = (x: number | null) => (x === null ? '–' : x < 0.01 ? `${(x * 100).toFixed(3)}%` : formatPercent(x));
  const parts = INSTRUMENT_IDS.map((id) => {
    const r = rows.find((x) => x.mode === mode && x.metric === id);
    const name = metricOf(id).name;
    return r && r.figures > 0 ? `${name} median ${pct(r.median)}, p99 ${pct(r.p99)}, max ${pct(r.max)} (${r.figures} figures)` : `${name}: no repeats yet`;
  });
  return `${mode} mode, spread of the repeats (the noise bands): ${parts.join(' · ')}`;
}

/** "Counted (Valgrind, …): data mode 80 of 84 cells (164 runs ok, 4 partial; 2 tests failed, 10 unsupported) · pipe mode …". */
export function countCoverageText(rows: readonly CountCoverageRow[]): string {
  const lead = 'Counted instrument (Valgrind; one dataset for every machine, not filtered by the hardware shown)';
  if (!rows.some((r) => r.counted_cells > 0 || r.ok_runs + r.partial_runs + r.server_failed_runs > 0)) return `${lead}: not collected yet.`;
  return `${lead}: ${rows.map((r) => `${r.mode} mode ${r.counted_cells} of ${r.planned_cells} cells counted `
    + `(${r.ok_runs} runs ok, ${r.partial_runs} partial${r.server_failed_runs ? `, ${r.server_failed_runs} server failed` : ''}; `
    + `tests: ${r.failed_tests} failed, ${r.unsupported_tests} unsupported`
    + `${r.redone_cells ? `; ${r.redone_cells} cell${r.redone_cells === 1 ? '' : 's'} counted again because the repeats differed (the runs set aside are in each cell's panel)` : ''}`
    + `${r.rebuilt_cells ? `; ${r.rebuilt_cells} cell${r.rebuilt_cells === 1 ? '' : 's'} counted again on a rebuild, the earlier build being other code (each cell's panel says why)` : ''})`).join(' · ')}.`;
}
