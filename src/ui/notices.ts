/** Messages on the page: link problems (dismissable), load errors and the no-data state. */
import { h } from './dom';

/** Shows a dismissable notice listing what could not be restored from the link. */
export function showLinkNotice(container: HTMLElement, problems: readonly string[]): void {
  if (!problems.length) return;
  const box = h('div', {
    class: 'link-notice my-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900',
    attrs: { role: 'status', 'data-notice': 'link' },
  },
    h('p', { class: 'font-semibold' }, 'Part of this link could not be restored; defaults are shown instead.'),
    h('ul', { class: 'ml-5 list-disc' }, ...problems.map((p) => h('li', {}, p))),
  );
  box.append(h('button', {
    class: 'mt-2 rounded border border-amber-400 px-2 py-0.5 text-xs hover:bg-amber-100',
    attrs: { type: 'button' },
    on: { click: () => box.remove() },
  }, 'Dismiss'));
  container.append(box);
}

/** Shows which data files are not published, when others are (a partial or broken deploy). */
export function showMissingFilesNotice(container: HTMLElement, files: readonly string[]): void {
  if (!files.length) return;
  container.append(h('div', {
    class: 'my-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900',
    attrs: { role: 'status', 'data-notice': 'missing-files' },
  }, `Not published yet: ${files.join(', ')}. The page shows what the other data files hold.`));
}

/** Replaces `main` with an error panel: a headline, the details, and what the reader can do. */
export function showLoadError(main: HTMLElement, title: string, details: string, hint: string): void {
  main.setAttribute('aria-busy', 'false');
  main.replaceChildren(h('section', {
    class: 'load-error rounded-lg border border-red-300 bg-red-50 p-5 text-red-900',
    attrs: { role: 'alert', 'data-error': 'load' },
  },
    h('h2', { class: 'text-lg font-semibold' }, title),
    h('pre', { class: 'mt-2 whitespace-pre-wrap break-words font-mono text-xs' }, details),
    h('p', { class: 'mt-3 text-sm' }, hint),
  ));
}

/** Replaces `main` with the no-data state: what is planned and that nothing is measured yet. */
export function showNoData(main: HTMLElement, detail: string): void {
  main.setAttribute('aria-busy', 'false');
  main.replaceChildren(h('section', {
    class: 'no-data rounded-lg border border-slate-300 bg-white p-5 text-slate-800',
    attrs: { role: 'status', 'data-empty': 'true' },
  },
    h('h2', { class: 'text-lg font-semibold' }, 'No data yet'),
    h('p', { class: 'mt-2 text-sm' }, detail),
  ));
}
