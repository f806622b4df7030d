/** The header's hardware choice: which CPU's figures the page shows. It reports a pick; the app owns the state. */
import { type HardwareClass, hardwareOptionText } from '../model/hardware';
import { h } from './dom';

/**
 * The hardware choice, or null when the data has fewer than two classes (nothing to choose): a
 * labelled select of every class in `classes` ("<label> — N runs, C of 132 cells measured"),
 * `selected` chosen, and the sentence why there is a choice.
 */
export function hardwareChoice(
  classes: readonly HardwareClass[], selected: HardwareClass | null, onPick: (slug: string) => void,
): HTMLElement | null {
  if (classes.length < 2) return null;
  const select = h('select', {
    class: 'min-w-0 max-w-full rounded-md border border-slate-300 bg-white px-1 py-1 text-sm',
    attrs: { id: 'hardware-select', 'aria-describedby': 'hardware-note' },
    on: { change: () => onPick(select.value) },
  }, ...classes.map((c) => h('option', { attrs: { value: c.slug, selected: c.slug === selected?.slug ? '' : null } }, hardwareOptionText(c))));
  return h('div', { class: 'mt-3 max-w-4xl', attrs: { id: 'hardware' } },
    h('div', { class: 'flex flex-wrap items-center gap-2' },
      h('label', { class: 'text-sm font-semibold text-slate-700', attrs: { for: 'hardware-select' } }, 'Hardware'),
      select),
    h('p', { class: 'mt-1 text-xs text-slate-600 max-md:hidden', attrs: { id: 'hardware-note' } },
      'Figures from different CPUs are never combined: each hardware has its own repeats, and the page shows one at a time. '
      + 'The counted metrics (instructions, estimated cycles and simulated misses per request) do not depend on the CPU: one dataset for every hardware, not filtered by this choice.'),
  );
}
