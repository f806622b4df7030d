/**
 * The changes-between-releases section: for consecutive releases in the version range, which tests
 * got cheaper or costlier beyond noise in the counted metric, in how many configurations, each
 * linking to its chart and to the GitHub comparison of the two tags. The counted metric is the
 * page's when it is one, else instructions per request. In the precision modes (the mode filter's
 * protocol) the changes are in requests/second, between the releases those modes measured, each
 * configuration's by the bootstrap interval of its rounds paired by number.
 */
import { changeGlyph } from '../model/metric';
import { precisionStats } from '../data/precisionStats';
import { RULE_TEXT } from '../model/precision';
import { betweenText, bySize, changeEntries, type ChangeEntry, type ChangeLeast, type ChangeReach, CHANGE_LEASTS, compareUrl, DEFAULT_LEAST, hasReach, hasSize, isChangeLeast, LIST_CAP, pairChanges, type PairChanges, pairLimit, pairSummary, releaseSpans, type ReleaseSpan } from '../model/releaseChanges';
import { pairCauses, type PairCauses } from '../model/releaseCauses';
import { releaseCausesQuery } from '../sql/releaseCauses';
import { chartKey, chartMatches, type AppState, protocolOf, shownVersions } from '../model/state';
import { precisionReleaseChangesQuery } from '../sql/precision';
import type { Query } from '../sql/query';
import { releaseChangesQuery, type ReleaseChangeRow } from '../sql/releaseChanges';
import { h } from '../ui/dom';
import { labelledSelect, sectionFrame, type SectionFrame, type SectionQuery } from '../ui/section';
import { type Metric, metricOf, METRICS, RPS } from '../vocabulary';
import { type AnalysisContext, type SectionView, showSectionError } from './context';

const LINK = 'text-blue-700 underline hover:no-underline';

/** The counted metric the section shows for a state. */
function countedMetric(state: AppState): Metric {
  const metric = metricOf(state.metric);
  return metric.kind === 'counted' ? metric : METRICS.ir;
}

const PRECISION_INTRO = 'For each release the precision modes measured against the one before it among those releases shown (a pair spans the releases between them that the modes did not measure), per test and mode, '
  + 'the configurations whose requests/second changed: the newer release over the older as the geometric mean of their rounds paired by number, '
  + 'a change when its 95% interval excludes 0. A missing figure is listed as missing, never as a change. '
  + 'Show and At least pick the changes listed as in the counted metric: by reach, and by size (the geometric mean of the configurations\' changes).';

const INTRO = [
  'For each release with counts against the one before it with counts among the releases shown (the version range; the current versions, or every release), per test and mode, the configurations whose counted cost ',
  'per request changed beyond noise: the noise band of a configuration is the larger spread of its counting repeats on the two releases, at least the metric\'s rebuild band (How this was measured). ',
  'A release without counts (not counted yet, or not built) is skipped: the pair around it spans it and says so, and a change found there lies somewhere in that span until the releases between are counted. ',
  'Within a pair, a missing count (not collected, build failed, unsupported) is listed as missing, never as a change. ',
  'The page\'s metric when it is a counted one (instructions, estimated cycles, simulated misses per request), else instructions per request. ',
  'A count of zero (simulated last-level misses: none in the window) has no ratio to a count above zero: such a comparison is listed without a ratio. ',
  'The page\'s mode filter and test search apply here too. Show picks the changes in every configuration compared (a change in the code, whatever the compiler) or those in some configurations only (where compilers or flag sets part ways). ',
  'At least (1% unless picked) hides the smaller changes (an entry\'s size is the geometric mean of its configurations\' changes): a counted cost has next to no noise, so a change of a few instructions per request is beyond it, as LNT ignores changes under 1% and rustc-perf bands them at 0.2, 1, 2 and 5%. ',
  `Each pair lists its largest changes first, at most ${LIST_CAP} in all (the rest of a pair a click away). `,
  'Likely causes come from the builds: identical code or one source commit on both releases (then the change is not Redis\'s code), a compatibility flag added or dropped, a bundled dependency\'s new version.',
];

