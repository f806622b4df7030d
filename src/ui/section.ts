/**
 * The frame of an analysis section: heading, explanation, copy-link, a control row, a body, and
 * under it the tools for the queries behind what the body shows (their SQL in the console, their
 * rows as CSV or Parquet).
 */
import type { SectionId } from '../model/analysisState';
import { sectionSql } from '../sql/chartSql';
import type { Query } from '../sql/query';
import { copyLink } from './copyLink';
import { h } from './dom';
import { saveButton, TOOL_BUTTON } from './chartTools';

/** A query behind what a section shows. */
export interface SectionQuery {
  /** What its rows are, for the buttons: "geometric means". */
  readonly label: string;
  /** A title for the SQL's first comment line: what is shown, with its choices. */
  readonly title: string;
  readonly query: Query<unknown>;
  /** The downloaded file's name without extension. */
  readonly file: string;
}

/** What the section and chart tools ask of the app. */
export interface SectionTools {
  /** Opens the SQL console with `sql`; `chart`: the key of the chart it draws (the state then names that chart). */
  showSql(sql: string, chart?: string): void;
  /** Saves every row of `sql` as `<file>.csv` or `<file>.parquet`. */
  save(sql: string, format: 'csv' | 'parquet', file: string): Promise<void>;
}

/** Each section in words, for the tools' accessible names. */
const SECTION_NAMES: Readonly<Record<SectionId, string>> = { summary: 'summary', factors: 'build factors', trends: 'trends', compare: 'comparison', changes: 'changes between releases', hardware: 'comparison across hardware', status: 'status grid' };


/** A section's parts, filled by its view. */
export interface SectionFrame {
  readonly element: HTMLElement;
  /** Controls (selects) go here. */
  readonly controls: HTMLElement;
  /** The section's content. */
  readonly body: HTMLElement;
  /** A one-line status under the controls ("Computing…", errors). */
  readonly status: HTMLElement;
  /** The paragraph under the heading (a view hides it where it does not apply: the reference rule in a precision mode). */
  readonly intro: HTMLElement;
  /** Sets the queries behind what the body shows now (none: no tools). */
  setQueries(queries: readonly SectionQuery[]): void;
}

/**
 * A section `id` titled `title`, with `intro` nodes under the heading; `link` gives its deep link,
 * `tools` carries out its query buttons.
 */
export function sectionFrame(id: SectionId, title: string, intro: (Node | string)[], link: () => string, tools: SectionTools): SectionFrame {
  const copy = copyLink(link, 'Copy a link to this section as it is shown now');
  const controls = h('div', { class: 'mt-2 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm' });
  const status = h('p', { class: 'mt-1 text-xs text-slate-600', attrs: { role: 'status', 'data-status': '' } });
  const body = h('div', { class: 'mt-2' });
  const note = h('span', { class: 'text-xs text-slate-600', attrs: { role: 'status' } });
  const toolRow = h('div', { class: 'section-tools mt-3 flex flex-wrap items-center gap-1.5', attrs: { hidden: '' } });
  const group = (q: SectionQuery) => {
    const what = `the ${q.label} of the ${SECTION_NAMES[id]}`;
    const save = (format: 'csv' | 'parquet', name: string) =>
      saveButton(name, { 'data-action': `save-${format}`, 'aria-label': `Download ${what} as ${name}` }, note, () => tools.save(sectionSql(q.query, q.title), format, q.file));
    return h('span', { class: 'inline-flex flex-wrap items-center gap-1.5', attrs: { 'data-query': q.label } },
      h('span', { class: 'text-xs text-slate-600', attrs: { 'aria-hidden': 'true' } }, `${q.label.charAt(0).toUpperCase()}${q.label.slice(1)}:`),
      h('button', {
        class: TOOL_BUTTON,
        attrs: { type: 'button', 'data-action': 'sql', 'aria-label': `Open the SQL of ${what} in the console` },
        on: { click: () => tools.showSql(sectionSql(q.query, q.title)) },
      }, 'SQL'),
      save('csv', 'CSV'),
      save('parquet', 'Parquet'),
    );
  };
  let signature = '';
  const introText = h('p', { class: 'section-intro mt-1 max-w-4xl text-sm text-slate-700' }, ...intro);
  const element = h('section', {
    class: 'analysis-section mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm',
    attrs: { id: `section-${id}`, 'data-section': id, 'aria-labelledby': `section-${id}-title`, tabindex: '-1' },
  },
    h('div', { class: 'flex flex-wrap items-start justify-between gap-2' },
      h('h2', { class: 'text-lg font-semibold text-slate-900', attrs: { id: `section-${id}-title` } }, title),
      h('div', { class: 'flex items-center gap-2' }, copy.status, copy.link),
    ),
    introText,
    controls,
    status,
    body,
    toolRow,
  );
  return {
    element, controls, body, status, intro: introText,
    setQueries(queries) {
      const next = JSON.stringify(queries);
      if (next === signature) return;
      signature = next;
      note.textContent = '';
      toolRow.hidden = queries.length === 0;
      toolRow.replaceChildren(...queries.map(group), note);
    },
  };
}

/** A labelled select whose options are [value, text] pairs; `onPick` gets the chosen value. */
export function labelledSelect(id: string, label: string, onPick: (value: string) => void): { wrap: HTMLElement; select: HTMLSelectElement; setOptions(options: readonly (readonly [string, string])[], value: string): void } {
  // A select is as wide as its longest option unless it may shrink: on a phone it must.
  const select = h('select', { class: 'min-w-0 max-w-full rounded-md border border-slate-300 bg-white px-1 py-1 text-sm', attrs: { id }, on: { change: () => onPick(select.value) } });
  const wrap = h('div', { class: 'flex min-w-0 max-w-full items-center gap-2' }, h('label', { class: 'font-semibold text-slate-700', attrs: { for: id } }, label), select);
  let signature = '';
  return {
    wrap,
    select,
    setOptions(options, value) {
      const next = options.map(([v, t]) => `${v}\u0000${t}`).join('\u0001');
      if (next !== signature) {
        signature = next;
        select.replaceChildren(...options.map(([v, t]) => h('option', { attrs: { value: v } }, t)));
      }
      select.value = value;
    },
  };
}
