/** The filter bar: metric, view, mode, test search and version range. It reports changes; the app owns the state. */
import type { AppState, ModeFilter } from '../model/state';
import type { AxisView } from '../model/domain';
import { METRIC_IDS, type MetricId, METRICS } from '../vocabulary';
import { h } from './dom';

/** A change the user asked for. */
export type StatePatch = Partial<Pick<AppState, 'ext' | 'metric' | 'view' | 'mode' | 'q' | 'from' | 'to' | 'releases'>> & { reset?: true };

/** The filter bar, kept in step with the state. */
export interface Controls {
  /** Shows `state` in the controls and how many charts it leaves visible. */
  sync(state: AppState, shown: number, total: number): void;
  /**
   * How many counted figures the data holds: with none, the counted metrics say "not collected
   * yet" (they can still be picked, and show every bar as not collected, never as zero).
   */
  setCounted(figures: number): void;
}

/**
 * The metric control's short labels (each option's title gives the metric's full label and
 * direction), short enough that the nine options stay on one line at 1400 px.
 */
const METRIC_LABELS: Readonly<Record<MetricId, string>> = {
  rps: 'requests/s', p50: 'p50', p95: 'p95', p99: 'p99', ir: 'instr/req (counted)', cycles: 'est. cycles/req (counted)',
  l1: 'L1 misses/req (simulated)', ll: 'LL misses/req (simulated)', branch: 'mispredicts/req (simulated)',
};

const SEARCH_DELAY_MS = 250;

/** A mode's label: its name, and the pipeline depth of the pipelined modes. */
const modeLabel = (mode: string) => (mode.startsWith('pipe') ? `${mode} (-P 1000)` : mode);

/** The modes the data has: the reference modes (shown together by 'all') and the precision modes, with which versions have them. */
export interface ModeChoices {
  readonly reference: readonly string[];
  readonly precision: readonly string[];
  /** One sentence per precision mode: the versions it has measured (src/model/precision.ts, precisionCoverageText). */
  readonly coverage: readonly string[];
}

function radioGroup<T extends string>(name: string, legend: string, options: readonly (readonly [T, string])[], onPick: (v: T) => void, titles: Partial<Record<T, string>> = {}) {
  // Each input sits inside its label, so the label's look follows its own input only.
  const inputs = options.map(([value]) =>
    h('input', { class: 'sr-only', attrs: { type: 'radio', name, value, id: `${name}-${value}` }, on: { change: () => onPick(value) } }),
  );
  const labels = options.map(([, label], i) =>
    h('label', {
      class: 'cursor-pointer border border-slate-300 px-3 py-1 text-sm first:rounded-l-md last:rounded-r-md has-checked:bg-slate-800 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-blue-600',
      attrs: titles[options[i]![0]] ? { title: titles[options[i]![0]]! } : {},
    }, inputs[i] ?? '', h('span', { class: 'option-text' }, label)),
  );
  // min-w-0: a fieldset is at least as wide as its content unless told otherwise, which on a
  // phone pushes the page sideways; the options wrap instead.
  const fieldset = h('fieldset', { class: 'flex min-w-0 max-w-full flex-wrap items-center gap-2' },
    h('legend', { class: 'sr-only' }, legend),
    h('span', { class: 'text-sm font-semibold text-slate-700', attrs: { 'aria-hidden': 'true' } }, legend),
    h('div', { class: 'inline-flex min-w-0 flex-wrap' }, ...labels),
  );
  const set = (value: T) => inputs.forEach((input) => (input.checked = input.value === value));
  return { fieldset, set, labels };
}