/** The Show choices: which changes are listed. */
const REACH_OPTIONS: readonly (readonly [ChangeReach, string])[] = [['any', 'every change'], ['every', 'in every configuration'], ['some', 'in some configurations only']];

/** The At least choices: the smallest change listed. */
const LEAST_OPTIONS: readonly (readonly [string, string])[] = CHANGE_LEASTS.map((v) => [v, v === '0' ? 'any size beyond noise' : `${v}%`] as const);

/** What the status line says of the filters that hide changes: "; tests matching "SET", pipe mode". */
function filterText(state: AppState, reach: ChangeReach, least: ChangeLeast): string {
  const parts = [
    ...(state.q ? [`tests matching "${state.q}"`] : []),
    ...(state.mode !== 'all' && state.mode !== 'precision' ? [`${state.mode} mode`] : []),
    ...(reach === 'every' ? ['in every configuration compared'] : reach === 'some' ? ['in some configurations only'] : []),
    ...(least !== '0' ? [`at least ${least}%`] : []),
  ];
  return parts.length ? ` (shown: ${parts.join(', ')})` : '';
}

/** The section's parts on the page, its renders under way and the rows it last fetched. */
interface Changes {
  readonly frame: SectionFrame;
  readonly order: ReturnType<typeof labelledSelect>;
  readonly show: ReturnType<typeof labelledSelect>;
  readonly least: ReturnType<typeof labelledSelect>;
  readonly rule: HTMLElement;
  readonly list: HTMLElement;
  /** Renders begun: a later one supersedes. */
  renders: number;
  /** The last rows fetched and what they were for: a change of filter alone draws them again. */
  fetched: (Fetched & { readonly key: string }) | null;
}

/** The rows of some release pairs, what the builds say of each pair, and the queries behind them. */
interface Fetched {
  readonly rows: ReleaseChangeRow[];
  readonly causes: PairCauses;
  readonly queries: Query<unknown>[];
}

/** The section's frame, controls and list, empty. */
function changesParts(ctx: AnalysisContext): Changes {
  const frame = sectionFrame('changes', 'Changes between releases', INTRO, () => ctx.link({ section: 'changes' }), ctx.tools);
  const parts: Changes = {
    frame,
    order: labelledSelect('changes-order', 'Order', (v) => ctx.update({ changes: v === 'size' ? 'size' : null, section: 'changes' })),
    show: labelledSelect('changes-reach', 'Show', (v) => ctx.update({ reach: v === 'every' || v === 'some' ? v : null, section: 'changes' })),
    least: labelledSelect('changes-least', 'At least', (v) => ctx.update({ least: isChangeLeast(v) && v !== DEFAULT_LEAST ? v : null, section: 'changes' })),
    rule: h('p', { class: 'rule-note mb-2 max-w-4xl text-sm text-slate-700' }),
    list: h('div', { class: 'space-y-3 text-sm' }),
    renders: 0,
    fetched: null,
  };
  frame.controls.append(parts.order.wrap, parts.show.wrap, parts.least.wrap);
  frame.body.append(parts.rule, parts.list);
  return parts;
}

/** The link to an entry's chart, opened at its newer release, in `metric`. */
function chartLink(ctx: AnalysisContext, e: ChangeEntry, metric: Metric): HTMLElement {
  const key = chartKey(e.mode, e.test);
  return h('a', {
    class: LINK,
    // A release outside the current versions is drawn only when every release is shown.
    attrs: {
      href: ctx.link({
        metric: metric.id, chart: key, open: { [key]: e.to }, section: null, ...(ctx.currentVersions.includes(e.to) ? {} : { releases: 'all' as const }),
        // A precision mode's chart is shown under its own mode.
        ...(ctx.precisionModes.includes(e.mode) ? { mode: e.mode } : {}),
      }),
      'data-link': 'chart',
    },
  }, 'chart');
}

/** The link to GitHub's comparison of two release tags. */
const diffLink = (from: string, to: string) =>
  h('a', { class: LINK, attrs: { href: compareUrl(from, to), rel: 'noopener', target: '_blank', 'data-link': 'diff' } }, `${from}…${to} on GitHub`);

