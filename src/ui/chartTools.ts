/**
 * The tools under each chart: its data table, the SQL behind it, and downloads of its rows (CSV,
 * Parquet) and of its picture (SVG, PNG). Buttons only: what they do is the app's (the heavy parts
 * are loaded on first use).
 */
import { h } from './dom';

/** A file the chart can be saved as. */
export type ChartFile = 'csv' | 'parquet' | 'svg' | 'png';

/** What the buttons ask of the app. */
export interface ChartToolActions {
  /** Show or hide the data table. */
  toggleTable(): void;
  /** Open the SQL console with the chart's query. */
  showSql(): void;
  /** Save the chart's rows or picture. */
  save(file: ChartFile): Promise<void>;
}

/** The tools of one chart. */
export interface ChartTools {
  /** Shows `table` under the chart, or hides the table (null). */
  setTable(table: HTMLElement | null): void;
  /** Whether the table is shown. */
  readonly tableShown: boolean;
}

/** The look of the tools' buttons (charts and sections). */
export const TOOL_BUTTON = 'rounded-md border border-slate-300 px-2 py-1 text-xs text-slate-800 hover:bg-slate-100';

/** A button that writes a `label` file with `write`; `note` says it is writing, or why it could not. */
export function saveButton(label: string, attrs: Readonly<Record<string, string>>, note: HTMLElement, write: () => Promise<void>): HTMLButtonElement {
  return h('button', {
    class: TOOL_BUTTON,
    attrs: { type: 'button', ...attrs },
    on: {
      click: () => {
        note.textContent = `Writing ${label}…`;
        write().then(
          () => (note.textContent = ''),
          (err: unknown) => (note.textContent = `Could not write the ${label} file: ${err instanceof Error ? err.message : String(err)}`),
        );
      },
    },
  }, label);
}

/** Buttons that wrap onto the next line together, after a visual label (their own names say it all). */
const group = (label: string, ...buttons: HTMLElement[]) =>
  h('span', { class: 'ml-1 inline-flex items-center gap-1.5' }, h('span', { class: 'text-xs text-slate-600', attrs: { 'aria-hidden': 'true' } }, label), ...buttons);

/** Appends the tools (and a place for the table) to `figure`; `id` is the figure's element id. */
export function chartTools(figure: HTMLElement, id: string, actions: ChartToolActions): ChartTools {
  const tableId = `${id}-table`;
  const note = h('span', { class: 'text-xs text-slate-600', attrs: { role: 'status' } });
  const table = h('div', { class: 'chart-table mt-2 max-h-96 overflow-auto', attrs: { id: tableId, hidden: '' } });
  const toggle = h('button', {
    class: `${TOOL_BUTTON} aria-pressed:bg-slate-800 aria-pressed:text-white`,
    attrs: { type: 'button', 'aria-pressed': 'false', 'aria-controls': tableId, 'data-action': 'table' },
    on: { click: () => actions.toggleTable() },
  }, 'Data table');
  const save = (file: ChartFile, label: string, what: string) =>
    saveButton(label, { 'data-action': `save-${file}`, 'aria-label': `Download ${what} as ${label}` }, note, () => actions.save(file));
  figure.append(
    h('div', { class: 'chart-tools mt-2 flex flex-wrap items-center gap-1.5' },
      toggle,
      h('button', {
        class: TOOL_BUTTON,
        attrs: { type: 'button', 'data-action': 'sql', title: 'Open the SQL console with the query behind this chart' },
        on: { click: () => actions.showSql() },
      }, 'SQL'),
      group('Rows:', save('csv', 'CSV', "this chart's rows"), save('parquet', 'Parquet', "this chart's rows")),
      group('Image:', save('svg', 'SVG', 'this chart'), save('png', 'PNG', 'this chart')),
      note,
    ),
    table,
  );
  return {
    setTable(content) {
      toggle.setAttribute('aria-pressed', String(content !== null));
      table.hidden = content === null;
      table.replaceChildren(...(content ? [content] : []));
    },
    get tableShown() {
      return !table.hidden;
    },
  };
}
