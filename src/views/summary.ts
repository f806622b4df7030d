/**
 * The summary section (the landing section): every configuration's geometric-mean speed against
 * a baseline, per mode, with the distribution of its per-test changes (one version, or all
 * versions) and a table of the scores per version.
 */
import { changeStrip, type ChangeStrip } from '../chart/changeStrip';
import { heatTables } from '../chart/heatTable';
import { configKey, parseConfigKey } from '../model/analysisState';
import { changeText, configName, countsNote, countsText, formatChange, verdictGlyphs, verdictText } from '../model/changeText';
import { CYCLES_FORMULA, metricSuffix } from '../model/metric';
import {
  bestConfig, bestConfigText, bestPerMetricText, correlationText, costThroughputCorrelation, spreadText, winnerTallyText,
} from '../model/metricSummary';
import type { AppState } from '../model/state';
import { spreadQuery, winnerTallyQuery } from '../sql/counted';
import { summaryItemsQuery, type SummaryItemRow, summaryQuery, type SummaryRow } from '../sql/summary';
import { fileSlug } from '../export/download';
import { h } from '../ui/dom';
import { type AnalysisContext, type SectionView, showSectionError } from './context';
import { labelledSelect, sectionFrame } from '../ui/section';
import { type ConfigRef, type HeatTableData, type Metric, METRIC_IDS, metricOf, METRICS, RPS, type StripRow } from '../vocabulary';

const ALL = '';

/** Runs `task` once the browser is idle (soon, where there is no requestIdleCallback). */
const whenIdle = (task: () => void) => ('requestIdleCallback' in window ? requestIdleCallback(task, { timeout: 5000 }) : setTimeout(task, 500));

/** What the count is and is not, the estimated cycles' formula, and that it is one dataset for every machine. */
const COUNT_NOTE = [
  'Two instruments. Requests/second is measured on the hardware shown: the real speed, but noisy on a shared virtual machine. ',
  'Instructions and estimated cycles per request are counted under Valgrind (callgrind with fixed simulated caches), for the server\'s ',
  'work on the benchmark\'s requests only: they measure the code each compiler produced (instructions executed, simulated cache and ',
  'branch behaviour), not wall-clock speed on any CPU; the throughput charts remain the real speed. A count repeats almost exactly, so its ',
  'noise band (its own repeats\' spread) is tiny and small differences are called. A count does not depend on the machine: it is one ',
  'dataset for every hardware class, and the Hardware selector does not filter it. Lower is better for a count. ',
  `The cycles are an estimate (iai's): ${CYCLES_FORMULA}.`,
].join('');

function stripRow(config: ConfigRef, base: ConfigRef, score: SummaryRow | undefined, items: readonly SummaryItemRow[], allVersions: boolean, metric: Metric): StripRow {
  const name = configName(config);
  const reference = configKey(config) === configKey(base);
  const against = `against ${configName(base)}`;
  const points = items.map((i) => ({
    key: i.test,
    ratio: i.ratio,
    verdict: i.verdict,
    tooltip: [
      `${name}: ${i.test}`,
      `${formatChange(i.ratio)} ${metric.name} ${against}${allVersions ? ` (geometric mean over ${i.versions} version${i.versions === 1 ? '' : 's'})` : ''}`,
      verdictText(i.verdict, i.band, metric),
    ],
  }));
  if (!score) {
    const why = `${name}: nothing to compare (not measured where ${configName(base)} was)`;
    return { key: configKey(config), label: name, mean: null, band: null, verdict: null, note: '', points, ariaLabel: why, tooltip: [why], reference };
  }
  const mean = `geometric mean ${changeText(score.ratio, score.band, score.verdict, metric)}, ${against} over ${score.tests} tests`;
  const extremes = `largest gain ${score.best_test} ${formatChange(score.best_ratio)}, largest loss ${score.worst_test} ${formatChange(score.worst_ratio)}`;
  const counts = countsText(score, 'tests', metric);
  return {
    key: configKey(config),
    label: reference ? `${name} (baseline)` : name,
    mean: score.ratio,
    band: score.band,
    verdict: score.verdict,
    note: countsNote(score, metric),
    glyph: verdictGlyphs(metric)[score.verdict],
    points,
    ariaLabel: `${name}: ${mean}; ${counts}; ${extremes}.`,
    tooltip: [name, mean, counts, extremes],
    reference,
  };
}

