/**
 * The trends section: one test in one mode, every configuration across the releases shown (the
 * current versions, or every release with `releases=all`, within the version range). Small
 * multiples, one panel per flag set with a line per compiler on a shared value axis, then the
 * same figures as a table. The page's Real View / Max Change View sets the axis.
 */
import { MISSING_STYLE } from '../chart/palette';
import { type TrendChart, trendChart } from '../chart/trendChart';
import { fileSlug } from '../export/download';
import { axisDomain, VIEW_NAMES } from '../model/domain';
import { formatAxisRange, formatFigure } from '../model/format';
import { metricSuffix } from '../model/metric';
import { type AppState, chartKey, parseChartKey, shownVersions } from '../model/state';
import { type TrendPanel, trendPanels } from '../model/trends';
import { type ConfigRow, configBarsQuery } from '../sql/charts';
import { h } from '../ui/dom';
import { type AnalysisContext, type SectionView, showSectionError } from './context';
import { labelledSelect, sectionFrame } from '../ui/section';
import { metricOf } from '../vocabulary';

/** The table's rows: one per configuration, a figure (or why there is none) per version. */
function tableRows(panels: readonly TrendPanel[]): (string | number | null)[][] {
  return panels.flatMap((panel) => panel.series.map((s) => [
    `${s.compiler} ${panel.key}`,
    ...s.points.map((p) => p.value ?? (p.status === 'ok' ? null : MISSING_STYLE[p.status].label)),
  ]));
}

/** The trends section. */
export function createTrends(ctx: AnalysisContext): SectionView {
  const frame = sectionFrame('trends', 'Trends: each configuration across releases', [
    'One test in one mode: each panel is a flag set, each line a compiler (dashed: ', ctx.compilers.slice(1).join(', ') || 'none',
    '), each dot a release\'s best repeat. A release without a figure breaks the line and is marked with a hollow dotted circle ',
    'under it (hover for why); a dot with a dark ring was measured on a busy machine. The panels share one value axis, ',
    'which does not start at zero.',
  ], () => ctx.link({ section: 'trends' }), ctx.tools);
  const first = ctx.charts[0];
  const chartOf = (state: AppState) => (state.trend !== null ? parseChartKey(state.trend) : null) ?? first ?? null;
  const chartSelect = labelledSelect('trend-chart', 'Test', (key) => ctx.update({ trend: first && key === chartKey(first.mode, first.test) ? null : key, section: 'trends' }));
  frame.controls.append(chartSelect.wrap);
  const panelsBox = h('div', { class: 'grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3' });
  const axisNote = h('p', { class: 'axis-note mt-1 text-xs text-slate-600' });
  const tableBox = h('div', { class: 'mt-3 max-h-96 overflow-auto' });
  frame.body.append(panelsBox, axisNote, tableBox);
  const charts = new Map<string, TrendChart>();
  let shown = '';

  async function render(state: AppState): Promise<void> {
    const chart = chartOf(state);
    if (!chart) return;
    const key = chartKey(chart.mode, chart.test);
    const versions = shownVersions(state, ctx.versions, ctx.currentVersions);
    const token = `${key}|${state.view}|${state.metric}|${versions.join(',')}`;
    shown = token;
    const metric = metricOf(state.metric);
    chartSelect.setOptions(ctx.charts.map((c) => [chartKey(c.mode, c.test), `${c.test} · ${c.mode} mode`] as const), key);
    frame.status.textContent = 'Computing…';
    const q = configBarsQuery(chart.mode, chart.test, metric);
    let rows: ConfigRow[];
    let dataTable;
    try {
      [rows, { dataTable }] = await Promise.all([ctx.run(q), import('../ui/dataTable')]);
    } catch (err) {
      showSectionError(frame, 'The trends', err);
      return;
    }
    if (shown !== token) return;
    frame.status.textContent = '';
    frame.status.dataset.status = '';
    frame.setQueries([{
      label: 'figures', title: `Trends: ${chart.test}, ${chart.mode} mode${metricSuffix(metric)}: every configuration of every version (best repeat)`,
      query: q, file: `redis-benchmarks-trends-${chart.mode}-${fileSlug(chart.test)}${metric.id === 'rps' ? '' : `-${metric.id}`}`,
    }]);
    const panels = trendPanels(rows, versions, ctx.configs, ctx.colorOf, metric);
    const domain = axisDomain(panels.flatMap((p) => p.series.flatMap((s) => s.points.flatMap((pt) => (pt.value === null ? [] : [pt.value])))), state.view);
    axisNote.textContent = `${domain ? formatAxisRange(domain, metric.unit) : 'no figures yet'} · ${VIEW_NAMES[state.view]}, shared by all panels`;
    for (const panel of panels) {
      const options = { versions, domain, label: `${chart.test}, ${chart.mode} mode, ${panel.key}: ${metric.name} of each compiler across Redis releases (${metric.direction})` };
      const drawn = charts.get(panel.key);
      if (drawn) drawn.update(panel, options);
      else {
        const box = h('figure', { class: 'trend-panel', attrs: { 'data-flag-set': panel.key } });
        panelsBox.append(box);
        charts.set(panel.key, trendChart(box, panel, options));
      }
    }
    const number = (v: unknown) => (typeof v === 'number' ? formatFigure(v, metric.unit) : v === null ? '—' : String(v));
    tableBox.replaceChildren(dataTable(
      [{ header: 'Configuration', numeric: false }, ...versions.map((v) => ({ header: v, numeric: true, format: number }))],
      tableRows(panels),
      `${chart.test}, ${chart.mode} mode: ${metric.name} (best repeat; ${metric.direction}) of each configuration in each Redis version`,
    ));
  }

  return { frame, render, key: (s) => `${s.trend}|${s.view}|${s.metric}|${s.releases}|${s.from}|${s.to}` };
}
