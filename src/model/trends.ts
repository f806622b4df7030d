/**
 * The trends section's model: for one chart (a test in a mode), every configuration's best
 * repeat across releases, as small multiples: one panel per flag set, one line per compiler.
 * Points without a figure keep their status, so the chart can show why, never a zero.
 */
import type { ConfigRow } from '../sql/charts';
import { type CellStatus, type ConfigRef, type Metric, RPS } from '../vocabulary';
import { configKey } from './analysisState';
import { busyText, capitalize, isBusy, statusText } from './bars';
import { formatChange } from './changeText';
import { formatFigure } from './format';

/** One configuration in one release. */
export interface TrendPoint {
  readonly version: string;
  /** Requests/second of the best repeat, or null when `status` says why there is none. */
  readonly value: number | null;
  readonly status: CellStatus;
  /** Measured while other processes kept the machine busy. */
  readonly busy: boolean;
  readonly tooltip: readonly string[];
}

/** One configuration across releases. */
export interface TrendSeries {
  /** "compiler|flag set". */
  readonly key: string;
  readonly compiler: string;
  readonly color: string;
  /** Compilers after the plan's first are dashed, so they differ without colour too. */
  readonly dashed: boolean;
  /** One point per planned version, in release order. */
  readonly points: readonly TrendPoint[];
  /** Every point in words, for the series' accessible name. */
  readonly ariaLabel: string;
}

/** One flag set: a line per compiler. */
export interface TrendPanel {
  /** The flag set. */
  readonly key: string;
  readonly series: readonly TrendSeries[];
}

/** A figure against the last release measured before it in the same configuration; a zero (a count of misses) has no ratio to another figure. */
function previousText(value: number, previous: { version: string; value: number } | null): string {
  if (!previous) return 'The first release measured in this configuration';
  if (previous.value > 0) return `${formatChange(value / previous.value)} against ${previous.version} (same configuration)`;
  return value === 0 ? `None, as on ${previous.version} (same configuration)` : `None on ${previous.version} (same configuration): no ratio`;
}

function point(config: ConfigRef, version: string, row: ConfigRow | undefined, previous: { version: string; value: number } | null, metric: Metric): TrendPoint {
  const name = `${config.compiler} ${config.flag_set}, Redis ${version}`;
  if (!row || row.status !== 'ok' || row.best_value === null) {
    const status = !row || row.status === 'ok' ? 'not_collected' : row.status;
    return { version, value: null, status, busy: false, tooltip: [`${name}: no figure`, capitalize(statusText(status, row?.reason ?? null))] };
  }
  return {
    version,
    value: row.best_value,
    status: 'ok',
    busy: metric.kind === 'measured' && isBusy(row),
    tooltip: [
      `${name} — ${formatFigure(row.best_value, metric.unit)} ${metric.unit}`,
      `Best of ${row.ok_repeats} of ${row.planned_repeats} repeats`,
      previousText(row.best_value, previous),
      metric.kind === 'counted' ? 'Counted under Valgrind: the machine\'s load does not change a count' : busyText(row),
    ],
  };
}

/**
 * The panels for `rows` (configBarsQuery of one chart): one per flag set in plan order, each with
 * a series per compiler in plan order; every planned version gets a point, measured or not.
 */
export function trendPanels(
  rows: readonly ConfigRow[], versions: readonly string[], configs: readonly ConfigRef[], colorOf: (compiler: string) => string, metric: Metric = RPS,
): TrendPanel[] {
  const byCell = new Map(rows.map((r) => [`${r.version}|${r.compiler}|${r.flag_set}`, r]));
  const compilers = [...new Set(configs.map((c) => c.compiler))];
  const flagSets = [...new Set(configs.map((c) => c.flag_set))];
  return flagSets.map((flagSet) => ({
    key: flagSet,
    series: configs.filter((c) => c.flag_set === flagSet).map((config) => {
      let previous: { version: string; value: number } | null = null;
      const points = versions.map((version) => {
        const p = point(config, version, byCell.get(`${version}|${configKey(config)}`), previous, metric);
        if (p.value !== null) previous = { version, value: p.value };
        return p;
      });
      const said = points.map((p) => `${p.version} ${p.value === null ? statusText(p.status === 'ok' ? 'not_collected' : p.status, null) : `${formatFigure(p.value, metric.unit)} ${metric.unit}`}`);
      return {
        key: configKey(config),
        compiler: config.compiler,
        color: colorOf(config.compiler),
        dashed: compilers.indexOf(config.compiler) > 0,
        points,
        ariaLabel: `${config.compiler} ${config.flag_set} across releases: ${said.join('; ')}`,
      };
    }),
  }));
}