/** The mode control, and the line under the filter bar on what the precision modes have measured. */
function modeControl(modes: ModeChoices, onChange: (patch: StatePatch) => void): { group: ReturnType<typeof radioGroup<ModeFilter>>; coverage: HTMLElement } {
  const precisionTitle = `The precision protocol: every test lasts at least 1.5 s (a calibrated request count), configurations are measured in interleaved rounds, and every comparison has a 95% bootstrap interval expanded for the few rounds; requests/second only. Measured so far: ${modes.coverage.join('; ')}`;
  const group = radioGroup<ModeFilter>('mode', 'Mode', [
    ['all', modes.precision.length ? 'Both (reference)' : 'Both'], ...modes.reference.map((m) => [m, modeLabel(m)] as const),
    ...(modes.precision.length ? [['precision', 'Both (precision)'] as const, ...modes.precision.map((m) => [m, modeLabel(m)] as const)] : []),
  ], (v) => onChange({ mode: v }), Object.fromEntries([
    ['all', `The reference modes (${modes.reference.join(', ')}): the 2014 page's protocol, 120,000 requests per test, best of the repeats`],
    ...['precision', ...modes.precision].map((m) => [m, precisionTitle]),
  ]));
  // Under the filter bar, not in it: the bar stays one line tall where it sticks to the top.
  const coverage = h('p', { class: 'mx-auto max-w-7xl px-4 pt-2 text-xs text-slate-600', attrs: { id: 'precision-coverage' } },
    modes.precision.length ? `Precision modes (requests/second only; tests of at least 1.5 s, interleaved rounds, 95% intervals), measured so far: ${modes.coverage.join('; ')}.` : '');
  coverage.hidden = modes.precision.length === 0;
  return { group, coverage };
}

/** The test search: reports its text once typing pauses. */
function searchInput(onChange: (patch: StatePatch) => void): HTMLInputElement {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const search = h('input', {
    class: 'w-48 rounded-md border border-slate-300 px-2 py-1 text-sm',
    attrs: { type: 'search', id: 'test-search', placeholder: 'e.g. LRANGE, SET', autocomplete: 'off' },
    on: {
      input: () => {
        clearTimeout(timer);
        timer = setTimeout(() => onChange({ q: search.value.trim() }), SEARCH_DELAY_MS);
      },
    },
  });
  return search;
}

/** One end of the version range: a select of `versions` (empty: the oldest or the newest), and its label. */
function versionSelect(versions: readonly string[], id: string, label: string, key: 'from' | 'to', onChange: (patch: StatePatch) => void) {
  const select = h('select', { class: 'rounded-md border border-slate-300 px-1 py-1 text-sm', attrs: { id }, on: { change: () => onChange({ [key]: select.value || null }) } },
    h('option', { attrs: { value: '' } }, key === 'from' ? 'oldest' : 'newest'),
    ...versions.map((v) => h('option', { attrs: { value: v } }, v)),
  );
  return { select, label: h('label', { class: 'text-sm font-semibold text-slate-700', attrs: { for: id } }, label) };
}

/** The "every release" switch (adding `others` releases) and the "extended builds" switch (adding `flagSets`), each in its label. */
function switches(others: number, flagSets: readonly string[], onChange: (patch: StatePatch) => void) {
  const every = h('input', { attrs: { type: 'checkbox', id: 'every-release' }, on: { change: () => onChange({ releases: every.checked ? 'all' : 'current' }) } });
  const everyLabel = h('label', {
    class: 'flex items-center gap-1 text-sm text-slate-700',
    attrs: { for: 'every-release', title: `Charts show the current versions (the newest patch of each minor line); this adds the ${others} other releases, measured with one repeat (no noise estimate)` },
  }, every, `Every release (+${others})`);
  const extended = h('input', { attrs: { type: 'checkbox', id: 'extended-builds' }, on: { change: () => onChange({ ext: extended.checked }) } });
  const extendedLabel = h('label', {
    class: 'flex items-center gap-1 text-sm text-slate-700',
    attrs: { for: 'extended-builds', title: `Every view shows the reference configurations; this adds the extended flag sets (${flagSets.join(', ')}) for each compiler, where they were built and measured` },
  }, extended, `Extended builds (${flagSets.join(', ')})`);
  return { every, everyLabel, extended, extendedLabel };
}

