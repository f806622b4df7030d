/**
 * The summary section (the landing section): every configuration's geometric-mean speed against
 * a baseline, per mode, with the distribution of its per-test changes (one version, or all
 * versions) and a table of the scores per version; for the precision modes (the mode filter's
 * protocol), the same by bootstrap intervals of paired rounds. Under both, how long each test
 * lasted and the resolution that gives.
 */
import { changeStrip, type ChangeStrip } from '../chart/changeStrip';
import { type HeatTables, heatTables } from '../chart/heatTable';
import { fileSlug } from '../export/download';
import { configKey, parseConfigKey } from '../model/analysisState';
import { configName } from '../model/changeText';
import { CYCLES_FORMULA, metricSuffix } from '../model/metric';
import { precisionStats } from '../data/precisionStats';
import { cvLines, durationLines, durationTable, RULE_TEXT } from '../model/precision';
import { type AppState, protocolOf, shownVersions } from '../model/state';
import {
  ALL_VERSIONS, instrumentLines, scopeText, summaryHeadlines, summaryModes, summaryStatus, summaryStrip, summaryTable,
} from '../model/summary';
import { spreadQuery, winnerTallyQuery } from '../sql/counted';
import { precisionCvQuery, precisionSummaryQuery, testDurationQuery } from '../sql/precision';
import { summaryItemsQuery, type SummaryItemRow, summaryQuery, type SummaryRow } from '../sql/summary';
import { h } from '../ui/dom';
import { labelledSelect, sectionFrame, type SectionFrame, type SectionQuery } from '../ui/section';
import { type ConfigRef, INSTRUMENT_IDS, type Metric, metricOf, type Protocol, SIMULATED_NOTE } from '../vocabulary';
import { type AnalysisContext, type SectionView, showSectionError } from './context';

/** Runs `task` once the browser is idle (soon, where there is no requestIdleCallback). */
const whenIdle = (task: () => void) => ('requestIdleCallback' in window ? requestIdleCallback(task, { timeout: 5000 }) : setTimeout(task, 500));

/** What the count is and is not, the estimated cycles' formula, what the simulated misses are, and that it is one dataset for every machine. */
const COUNT_NOTE = [
  'Two instruments. Requests/second is measured on the hardware shown: the real speed, but noisy on a shared virtual machine. ',
  'Instructions, estimated cycles, simulated cache misses and branch mispredictions per request are counted under Valgrind (callgrind with fixed simulated caches), for the server\'s ',
  'work on the benchmark\'s requests only: they measure the code each compiler produced (instructions executed, simulated cache and ',
  'branch behaviour), not wall-clock speed on any CPU; the throughput charts remain the real speed. A count repeats almost exactly, so its ',
  'noise band (its own repeats\' spread) is tiny and small differences are called. A count does not depend on the machine: it is one ',
  'dataset for every hardware class, and the Hardware selector does not filter it. Lower is better for a count. ',
  `The cycles are an estimate (iai's): ${CYCLES_FORMULA}. `,
  SIMULATED_NOTE,
].join('');

/** What the precision modes are, for the note above the summary. */
const PRECISION_NOTE = [
  'Precision modes: the reference modes\' requests, but every test lasts at least 1.5 s (a request count calibrated per version and test, ',
  'so one millisecond of the client\'s clock is under 0.1% of it), and the configurations of a version are measured in interleaved rounds, ',
  'each in a fresh random order, so configurations compared within a round share nearly the same host. A bar is the geometric mean over the rounds; ',
  'each configuration\'s change against the baseline is the geometric mean of its per-round paired ratios. ',
  'Over all versions, the k-th round of every version is resampled together, with the versions\' tests.',
].join('');

/** How long each test lasted and the resolution that gives, per mode: lines, and a table per test in a disclosure. */
function durationBlock(): { element: HTMLElement; show(rows: Parameters<typeof durationLines>[0]): void } {
  const lines = h('ul', { class: 'summary-durations mb-1 space-y-1 text-sm text-slate-700' });
  const table = h('div', { class: 'overflow-x-auto' });
  const element = h('div', { class: 'mb-3' }, lines, h('details', { class: 'text-sm' }, h('summary', { class: 'cursor-pointer text-slate-700' }, 'How long each test lasted, per mode'), table));
  return {
    element,
    show(rows) {
      lines.replaceChildren(...durationLines(rows).map(({ mode, protocol, text }) => h('li', { attrs: { 'data-mode': mode, 'data-protocol': protocol } }, text)));
      const { modes, tests } = durationTable(rows);
      const th = (text: string) => h('th', { class: 'border-b border-slate-300 px-2 py-1 text-left font-semibold', attrs: { scope: 'col' } }, text);
      table.replaceChildren(h('table', { class: 'duration-table border-collapse tabular-nums' },
        h('caption', { class: 'text-left text-slate-700' }, 'Median duration of each test (requests / requests per second) and one millisecond as a share of it'),
        h('thead', {}, h('tr', {}, th('Test'), ...modes.map(th))),
        h('tbody', {}, ...tests.map((t) => h('tr', { attrs: { 'data-test': t.test } },
          h('th', { class: 'px-2 py-0.5 text-left font-normal', attrs: { scope: 'row' } }, t.test),
          ...t.cells.map((c, i) => h('td', { class: 'px-2 py-0.5', attrs: { 'data-mode': modes[i] ?? '', ...(c ? { title: c.title } : {}) } }, c ? c.text : '–')))))));
    },
  };
}