/** One change listed; `withPair`: naming its pair (listed by size), which spans `between` releases without figures. */
const entryItem = (ctx: AnalysisContext, e: ChangeEntry, metric: Metric, withPair: boolean, between: number) =>
  h('li', { attrs: { 'data-change': e.direction === 'cheaper' ? metric.better : metric.worse, 'data-test': e.test, 'data-mode': e.mode, 'data-pair': `${e.from}>${e.to}` } },
    h('span', { class: e.direction === 'cheaper' ? 'text-blue-800' : 'text-orange-800' }, `${changeGlyph(metric, e.direction === 'cheaper' ? 'faster' : 'slower')} `),
    withPair ? h('strong', {}, `${e.from} → ${e.to}${between ? ` (across ${between} without ${metric === RPS ? 'figures' : 'counts'})` : ''}: `) : '',
    e.text, ' · ', chartLink(ctx, e, metric), withPair ? ' · ' : '', withPair ? diffLink(e.from, e.to) : '',
    e.cause ? h('span', { class: 'change-cause text-slate-600' }, ` · likely cause: ${e.cause}`) : '');

/** A pair's block: its summary and causes, and its `limit` largest changes; the rest of them come on a click. */
function pairBlock(ctx: AnalysisContext, p: PairChanges, metric: Metric, between: readonly string[], missing: string, limit: number): HTMLElement {
  const ul = h('ul', { class: 'ml-4 list-none space-y-0.5' }, ...p.entries.slice(0, limit).map((e) => entryItem(ctx, e, metric, false, between.length)));
  const rest = p.entries.length - ul.childElementCount;
  const more = h('button', { class: 'ml-4 text-sm text-blue-700 underline hover:no-underline', attrs: { type: 'button', 'data-action': 'more-pair' } }, `Show the other ${rest} of this pair`);
  more.addEventListener('click', () => {
    ul.append(...p.entries.slice(ul.childElementCount).map((e) => entryItem(ctx, e, metric, false, between.length)));
    more.remove();
  });
  return h('details', { class: 'release-pair', attrs: { 'data-pair': `${p.from}>${p.to}`, 'data-between': String(between.length), open: '' } },
    h('summary', { class: 'cursor-pointer' },
      h('h3', { class: 'inline font-semibold text-slate-800' }, `${p.from} → ${p.to} `),
      h('span', { class: 'pair-summary text-slate-700' }, pairSummary(p.entries, metric), ' '),
      h('span', {}, '(', diffLink(p.from, p.to), ')')),
    between.length ? h('p', { class: 'pair-span text-slate-600' }, `Spans ${betweenText(between, missing)}.`) : '',
    p.cause ? h('p', { class: 'pair-cause text-slate-700' }, `Likely cause: ${p.cause}.`) : '',
    p.entries.length ? ul : '', rest > 0 ? more : '',
    h('p', { class: 'pair-note text-slate-600' }, p.note.charAt(0).toUpperCase() + p.note.slice(1), '.'));
}

/** What a draw lists: the fetched rows of the pairs of releases shown, in a metric. */
interface Listed extends Fetched {
  readonly metric: Metric;
  readonly precision: boolean;
  readonly spans: readonly ReleaseSpan[];
  /** The releases shown without figures, and how many releases are shown. */
  readonly unmeasured: readonly string[];
  readonly shown: number;
}

/** Every change in one list, the largest first, LIST_CAP at a time (every release: thousands). */
function listBySize(ctx: AnalysisContext, list: HTMLElement, entries: readonly ChangeEntry[], metric: Metric, between: (pairIndex: number) => readonly string[], filtered: string): void {
  if (!entries.length) {
    list.replaceChildren(h('p', { class: 'text-slate-600' }, filtered ? `No change beyond noise${filtered} between any two consecutive releases in the range.` : 'No change beyond noise between any two consecutive releases in the range.'));
    return;
  }
  const sorted = bySize(entries);
  const ul = h('ul', { class: 'list-none space-y-0.5', attrs: { 'data-order': 'size' } });
  const more = h('button', { class: 'mt-2 rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100', attrs: { type: 'button', 'data-action': 'more-changes' } });
  const showUpTo = (n: number) => {
    ul.append(...sorted.slice(ul.childElementCount, n).map((e) => entryItem(ctx, e, metric, true, between(e.pairIndex).length)));
    const left = sorted.length - ul.childElementCount;
    more.hidden = left === 0;
    more.textContent = `Show the next ${Math.min(LIST_CAP, left)} (${ul.childElementCount} of ${sorted.length} listed)`;
  };
  more.addEventListener('click', () => showUpTo(ul.childElementCount + LIST_CAP));
  showUpTo(LIST_CAP);
  list.replaceChildren(ul, more);
}

