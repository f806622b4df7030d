/**
 * A sortable HTML table of plain values: the SQL console's results and each chart's accessible
 * data table. Header buttons sort (ascending, then descending) and say so with aria-sort; values
 * are only ever set as text.
 */
import type { PlainValue } from '../data/arrowValues';
import { h } from './dom';

/** One column. */
export interface TableColumn {
  readonly header: string;
  /** Right-aligned and sorted as numbers. */
  readonly numeric: boolean;
  /** The cell text of a value (default: as DuckDB prints it, NULL for null). */
  readonly format?: (value: PlainValue) => string;
  /** Shown when the pointer rests on the header, e.g. the column's type. */
  readonly title?: string;
}

/** Sort direction of a column. */
export type SortDirection = 'ascending' | 'descending';

/** A value as text: NULL for null, JSON for lists and structs. */
export function cellText(value: PlainValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Compares two values for an ascending sort: numbers by value, text in natural order ("7.2.6"
 * before "7.10.0"), anything else by its text. Nulls sort last in both directions (see sortRows).
 */
export function compareValues(a: PlainValue, b: PlainValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return cellText(a).localeCompare(cellText(b), 'en', { numeric: true });
}

/** The rows sorted by column `index` (stable; nulls last either way). Returns a new array. */
export function sortRows<Row extends readonly PlainValue[]>(rows: readonly Row[], index: number, direction: SortDirection): Row[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, order) => ({ row, order }))
    .sort((x, y) => {
      const a = x.row[index] ?? null;
      const b = y.row[index] ?? null;
      if (a === null || b === null) return a === b ? x.order - y.order : a === null ? 1 : -1;
      return sign * compareValues(a, b) || x.order - y.order;
    })
    .map(({ row }) => row);
}

/** A table of `rows` under `columns`, with `caption` (visible, and its accessible name). */
export function dataTable(columns: readonly TableColumn[], rows: readonly (readonly PlainValue[])[], caption: string): HTMLTableElement {
  const body = h('tbody', {});
  const fill = (shown: readonly (readonly PlainValue[])[]) => {
    body.replaceChildren(
      ...shown.map((row) =>
        h('tr', { class: 'border-t border-slate-200 even:bg-slate-50' },
          ...columns.map((column, i) => {
            const value = row[i] ?? null;
            const text = (column.format ?? cellText)(value);
            // Short values stay on one line; long ones (logs, raw output) wrap in a wide column.
            const fit = text.length <= 40 ? 'whitespace-nowrap' : 'min-w-64';
            return h('td', { class: `px-2 py-1 align-top ${fit} ${column.numeric ? 'text-right tabular-nums' : ''} ${value === null ? 'text-slate-500 italic' : ''}` }, text);
          }),
        ),
      ),
    );
  };
  const headers = columns.map((column, i) => {
    const th = h('th', { class: `px-2 py-1 font-semibold ${column.numeric ? 'text-right' : 'text-left'}`, attrs: { scope: 'col', title: column.title ?? null } });
    const button = h('button', {
      class: 'inline-flex items-center gap-1 whitespace-nowrap hover:underline',
      attrs: { type: 'button' },
      on: {
        click: () => {
          const direction: SortDirection = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
          headers.forEach((other) => other.removeAttribute('aria-sort'));
          th.setAttribute('aria-sort', direction);
          fill(sortRows(rows, i, direction));
        },
      },
    }, column.header, h('span', { class: 'sort-mark text-slate-500', attrs: { 'aria-hidden': 'true' } }));
    th.append(button);
    return th;
  });
  fill(rows);
  return h('table', { class: 'data-table w-full border-collapse text-xs' },
    h('caption', { class: 'mb-1 text-left text-xs text-slate-700' }, caption),
    h('thead', { class: 'sticky top-0 bg-slate-100' }, h('tr', {}, ...headers)),
    body,
  );
}