/** The summary's parts on the page, and its renders under way. */
interface Summary {
  readonly frame: SectionFrame;
  readonly title: HTMLElement | null;
  readonly countNote: HTMLElement;
  readonly rule: HTMLElement;
  readonly durations: ReturnType<typeof durationBlock>;
  readonly headline: HTMLElement;
  readonly instruments: HTMLElement;
  readonly baseSelect: ReturnType<typeof labelledSelect>;
  readonly scopeSelect: ReturnType<typeof labelledSelect>;
  readonly stripsBox: HTMLElement;
  readonly tablesBox: HTMLElement;
  /** Each mode's strip of per-test changes, and the score tables. */
  readonly strips: Map<string, { chart: ChangeStrip; caption: HTMLElement }>;
  readonly tables: HeatTables;
  /** Renders, and instrument comparisons, begun: a later one supersedes. */
  renders: number;
  instrumentsShown: number;
}

/** The section's frame, controls and boxes, empty. */
function summaryParts(ctx: AnalysisContext): Summary {
  const frame = sectionFrame('summary', 'Summary: which build is fastest?', [
    "Each configuration's figure in the page's metric relative to a baseline, as the geometric mean of its per-test ratios (best repeat against best repeat), ",
    'with one dot per test. ▲ and ▼ mark changes beyond the noise band (the larger run-to-run spread of the two builds; for a counted metric at least its rebuild band), ≈ changes within it; ',
    'blue is better, orange worse (for a counted cost, lower is better: ▼ cheaper is blue). ',
    'The shaded band around 0 is the noise band of the mean. Over all versions, each test is first averaged over the versions both builds measured.',
  ], () => ctx.link({ section: 'summary' }), ctx.tools);
  const tablesBox = h('div', { class: 'mt-4 grid grid-cols-1 gap-4 overflow-x-auto' });
  const parts: Summary = {
    frame,
    title: frame.element.querySelector('h2'),
    countNote: h('p', { class: 'count-note mb-2 max-w-4xl text-sm text-slate-700' }, COUNT_NOTE),
    rule: h('p', { class: 'rule-note mb-2 max-w-4xl text-sm text-slate-700' }),
    durations: durationBlock(),
    headline: h('ul', { class: 'summary-headline mb-3 space-y-1 text-sm text-slate-800' }),
    instruments: h('ul', { class: 'summary-instruments mb-3 space-y-1 text-sm text-slate-700' }),
    baseSelect: labelledSelect('summary-base', 'Baseline', (value) => ctx.update({ base: value === configKey(ctx.configs[0] ?? { compiler: '', flag_set: '' }) ? null : value })),
    scopeSelect: labelledSelect('summary-scope', 'Per-test changes on', (value) => ctx.update({ scope: value === ALL_VERSIONS ? null : value })),
    stripsBox: h('div', { class: 'grid grid-cols-1 gap-4 xl:grid-cols-2' }),
    tablesBox,
    strips: new Map(),
    tables: heatTables(tablesBox, 'summary-table'),
    renders: 0,
    instrumentsShown: 0,
  };
  frame.controls.append(parts.baseSelect.wrap, parts.scopeSelect.wrap);
  frame.body.append(parts.countNote, parts.rule, parts.headline, parts.instruments, parts.durations.element, parts.stripsBox, parts.tablesBox);
  return parts;
}

/** Per mode: how many chart winners each metric decides, its repeat spread, and how cost and speed order the builds. */
async function renderInstruments(ctx: AnalysisContext, parts: Summary, base: ConfigRef, metric: Metric, scores: readonly SummaryRow[]): Promise<void> {
  // A later render (another metric or baseline) supersedes this one.
  const token = ++parts.instrumentsShown;
  try {
    const [tally, spreads, ...perMetric] = await Promise.all([
      ctx.run(winnerTallyQuery()), ctx.run(spreadQuery()),
      ...INSTRUMENT_IDS.map((id) => (id === metric.id ? Promise.resolve(scores as SummaryRow[]) : ctx.run(summaryQuery(base, metricOf(id))))),
    ]);
    if (token !== parts.instrumentsShown) return;
    parts.instruments.replaceChildren(...instrumentLines(base, metric, tally, spreads, perMetric).map(({ mode, line, text }) =>
      h('li', { attrs: { 'data-mode': mode, 'data-line': line } }, text)));
  } catch (err) {
    parts.instruments.replaceChildren(h('li', {}, `The instruments' comparison failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`));
  }
}