/** Lists the changes of `state`'s filters, by pair or by size, with a status line counting them. */
function drawChanges(ctx: AnalysisContext, parts: Changes, state: AppState, d: Listed): void {
  const { metric, precision } = d;
  // The page's mode filter and test search; then the reach picked under Show and the size under At least.
  const rows = d.rows.filter((r) => chartMatches(state, r.mode, r.test, ctx.precisionModes));
  const reach: ChangeReach = state.reach ?? 'any';
  const leastPicked: ChangeLeast = state.least ?? DEFAULT_LEAST;
  const pairs = pairChanges(rows, metric, precision, d.causes).map((p) => ({ ...p, entries: p.entries.filter((e) => hasReach(e, reach) && hasSize(e, leastPicked)) }));
  const entries = pairs.flatMap((p) => p.entries);
  const all = changeEntries(d.rows, metric).length;
  const missing = precision ? 'not measured in the precision modes' : 'without counts';
  const between = (pairIndex: number) => d.spans[pairIndex]?.between ?? [];
  const skipped = d.unmeasured.length ? `; ${d.unmeasured.length} of the ${d.shown} releases shown ${missing}, spanned by the pairs around them` : '';
  const filtered = filterText(state, reach, leastPicked);
  const count = filtered ? `${entries.length} of ${all}` : String(all);
  const changed = pairs.filter((p) => p.entries.length);
  const limit = pairLimit(changed.map((p) => p.entries.length));
  const capText = state.changes !== 'size' && Number.isFinite(limit)
    ? `; the ${limit === 1 ? 'largest' : `${limit} largest`} of each pair listed (${changed.reduce((n, p) => n + Math.min(limit, p.entries.length), 0)}), the others a click away`
    : '';
  parts.frame.status.textContent = `${count} changes beyond ${precision ? 'their 95% intervals' : 'noise'} in ${pairs.length} release pairs, ${metric.name}${precision ? ', precision modes' : ''}${filtered}${skipped}${capText}`;
  if (state.changes === 'size') {
    listBySize(ctx, parts.list, entries, metric, between, filtered);
    return;
  }
  // The pairs without a change listed fold into one line, open on a click.
  const quiet = pairs.filter((p) => !p.entries.length);
  const quietBlock = quiet.length
    ? h('details', { class: 'quiet-pairs' },
      h('summary', { class: 'cursor-pointer text-slate-700' }, `${quiet.length} ${quiet.length === 1 ? 'pair' : 'pairs'} without a change listed${filtered}: ${quiet.map((p) => `${p.from} → ${p.to}`).join(', ')}`),
      h('div', { class: 'ml-4 mt-2 space-y-3' }, ...quiet.map((p) => pairBlock(ctx, p, metric, between(p.pairIndex), missing, 0))))
    : '';
  parts.list.replaceChildren(...changed.map((p) => pairBlock(ctx, p, metric, between(p.pairIndex), missing, limit)), quietBlock);
}

/**
 * The rows of consecutive releases `pairs`, the queries behind them (precision: the paired rounds,
 * judged here), and what the builds say of each pair (the counted metrics only).
 */
async function fetchChanges(ctx: AnalysisContext, pairs: readonly (readonly [string, string])[], metric: Metric, precision: boolean): Promise<Fetched> {
  if (!precision) {
    const counted = releaseChangesQuery(pairs, metric);
    const builds = releaseCausesQuery(pairs, ctx.depColumns);
    const [rows, causeRows] = await Promise.all([ctx.run(counted), ctx.run(builds)]);
    return { rows, causes: pairCauses(causeRows), queries: [counted, builds] };
  }
  const rounds = precisionReleaseChangesQuery(pairs);
  return { rows: await precisionStats('releases', await ctx.run(rounds)), causes: new Map(), queries: [rounds] };
}

