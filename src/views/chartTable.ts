/**
 * What a chart shows, as a table: one row per bar, with the figures the tooltips give. The
 * accessible alternative to the picture, and readable on any screen.
 */
import type { PlainValue } from '../data/arrowValues';
import { formatMs, formatPercent, formatRps } from '../model/format';
import { hostBusy, othersBusy, statusText } from '../model/bars';
import type { ConfigRow, VersionRow } from '../sql/charts';
import type { TableColumn } from './dataTable';

/** Columns and rows for dataTable. */
export interface TableModel {
  readonly columns: readonly TableColumn[];
  readonly rows: readonly (readonly PlainValue[])[];
}

const number = (format: (n: number) => string) => (v: PlainValue) => (typeof v === 'number' ? format(v) : '—');
const text = (header: string): TableColumn => ({ header, numeric: false, format: (v) => (v === null ? '—' : String(v)) });
const RPS: TableColumn = { header: 'Requests/s (best repeat)', numeric: true, format: number(formatRps) };
const SLOWEST: TableColumn = { header: 'Slowest repeat, req/s', numeric: true, format: number(formatRps) };
const P50: TableColumn = { header: 'p50 latency', numeric: true, format: number(formatMs) };
const BUSY: TableColumn = { header: 'Other processes, max % of a CPU', numeric: true, format: number((n) => `${Math.round(n)}%${othersBusy(n) ? ' ⚠ busy' : ''}`) };
const STEAL: TableColumn = { header: 'Host steal, max % of a CPU', numeric: true, format: number((n) => `${n.toFixed(1)}%${hostBusy(n) ? ' ⚠ busy' : ''}`) };

function outcome(row: VersionRow | ConfigRow): string {
  return row.status === 'ok' ? 'measured' : statusText(row.status, row.reason);
}

function repeats(row: VersionRow | ConfigRow): string | null {
  return row.status === 'ok' ? `${row.ok_repeats ?? '?'} of ${row.planned_repeats ?? '?'}` : null;
}

/** One row per version: its fastest configuration's figures. */
export function versionTable(rows: readonly VersionRow[]): TableModel {
  return {
    columns: [text('Version'), RPS, text('Fastest configuration'), text('Repeats'), SLOWEST, P50, BUSY, STEAL, text('Status')],
    rows: rows.map((r) => [
      r.version, r.best_rps, r.compiler ? `${r.compiler} ${r.flag_set ?? ''}`.trim() : null,
      repeats(r), r.min_rps, r.p50_ms, r.busy_pct, r.steal_pct, outcome(r),
    ]),
  };
}

/** One row per configuration of a version. */
export function configTable(rows: readonly ConfigRow[]): TableModel {
  return {
    columns: [
      text('Compiler'), text('Flag set'), RPS,
      { header: 'Compared with the fastest', numeric: true, format: number(formatPercent) },
      text('Repeats'), SLOWEST, P50, BUSY, STEAL, text('Status'),
    ],
    rows: rows.map((r) => [
      r.compiler, r.flag_set, r.best_rps, r.vs_winner, repeats(r), r.min_rps, r.p50_ms, r.busy_pct, r.steal_pct, r.winner ? 'measured, the fastest ★' : outcome(r),
    ]),
  };
}