/** The precision modes' coefficients of variation, in place of the instruments' comparison. */
async function renderVariation(ctx: AnalysisContext, parts: Summary): Promise<void> {
  const token = ++parts.instrumentsShown;
  try {
    const rows = await ctx.run(precisionCvQuery());
    if (token === parts.instrumentsShown) parts.instruments.replaceChildren(...cvLines(rows).map(({ mode, text }) => h('li', { attrs: { 'data-mode': mode, 'data-line': 'variation' } }, text)));
  } catch (err) {
    parts.instruments.replaceChildren(h('li', {}, `The coefficients of variation failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`));
  }
}

/** The scores and one scope's items in the protocol's modes (precision: from the paired rounds, judged here). */
async function scored(ctx: AnalysisContext, base: ConfigRef, scope: string | null, metric: Metric, protocol: Protocol): Promise<[SummaryRow[], SummaryItemRow[]]> {
  if (protocol === 'precision') {
    const summary = await precisionStats('summary', await ctx.run(precisionSummaryQuery(base)), scope);
    return [summary.scores, summary.items];
  }
  return Promise.all([ctx.run(summaryQuery(base, metric)), ctx.run(summaryItemsQuery(base, scope, metric))]);
}

/** The queries behind the summary as `scope` shows it against `base`. */
function summaryQueries(base: ConfigRef, scope: string | null, metric: Metric, protocol: Protocol): SectionQuery[] {
  const against = `against ${configName(base)}`;
  const suffix = metric.id === 'rps' ? '' : `-${metric.id}`;
  return protocol === 'precision' ? [
    { label: 'paired rounds', title: `Summary, precision modes: every configuration against ${configName(base)}, per mode, version, test and round (lr = ln of the ratio in that round)`,
      query: precisionSummaryQuery(base), file: `redis-benchmarks-summary-rounds-vs-${fileSlug(configName(base))}` },
    { label: 'test durations', title: 'How long each test lasted, per mode and test, and one millisecond as a share of it', query: testDurationQuery(), file: 'redis-benchmarks-test-durations' },
  ] : [
    { label: 'geometric means', title: `Summary: geometric mean of every configuration${metricSuffix(metric)} ${against}, per mode and version (version NULL: all versions)`,
      query: summaryQuery(base, metric), file: `redis-benchmarks-summary-vs-${fileSlug(configName(base))}${suffix}` },
    { label: 'per-test changes', title: `Summary: per-test changes of every configuration${metricSuffix(metric)} ${against}, ${scopeText(scope)}`,
      query: summaryItemsQuery(base, scope, metric), file: `redis-benchmarks-summary-tests-vs-${fileSlug(configName(base))}-${fileSlug(scope ?? 'all-versions')}${suffix}` },
  ];
}

/**
 * Offers the versions compared (of `versions`) that the state shows (release set and range) in
 * the scope select, with the one asked for, so the select shows it; "all" stays over every
 * version compared. Returns the versions shown.
 */
function offerScopes(ctx: AnalysisContext, parts: Summary, state: AppState, versions: readonly string[], scores: readonly SummaryRow[]): string[] {
  const shown = shownVersions(state, ctx.versions, ctx.currentVersions);
  const compared = versions.filter((v) => scores.some((r) => r.version === v));
  const offered = compared.filter((v) => v === state.scope || shown.includes(v));
  if (state.scope && !offered.includes(state.scope)) offered.push(state.scope);
  const allText = compared.every((v) => offered.includes(v)) ? 'all versions' : `all ${compared.length} versions`;
  parts.scopeSelect.setOptions([[ALL_VERSIONS, allText], ...offered.map((v) => [v, v] as const)], state.scope ?? ALL_VERSIONS);
  return shown;
}

/** What drawModes draws: the scores and items of a state, against a baseline, in a metric. */
interface Scored {
  readonly base: ConfigRef;
  readonly metric: Metric;
  readonly scores: readonly SummaryRow[];
  readonly items: readonly SummaryItemRow[];
  /** Every version of the protocol, and those the state shows. */
  readonly versions: readonly string[];
  readonly shown: readonly string[];
}

