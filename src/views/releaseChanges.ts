/**
 * The changes-between-releases section: for consecutive releases in the version range, which tests
 * got cheaper or costlier beyond noise in the counted metric, in how many configurations, each
 * linking to its chart and to the GitHub comparison of the two tags. The counted metric is the
 * page's when it is one, else instructions per request.
 */
import { bySize, type ChangeEntry, compareUrl, pairChanges, type PairChanges, releasePairs } from '../model/releaseChanges';
import { chartKey, type AppState, shownVersions } from '../model/state';
import { releaseChangesQuery, type ReleaseChangeRow } from '../sql/releaseChanges';
import { h } from '../ui/dom';
import { labelledSelect, sectionFrame } from '../ui/section';
import { type Metric, metricOf, METRICS } from '../vocabulary';
import { type AnalysisContext, type SectionView, showSectionError } from './context';

const LINK = 'text-blue-700 underline hover:no-underline';

/** The counted metric the section shows for a state. */
function countedMetric(state: AppState): Metric {
  const metric = metricOf(state.metric);
  return metric.kind === 'counted' ? metric : METRICS.ir;
}

/** The section. */
export function createReleaseChanges(ctx: AnalysisContext): SectionView {
  const frame = sectionFrame('changes', 'Changes between releases', [
    'For each release against the one before it among the releases shown (the version range; the current versions, or every release), per test and mode, the configurations whose counted cost ',
    'per request changed beyond noise: the noise band of a configuration is the larger spread of its counting repeats on the two releases. ',
    'A missing count (not collected, build failed, unsupported) is listed as missing, never as a change. ',
    'The page\'s metric when it is a counted one (instructions, estimated cycles, simulated misses per request), else instructions per request. ',
    'A count of zero (simulated last-level misses: none in the window) has no ratio to a count above zero: such a comparison is listed without a ratio.',
  ], () => ctx.link({ section: 'changes' }), ctx.tools);
  const order = labelledSelect('changes-order', 'Order', (v) => ctx.update({ changes: v === 'size' ? 'size' : null, section: 'changes' }));
  frame.controls.append(order.wrap);
  const list = h('div', { class: 'space-y-3 text-sm' });
  frame.body.append(list);

  const chartLink = (e: ChangeEntry, metric: Metric) => {
    const key = chartKey(e.mode, e.test);
    return h('a', {
      class: LINK,
      // A release outside the current versions is drawn only when every release is shown.
      attrs: { href: ctx.link({ metric: metric.id, chart: key, open: { [key]: e.to }, section: null, ...(ctx.currentVersions.includes(e.to) ? {} : { releases: 'all' as const }) }), 'data-link': 'chart' },
    }, 'chart');
  };
  const diffLink = (from: string, to: string) =>
    h('a', { class: LINK, attrs: { href: compareUrl(from, to), rel: 'noopener', target: '_blank', 'data-link': 'diff' } }, `${from}…${to} on GitHub`);
  const entryItem = (e: ChangeEntry, metric: Metric, withPair: boolean) =>
    h('li', { attrs: { 'data-change': e.direction, 'data-test': e.test, 'data-mode': e.mode, 'data-pair': `${e.from}>${e.to}` } },
      h('span', { class: e.direction === 'cheaper' ? 'text-blue-800' : 'text-orange-800' }, e.direction === 'cheaper' ? '▼ ' : '▲ '),
      withPair ? h('strong', {}, `${e.from} → ${e.to}: `) : '',
      e.text, ' · ', chartLink(e, metric), withPair ? ' · ' : '', withPair ? diffLink(e.from, e.to) : '');
  const pairBlock = (p: PairChanges, metric: Metric) =>
    h('div', { class: 'release-pair', attrs: { 'data-pair': `${p.from}>${p.to}` } },
      h('h3', { class: 'font-semibold text-slate-800' }, `${p.from} → ${p.to} `, h('span', { class: 'font-normal' }, '(', diffLink(p.from, p.to), ')')),
      p.entries.length ? h('ul', { class: 'ml-4 list-none space-y-0.5' }, ...p.entries.map((e) => entryItem(e, metric, false))) : '',
      h('p', { class: 'pair-note text-slate-600' }, p.note.charAt(0).toUpperCase() + p.note.slice(1), '.'));

  function draw(rows: readonly ReleaseChangeRow[], state: AppState, metric: Metric): void {
    const pairs = pairChanges(rows, metric);
    const entries = pairs.flatMap((p) => p.entries);
    frame.status.textContent = `${entries.length} changes beyond noise in ${pairs.length} release pairs, ${metric.name}`;
    if (state.changes === 'size') {
      list.replaceChildren(entries.length
        ? h('ul', { class: 'list-none space-y-0.5', attrs: { 'data-order': 'size' } }, ...bySize(entries).map((e) => entryItem(e, metric, true)))
        : h('p', { class: 'text-slate-600' }, 'No change beyond noise between any two consecutive releases in the range.'));
    } else {
      list.replaceChildren(...pairs.map((p) => pairBlock(p, metric)));
    }
  }

  async function render(state: AppState): Promise<void> {
    order.setOptions([['release', 'by release'], ['size', 'by size of change']], state.changes ?? 'release');
    const metric = countedMetric(state);
    const pairs = releasePairs(shownVersions(state, ctx.versions, ctx.currentVersions));
    if (!pairs.length) {
      frame.status.textContent = 'The version range holds one release: nothing to compare.';
      list.replaceChildren();
      return;
    }
    frame.status.textContent = 'Computing…';
    const q = releaseChangesQuery(pairs, metric);
    let rows: ReleaseChangeRow[];
    try {
      rows = await ctx.run(q);
    } catch (err) {
      showSectionError(frame, 'The changes between releases', err);
      return;
    }
    frame.status.dataset.status = '';
    frame.setQueries([{
      label: 'changes', title: `Changes between consecutive releases, ${metric.name}, per pair, mode and test`,
      query: q, file: `redis-benchmarks-release-changes-${metric.id}`,
    }]);
    draw(rows, state, metric);
  }

  return { frame, render, key: (s) => `${countedMetric(s).id}|${s.from}|${s.to}|${s.releases}|${s.changes}` };
}
