/**
 * What a chart shows, as a table: one row per bar, with the figures the tooltips give. The
 * accessible alternative to the picture, and readable on any screen.
 */
import type { PlainValue } from '../data/arrowValues';
import { formatFigure, formatMs, formatPercent } from '../model/format';
import { hostBusy, othersBusy, statusText } from '../model/bars';
import type { ConfigRow, VersionRow } from '../sql/charts';
import { unstable } from '../model/stats';
import { type Metric, RPS as REQUESTS } from '../vocabulary';
import type { TableColumn } from './dataTable';

/** Columns and rows for dataTable. */
export interface TableModel {
  readonly columns: readonly TableColumn[];
  readonly rows: readonly (readonly PlainValue[])[];
}

const number = (format: (n: number) => string) => (v: PlainValue) => (typeof v === 'number' ? format(v) : '—');
const text = (header: string): TableColumn => ({ header, numeric: false, format: (v) => (v === null ? '—' : String(v)) });
/** The figure's columns in `metric`: its best and its worst repeat (a precision mode's: its geometric mean over the rounds, its slowest round). */
const figureColumns = (metric: Metric, precision: boolean): [TableColumn, TableColumn] => {
  const format = number((n) => formatFigure(n, metric.unit));
  if (precision) return [{ header: 'Requests/s (geometric mean of the rounds)', numeric: true, format }, { header: 'Slowest round, req/s', numeric: true, format }];
  if (!metric.lower) return [{ header: 'Requests/s (best repeat)', numeric: true, format }, { header: 'Slowest repeat, req/s', numeric: true, format }];
  return [{ header: `${metric.name} (best repeat, ${metric.direction})`, numeric: true, format }, { header: `${metric.kind === 'counted' ? 'Costliest' : 'Highest'} repeat, ${metric.unit}`, numeric: true, format }];
};
/** A precision figure's coefficient of variation over its rounds, marked above UNSTABLE_CV. */
const CV: TableColumn = { header: 'Coefficient of variation (rounds)', numeric: true, format: number((n) => `${formatPercent(n)}${unstable(n) ? ' ⚠ unstable' : ''}`) };
const P50: TableColumn = { header: 'p50 latency of the fastest repeat', numeric: true, format: number(formatMs) };
const BUSY: TableColumn = { header: 'Other processes, max % of a CPU', numeric: true, format: number((n) => `${Math.round(n)}%${othersBusy(n) ? ' ⚠ busy' : ''}`) };
const STEAL: TableColumn = { header: 'Host steal, max % of a CPU', numeric: true, format: number((n) => `${n.toFixed(1)}%${hostBusy(n) ? ' ⚠ busy' : ''}`) };

function outcome(row: VersionRow | ConfigRow, metric: Metric = REQUESTS): string {
  return row.status === 'ok' ? metric.kind : statusText(row.status, row.reason);
}

function repeats(row: VersionRow | ConfigRow): string | null {
  return row.status === 'ok' ? `${row.ok_repeats ?? '?'} of ${row.planned_repeats ?? '?'}` : null;
}

/** Whether the rows are a precision mode's. */
const precise = (rows: readonly (VersionRow | ConfigRow)[]) => rows.some((r) => r.protocol === 'precision');

/** The columns only a measured figure has (the p50 latency of the fastest repeat, machine load). */
const measuredOnly = (metric: Metric) => metric.kind === 'measured';

/** One row per version: its best configuration's figures, in `metric`. */
export function versionTable(rows: readonly VersionRow[], metric: Metric = REQUESTS): TableModel {
  const precision = precise(rows);
  const [best, worst] = figureColumns(metric, precision);
  const load = measuredOnly(metric);
  return {
    columns: [text('Version'), best, text(`${metric.best.replace(/^./, (c) => c.toUpperCase())} configuration`), text(precision ? 'Rounds' : 'Repeats'), worst, ...(precision ? [CV] : []), ...(load ? [P50, BUSY, STEAL] : []), text('Status')],
    rows: rows.map((r) => [
      r.version, r.best_value, r.compiler ? `${r.compiler} ${r.flag_set ?? ''}`.trim() : null,
      repeats(r), r.worst_value, ...(precision ? [r.cv] : []), ...(load ? [r.p50_ms, r.busy_pct, r.steal_pct] : []), outcome(r, metric),
    ]),
  };
}

/** One row per configuration of a version, in `metric`. */
export function configTable(rows: readonly ConfigRow[], metric: Metric = REQUESTS): TableModel {
  const precision = precise(rows);
  const [best, worst] = figureColumns(metric, precision);
  const load = measuredOnly(metric);
  return {
    columns: [
      text('Compiler'), text('Flag set'), best,
      { header: `Compared with the ${metric.best}`, numeric: true, format: number(formatPercent) },
      text(precision ? 'Rounds' : 'Repeats'), worst, ...(precision ? [CV] : []), ...(load ? [P50, BUSY, STEAL] : []), text('Status'),
    ],
    rows: rows.map((r) => [
      r.compiler, r.flag_set, r.best_value, r.vs_winner, repeats(r), r.worst_value, ...(precision ? [r.cv] : []), ...(load ? [r.p50_ms, r.busy_pct, r.steal_pct] : []),
      r.winner ? `${metric.kind}, the ${metric.best} ★` : outcome(r, metric),
    ]),
  };
}