/** Each mode's strip of per-test changes and table of scores; the other protocol's modes leave. */
function drawModes(ctx: AnalysisContext, parts: Summary, state: AppState, modes: readonly string[], d: Scored): void {
  for (const [mode, strip] of parts.strips) {
    if (modes.includes(mode)) continue;
    strip.chart.destroy();
    strip.caption.parentElement?.remove();
    parts.strips.delete(mode);
  }
  parts.tables.keepOnly(modes);
  for (const mode of modes) {
    const { rows, label, caption } = summaryStrip(mode, ctx.configs, d.base, d.scores, d.items, state.scope, d.metric);
    let strip = parts.strips.get(mode);
    if (!strip) {
      const captionElement = h('figcaption', { class: 'text-sm font-semibold text-slate-800' });
      // On a phone the chart scrolls sideways in its box rather than shrinking its text.
      const box = h('div', { class: 'overflow-x-auto [&>svg]:min-w-[520px]' });
      parts.stripsBox.append(h('figure', { class: 'summary-strip', attrs: { 'data-mode': mode } }, captionElement, box));
      strip = { chart: changeStrip(box, rows, label), caption: captionElement };
      parts.strips.set(mode, strip);
    } else strip.chart.update(rows, label);
    strip.caption.textContent = caption;
    parts.tables.show(mode, summaryTable(mode, d.versions, ctx.configs, d.base, d.scores, d.metric, d.shown), {
      onCell: (_row: string, column: string) => ctx.update({ scope: column === ALL_VERSIONS ? null : column, section: 'summary' }),
      selectedColumn: state.scope ?? ALL_VERSIONS,
    });
  }
}

/** Shows `state` in the summary. */
async function renderSummary(ctx: AnalysisContext, parts: Summary, state: AppState): Promise<void> {
  const { frame } = parts;
  const base = parseConfigKey(state.base ?? '') ?? ctx.configs[0];
  if (!base) return;
  const metric = metricOf(state.metric);
  const protocol = protocolOf(state.mode, ctx.precisionModes);
  const token = ++parts.renders;
  if (parts.title) parts.title.textContent = `Summary: which build is ${metric.best}?`;
  parts.baseSelect.setOptions(ctx.configs.map((c) => [configKey(c), configName(c)]), configKey(base));
  frame.status.textContent = 'Computing…';
  parts.countNote.textContent = protocol === 'precision' ? PRECISION_NOTE : COUNT_NOTE;
  frame.intro.hidden = protocol === 'precision';
  // The precision modes' versions: those measured on the class shown.
  const versions = protocol === 'precision' ? ctx.versions.filter((v) => ctx.rounds.some((r) => r.version === v)) : ctx.versions;
  parts.rule.textContent = RULE_TEXT[protocol];
  void ctx.run(testDurationQuery()).then(parts.durations.show, (err: unknown) => console.warn('test durations failed', err));
  let scores: SummaryRow[];
  let items: SummaryItemRow[];
  try {
    [scores, items] = await scored(ctx, base, state.scope, metric, protocol);
  } catch (err) {
    showSectionError(frame, 'The summary', err);
    return;
  }
  // A later render (another baseline, scope or protocol) draws instead.
  if (token !== parts.renders) return;
  const modes = summaryModes(scores);
  const shown = offerScopes(ctx, parts, state, versions, scores);
  frame.status.textContent = summaryStatus(modes, base, metric);
  frame.status.dataset.status = '';
  frame.setQueries(summaryQueries(base, state.scope, metric, protocol));
  // A metric with nothing compared (counts not collected yet) leaves no other metric's strips on screen.
  parts.stripsBox.hidden = parts.tablesBox.hidden = modes.length === 0;
  parts.headline.replaceChildren(...summaryHeadlines(scores, base, metric).map(({ mode, text }) => h('li', { attrs: { 'data-mode': mode } }, text)));
  // Several queries over every metric: after what a reader waits on (the drilldown prefetch is queued at idle too, first).
  parts.instruments.replaceChildren(h('li', {}, protocol === 'precision' ? 'Measuring the variation…' : 'Comparing the instruments…'));
  whenIdle(() => void (protocol === 'precision' ? renderVariation(ctx, parts) : renderInstruments(ctx, parts, base, metric, scores)));
  drawModes(ctx, parts, state, modes, { base, metric, scores, items, versions, shown });
}

/** The summary section. */
export function createSummary(ctx: AnalysisContext): SectionView {
  const parts = summaryParts(ctx);
  return {
    frame: parts.frame,
    render: (state) => renderSummary(ctx, parts, state),
    key: (s) => `${s.base}|${s.scope}|${s.metric}|${protocolOf(s.mode, ctx.precisionModes)}|${s.releases}|${s.from}|${s.to}`,
  };
}