/** The section's tools for the queries fetched: the changes (or paired rounds) and the likely causes. */
function changesQueries([main, builds]: readonly Query<unknown>[], metric: Metric, precision: boolean): SectionQuery[] {
  return [
    ...(main ? [{
      label: precision ? 'paired rounds' : 'changes',
      title: precision ? 'Changes between consecutive releases, precision modes: every configuration per pair, mode, test and round (lr = ln newer / older in that round)' : `Changes between consecutive releases, ${metric.name}, per pair, mode and test`,
      query: main, file: `redis-benchmarks-release-changes-${precision ? 'precision-rounds' : metric.id}`,
    }] : []),
    ...(builds ? [{
      label: 'likely causes', title: 'What the counted builds of consecutive releases share or change, per pair and configuration',
      query: builds, file: 'redis-benchmarks-release-causes',
    }] : []),
  ];
}

/** Sets the controls and the words for `state`: whether the precision modes' changes are shown. */
function showChoices(parts: Changes, state: AppState, precision: boolean): void {
  parts.order.setOptions([['release', 'by release'], ['size', 'by size of change']], state.changes ?? 'release');
  parts.show.setOptions(REACH_OPTIONS, state.reach ?? 'any');
  parts.least.setOptions(LEAST_OPTIONS, state.least ?? DEFAULT_LEAST);
  parts.frame.intro.textContent = precision ? PRECISION_INTRO : INTRO.join('');
  parts.rule.textContent = RULE_TEXT[precision ? 'precision' : 'reference'];
  parts.rule.hidden = !precision;
}

/** Shows `state` in the section: fetches the rows of its release pairs (unless at hand), then lists their changes. */
async function renderChanges(ctx: AnalysisContext, parts: Changes, state: AppState): Promise<void> {
  const { frame } = parts;
  const precision = protocolOf(state.mode, ctx.precisionModes) === 'precision';
  showChoices(parts, state, precision);
  const token = ++parts.renders;
  const metric = precision ? RPS : countedMetric(state);
  const shown = shownVersions(state, ctx.versions, ctx.currentVersions);
  const { spans, unmeasured } = releaseSpans(shown, precision ? ctx.versions.filter((v) => ctx.rounds.some((r) => r.version === v)) : ctx.countedVersions);
  const pairs = spans.map((s) => [s.from, s.to] as const);
  if (!pairs.length) {
    frame.status.textContent = shown.length < 2 ? 'The version range holds one release: nothing to compare.'
      : precision ? 'The precision modes measured fewer than two of the releases shown: nothing to compare.'
      : 'Fewer than two of the releases shown have counts: nothing to compare.';
    parts.list.replaceChildren();
    return;
  }
  const key = `${metric.id}|${precision}|${pairs.map((p) => p.join('>')).join(',')}`;
  let got: Fetched;
  if (parts.fetched?.key === key) {
    got = parts.fetched;
  } else {
    frame.status.textContent = 'Computing…';
    try {
      got = await fetchChanges(ctx, pairs, metric, precision);
    } catch (err) {
      showSectionError(frame, 'The changes between releases', err);
      return;
    }
    if (token !== parts.renders) return;
    parts.fetched = { key, ...got };
  }
  frame.status.dataset.status = '';
  frame.setQueries(changesQueries(got.queries, metric, precision));
  drawChanges(ctx, parts, state, { ...got, metric, precision, spans, unmeasured, shown: shown.length });
}

/** The section. */
export function createReleaseChanges(ctx: AnalysisContext): SectionView {
  const parts = changesParts(ctx);
  return {
    frame: parts.frame,
    render: (state) => renderChanges(ctx, parts, state),
    key: (s) => `${countedMetric(s).id}|${s.from}|${s.to}|${s.releases}|${s.changes}|${s.reach}|${s.least}|${s.mode}|${s.q}`,
  };
}
