/** The frame of an analysis section: heading, explanation, copy-link, a control row and a body. */
import type { SectionId } from '../model/analysisState';
import { copyLink } from '../ui/copyLink';
import { h } from '../ui/dom';

/** A section's parts, filled by its view. */
export interface SectionFrame {
  readonly element: HTMLElement;
  /** Controls (selects) go here. */
  readonly controls: HTMLElement;
  /** The section's content. */
  readonly body: HTMLElement;
  /** A one-line status under the controls ("Computing…", errors). */
  readonly status: HTMLElement;
}

/** A section `id` titled `title`, with `intro` nodes under the heading; `link` gives its deep link. */
export function sectionFrame(id: SectionId, title: string, intro: (Node | string)[], link: () => string): SectionFrame {
  const copy = copyLink(link, 'Copy a link to this section as it is shown now');
  const controls = h('div', { class: 'mt-2 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm' });
  const status = h('p', { class: 'mt-1 text-xs text-slate-600', attrs: { role: 'status', 'data-status': '' } });
  const body = h('div', { class: 'mt-2' });
  const element = h('section', {
    class: 'analysis-section mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm',
    attrs: { id: `section-${id}`, 'data-section': id, 'aria-labelledby': `section-${id}-title`, tabindex: '-1' },
  },
    h('div', { class: 'flex flex-wrap items-start justify-between gap-2' },
      h('h2', { class: 'text-lg font-semibold text-slate-900', attrs: { id: `section-${id}-title` } }, title),
      h('div', { class: 'flex items-center gap-2' }, copy.status, copy.link),
    ),
    h('p', { class: 'mt-1 max-w-4xl text-sm text-slate-700' }, ...intro),
    controls,
    status,
    body,
  );
  return { element, controls, body, status };
}

/** A labelled select whose options are [value, text] pairs; `onPick` gets the chosen value. */
export function labelledSelect(id: string, label: string, onPick: (value: string) => void): { wrap: HTMLElement; select: HTMLSelectElement; setOptions(options: readonly (readonly [string, string])[], value: string): void } {
  const select = h('select', { class: 'rounded-md border border-slate-300 bg-white px-1 py-1 text-sm', attrs: { id }, on: { change: () => onPick(select.value) } });
  const wrap = h('div', { class: 'flex items-center gap-2' }, h('label', { class: 'font-semibold text-slate-700', attrs: { for: id } }, label), select);
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