/** On a phone the filters fold behind one button, so the charts start within two screens: the button. */
function foldButton(rows: HTMLElement, coverage: HTMLElement): HTMLButtonElement {
  const fold = h('button', {
    class: 'rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100 md:hidden',
    attrs: { type: 'button', 'aria-expanded': 'false', 'aria-controls': 'control-rows', 'data-action': 'filters' },
    on: {
      click: () => {
        const open = rows.classList.toggle('max-md:hidden') === false;
        fold.setAttribute('aria-expanded', String(open));
        coverage.classList.toggle('max-md:hidden', !open);
      },
    },
  }, 'Filters');
  return fold;
}

/**
 * Builds the controls into `root`; `versions` in release order fill the range selects. With
 * `others` (versions that are not current) an "every release" switch shows them too; with
 * `extendedFlagSets` (the flag sets of the plan's extended configurations) an "extended builds"
 * switch adds those configurations.
 */
export function createControls(
  root: HTMLElement, versions: readonly string[], onChange: (patch: StatePatch) => void, others = 0,
  modes: ModeChoices = { reference: ['data', 'pipe'], precision: [], coverage: [] }, extendedFlagSets: readonly string[] = [],
): Controls {
  const metric = radioGroup<MetricId>('metric', 'Metric', METRIC_IDS.map((id) => [id, METRIC_LABELS[id]] as const), (v) => onChange({ metric: v }),
    Object.fromEntries(METRIC_IDS.map((id) => [id, `${METRICS[id].label}: ${METRICS[id].direction}`])));
  const view = radioGroup<AxisView>('view', 'Axis', [['real', 'Real View'], ['max', 'Max Change View']], (v) => onChange({ view: v }));
  const { group: mode, coverage } = modeControl(modes, onChange);
  const search = searchInput(onChange);
  const from = versionSelect(versions, 'version-from', 'Versions', 'from', onChange);
  const to = versionSelect(versions, 'version-to', 'to', 'to', onChange);
  const count = h('span', { class: 'text-sm text-slate-600', attrs: { id: 'chart-count', 'aria-live': 'polite' } });
  const { every, everyLabel, extended, extendedLabel } = switches(others, extendedFlagSets, onChange);
  const reset = h('button', { class: 'rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100', attrs: { type: 'button' }, on: { click: () => onChange({ reset: true }) } }, 'Reset');

  const rows = h('div', { class: 'contents max-md:hidden', attrs: { id: 'control-rows' } },
    metric.fieldset,
    view.fieldset,
    mode.fieldset,
    h('div', { class: 'flex items-center gap-2' }, h('label', { class: 'text-sm font-semibold text-slate-700', attrs: { for: 'test-search' } }, 'Test'), search),
    h('div', { class: 'flex items-center gap-2' }, from.label, from.select, to.label, to.select),
    ...(others > 0 ? [everyLabel] : []),
    ...(extendedFlagSets.length ? [extendedLabel] : []),
    reset,
  );
  root.replaceChildren(foldButton(rows, coverage), rows, count);
  coverage.classList.add('max-md:hidden');
  document.getElementById('precision-coverage')?.remove();
  root.after(coverage);

  return {
    sync(state, shown, total) {
      metric.set(state.metric);
      view.set(state.view);
      mode.set(state.mode);
      if (document.activeElement !== search && search.value.trim() !== state.q) search.value = state.q;
      from.select.value = state.from ?? '';
      to.select.value = state.to ?? '';
      every.checked = state.releases === 'all';
      extended.checked = state.ext;
      count.textContent = `${shown} of ${total} charts`;
    },
    setCounted(figures) {
      METRIC_IDS.forEach((id, i) => {
        if (METRICS[id].kind !== 'counted') return;
        const text = metric.labels[i]?.querySelector('.option-text');
        if (text) text.textContent = figures > 0 ? METRIC_LABELS[id] : `${METRIC_LABELS[id]}: not collected yet`;
      });
    },
  };
}