/** The summary section. */
export function createSummary(ctx: AnalysisContext): SectionView {
  const frame = sectionFrame('summary', 'Summary: which build is fastest?', [
    "Each configuration's figure in the page's metric relative to a baseline, as the geometric mean of its per-test ratios (best repeat against best repeat), ",
    'with one dot per test. ▲ and ▼ mark changes beyond the noise band (the larger run-to-run spread of the two builds), ≈ changes within it; ',
    'blue is better, orange worse (for a counted cost, lower is better: ▼ cheaper is blue). ',
    'The shaded band around 0 is the noise band of the mean. Over all versions, each test is first averaged over the versions both builds measured.',
  ], () => ctx.link({ section: 'summary' }), ctx.tools);
  const title = frame.element.querySelector('h2');
  const countNote = h('p', { class: 'count-note mb-2 max-w-4xl text-sm text-slate-700' }, COUNT_NOTE);
  const headline = h('ul', { class: 'summary-headline mb-3 space-y-1 text-sm text-slate-800' });
  const instruments = h('ul', { class: 'summary-instruments mb-3 space-y-1 text-sm text-slate-700' });
  const baseSelect = labelledSelect('summary-base', 'Baseline', (value) => ctx.update({ base: value === configKey(ctx.configs[0] ?? { compiler: '', flag_set: '' }) ? null : value }));
  const scopeSelect = labelledSelect('summary-scope', 'Per-test changes on', (value) => ctx.update({ scope: value === ALL ? null : value }));
  frame.controls.append(baseSelect.wrap, scopeSelect.wrap);
  const stripsBox = h('div', { class: 'grid grid-cols-1 gap-4 xl:grid-cols-2' });
  const tablesBox = h('div', { class: 'mt-4 grid grid-cols-1 gap-4 overflow-x-auto' });
  frame.body.append(countNote, headline, instruments, stripsBox, tablesBox);
  const strips = new Map<string, { chart: ChangeStrip; caption: HTMLElement }>();
  const tables = heatTables(tablesBox, 'summary-table');

  /** Per mode: how many chart winners each metric decides, its repeat spread, and how cost and speed order the builds. */
  let instrumentsShown = 0;
  async function renderInstruments(base: ConfigRef, metric: Metric, scores: readonly SummaryRow[]): Promise<void> {
    const cost = metric.lower ? metric : METRICS.ir;
    // A later render (another metric or baseline) supersedes this one.
    const token = ++instrumentsShown;
    try {
      const [tally, spreads, ...perMetric] = await Promise.all([
        ctx.run(winnerTallyQuery()), ctx.run(spreadQuery()),
        ...METRIC_IDS.map((id) => (id === metric.id ? Promise.resolve(scores as SummaryRow[]) : ctx.run(summaryQuery(base, metricOf(id))))),
      ]);
      if (token !== instrumentsShown) return;
      const scoresOf = (m: Metric) => perMetric[METRIC_IDS.indexOf(m.id)] ?? [];
      const modes = [...new Set([...tally.map((r) => r.mode), ...scoresOf(RPS).map((r) => r.mode)])];
      instruments.replaceChildren(...modes.flatMap((mode) => [
        h('li', { attrs: { 'data-mode': mode, 'data-line': 'best' } }, bestPerMetricText(METRIC_IDS.map((id) => [metricOf(id), scoresOf(metricOf(id))] as const), mode, configName(base))),
        h('li', { attrs: { 'data-mode': mode, 'data-line': 'winners' } }, winnerTallyText(tally, mode)),
        h('li', { attrs: { 'data-mode': mode, 'data-line': 'spread' } }, spreadText(spreads, mode)),
        h('li', { attrs: { 'data-mode': mode, 'data-line': 'correlation' } }, correlationText(costThroughputCorrelation(scoresOf(cost), scoresOf(RPS), mode), mode, cost)),
      ]));
    } catch (err) {
      instruments.replaceChildren(h('li', {}, `The instruments' comparison failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`));
    }
  }

  async function render(state: AppState): Promise<void> {
    const base = parseConfigKey(state.base ?? '') ?? ctx.configs[0];
    if (!base) return;
    const metric = metricOf(state.metric);
    if (title) title.textContent = `Summary: which build is ${metric.best}?`;
    baseSelect.setOptions(ctx.configs.map((c) => [configKey(c), configName(c)]), configKey(base));
    scopeSelect.setOptions([[ALL, 'all versions'], ...ctx.versions.map((v) => [v, v] as const)], state.scope ?? ALL);
    frame.status.textContent = 'Computing…';
    let scores: SummaryRow[];
    let items: SummaryItemRow[];
    try {
      [scores, items] = await Promise.all([ctx.run(summaryQuery(base, metric)), ctx.run(summaryItemsQuery(base, state.scope, metric))]);
    } catch (err) {
      showSectionError(frame, 'The summary', err);
      return;
    }
    const modes = [...new Set(scores.map((s) => s.mode))];
    frame.status.textContent = modes.length ? '' : `Nothing to compare yet in ${metric.name}: ${configName(base)} has no ${metric.kind} test${metric.kind === 'counted' ? ' (not collected yet)' : ''}.`;
    frame.status.dataset.status = '';
    const scopeText = state.scope === null ? 'all versions' : `Redis ${state.scope}`;
    const against = `against ${configName(base)}`;
    const suffix = metric.id === 'rps' ? '' : `-${metric.id}`;
    frame.setQueries([
      { label: 'geometric means', title: `Summary: geometric mean of every configuration${metricSuffix(metric)} ${against}, per mode and version (version NULL: all versions)`,
        query: summaryQuery(base, metric), file: `redis-benchmarks-summary-vs-${fileSlug(configName(base))}${suffix}` },
      { label: 'per-test changes', title: `Summary: per-test changes of every configuration${metricSuffix(metric)} ${against}, ${scopeText}`,
        query: summaryItemsQuery(base, state.scope, metric), file: `redis-benchmarks-summary-tests-vs-${fileSlug(configName(base))}-${fileSlug(state.scope ?? 'all-versions')}${suffix}` },
    ]);
    // A metric with nothing compared (counts not collected yet) leaves no other metric's strips on screen.
    stripsBox.hidden = tablesBox.hidden = modes.length === 0;
    headline.replaceChildren(...modes.map((mode) =>
      h('li', { attrs: { 'data-mode': mode } }, bestConfigText(bestConfig(scores, mode, metric), mode, configName(base), metric))));
    // Several queries over every metric: after what a reader waits on (the drilldown prefetch is queued at idle too, first).
    instruments.replaceChildren(h('li', {}, 'Comparing the instruments…'));
    whenIdle(() => void renderInstruments(base, metric, scores));

    for (const mode of modes) {
      const rows = ctx.configs.map((config) => stripRow(
        config, base,
        scores.find((s) => s.mode === mode && s.version === state.scope && s.compiler === config.compiler && s.flag_set === config.flag_set),
        items.filter((i) => i.mode === mode && i.compiler === config.compiler && i.flag_set === config.flag_set),
        state.scope === null,
        metric,
      ));
      const label = `${mode} mode, ${scopeText}: change in ${metric.name} (${metric.direction}) of each configuration against ${configName(base)}, one dot per test`;
      let strip = strips.get(mode);
      if (!strip) {
        const caption = h('figcaption', { class: 'text-sm font-semibold text-slate-800' });
        // On a phone the chart scrolls sideways in its box rather than shrinking its text.
        const box = h('div', { class: 'overflow-x-auto [&>svg]:min-w-[520px]' });
        stripsBox.append(h('figure', { class: 'summary-strip', attrs: { 'data-mode': mode } }, caption, box));
        strip = { chart: changeStrip(box, rows, label), caption };
        strips.set(mode, strip);
      } else strip.chart.update(rows, label);
      strip.caption.textContent = `${mode} mode${metric.kind === 'counted' ? ` · ${metric.name}` : ''} · ${scopeText} · against ${configName(base)}`;

      const data: HeatTableData = {
        caption: `${mode} mode: geometric mean of ${metric.name} (${metric.direction}) against ${configName(base)}, per version (click a cell for its per-test changes)`,
        columns: [...ctx.versions.map((v) => ({ key: v, label: v })), { key: ALL, label: 'all' }],
        rows: ctx.configs.map((config) => ({
          key: configKey(config),
          label: configName(config),
          cells: [...ctx.versions, null].map((version) => {
            const s = scores.find((r) => r.mode === mode && r.version === version && r.compiler === config.compiler && r.flag_set === config.flag_set);
            const where = `${configName(config)}, ${version === null ? 'all versions' : `Redis ${version}`}, ${mode} mode`;
            return s
              ? { ratio: s.ratio, verdict: s.verdict, glyph: verdictGlyphs(metric)[s.verdict], title: `${where}: ${changeText(s.ratio, s.band, s.verdict, metric)} against ${configName(base)}; ${countsText(s, `${s.tests} tests`, metric)}` }
              : { ratio: null, verdict: null, title: `${where}: not compared (one of the two builds was not measured)` };
          }),
        })),
      };
      const options = {
        onCell: (_row: string, column: string) => ctx.update({ scope: column === ALL ? null : column, section: 'summary' }),
        selectedColumn: state.scope ?? ALL,
      };
      tables.show(mode, data, options);
    }
  }

  return { frame, render, key: (s) => `${s.base}|${s.scope}|${s.metric}` };
}
