/**
 * The compare section: two builds side by side over every test, as a table of ratios (B / A)
 * with their noise verdicts and, per mode, the geometric mean. Each side is a version at its
 * fastest configuration per test, or one configuration of a version. In the precision modes (the
 * mode filter's protocol) the ratios are effects of paired rounds with bootstrap intervals.
 */
import { tint } from '../chart/heatTable';
import { fileSlug } from '../export/download';
import { compareCandidates, comparedSides, configKey, parseConfigKey, sideKey } from '../model/analysisState';
import { statusText } from '../model/bars';
import { changeText, configName, countsText, formatBand, formatChange, formatInterval, sideName, verdictGlyphs } from '../model/changeText';
import { formatFigure, formatPercent } from '../model/format';
import { metricSuffix } from '../model/metric';
import { precisionStats } from '../data/precisionStats';
import { RULE_TEXT } from '../model/precision';
import { type AppState, protocolOf, shownVersions } from '../model/state';
import { unstable } from '../model/stats';
import { compareQuery, type CompareRow } from '../sql/compare';
import { precisionCompareQuery } from '../sql/precision';
import { h } from '../ui/dom';
import { labelledSelect, sectionFrame } from '../ui/section';
import { type ConfigRef, type Metric, metricOf, type RatioInterval, RPS, type SideRef, type Verdict } from '../vocabulary';
import { type AnalysisContext, type SectionView, showSectionError } from './context';

const BEST = '';

/** How a side's figure varies: the spread of its repeats, or (a precision mode) its rounds' coefficient of variation. */
function variationText(spread: number | null, cv: number | null, precision: boolean): string {
  if (!precision) return spread === null ? 'one repeat: no spread' : `spread of repeats ${formatBand(spread).slice(1)}`;
  if (cv === null) return 'geometric mean of one round: no coefficient of variation';
  return `geometric mean of its rounds, coefficient of variation ${formatPercent(cv)}${unstable(cv) ? ' ⚠ unstable (above 10%)' : ''}`;
}

function figure(side: { status: CompareRow['a_status']; best: number | null; spread: number | null; cv: number | null; config: string | null; reason: string | null }, showConfig: boolean, metric: Metric, precision: boolean): HTMLElement {
  const { status, best, config, reason } = side;
  if (best === null) {
    const text = status && status !== 'ok' ? statusText(status, reason) : 'no figure';
    return h('td', { class: 'px-2 py-1 text-right text-slate-600 italic', attrs: { title: text } }, text.length > 40 ? `${text.slice(0, 38)}…` : text);
  }
  const shaky = precision && side.cv !== null && unstable(side.cv);
  return h('td', { class: 'px-2 py-1 text-right', attrs: { title: variationText(side.spread, side.cv, precision), ...(shaky ? { 'data-unstable': 'true' } : {}) } },
    formatFigure(best, metric.unit), shaky ? ' ⚠' : '',
    showConfig && config ? h('span', { class: 'block text-[11px] text-slate-600' }, config) : '');
}

/** A table cell with a change and its verdict ("▲ +4.1%"; a cheaper cost "▼ −4.1%"), tinted as the heat tables are; '–' without a ratio. */
export function changeCell(ratio: number | null, band: number | null, verdict: Verdict | null, metric: Metric = RPS, interval?: RatioInterval): HTMLElement {
  if (ratio === null || verdict === null) return h('td', { class: 'px-2 py-1 text-right text-slate-600', attrs: { 'data-verdict': '' } }, '–');
  const cell = h('td', {
    class: `px-2 py-1 text-right font-medium ${verdict === 'tie' || verdict === 'unknown' ? 'text-slate-600' : ''}`,
    attrs: { 'data-verdict': verdict, 'data-ratio': String(ratio), title: changeText(ratio, band, verdict, metric, interval) },
  }, `${verdictGlyphs(metric)[verdict]} ${formatChange(ratio)}`,
  interval?.lo != null ? h('span', { class: 'block text-[11px] font-normal text-slate-600' }, formatInterval(interval)) : '');
  const background = tint(ratio, verdict);
  if (background) cell.style.background = background;
  return cell;
}

function modeTable(mode: string, rows: readonly CompareRow[], a: SideRef, b: SideRef, metric: Metric, precision: boolean): HTMLElement {
  const tests = rows.filter((r) => r.test !== null);
  const mean = rows.find((r) => r.test === null);
  const th = (text: string, extra = '') => h('th', { class: `border-b border-slate-300 px-2 py-1 font-semibold text-slate-700 ${extra}`, attrs: { scope: 'col' } }, text);
  const meanCells = mean && mean.ratio !== null && mean.verdict !== null
    ? [h('td', { class: 'px-2 py-1 text-right text-slate-700', attrs: { colspan: '2' } }, `${countsText(mean, `${mean.tests} tests`, metric, precision)}${mean.interval ? '' : ` · band ${formatBand(mean.band ?? 0)}`}`), changeCell(mean.ratio, mean.band, mean.verdict, metric, mean.interval)]
    : [h('td', { class: 'px-2 py-1 text-right text-slate-600', attrs: { colspan: '3' } }, 'no test measured on both sides')];
  const what = precision ? `geometric mean of the rounds; B / A over rounds paired ${a.version === b.version ? 'within each round' : 'by number'}` : 'best of repeats';
  return h('table', { class: 'compare-table w-full border-collapse text-sm tabular-nums', attrs: { 'data-mode': mode } },
    h('caption', { class: 'mb-1 text-left font-semibold text-slate-800' }, `${mode} mode: B against A, ${metric.name} (${what}; ${metric.direction})`),
    h('thead', {}, h('tr', {}, th('Test', 'text-left'), th(`A: ${sideName(a, metric)}`, 'text-right'), th(`B: ${sideName(b, metric)}`, 'text-right'), th('Change B / A', 'text-right'))),
    h('tbody', {}, ...tests.map((r) => h('tr', { class: 'border-b border-slate-100', attrs: { 'data-test': r.test ?? '' } },
      h('th', { class: 'px-2 py-1 text-left font-normal', attrs: { scope: 'row' } }, r.test ?? ''),
      figure({ status: r.a_status, best: r.a_best, spread: r.a_spread, cv: r.a_cv, config: r.a_config, reason: r.a_reason }, a.config === null, metric, precision),
      figure({ status: r.b_status, best: r.b_best, spread: r.b_spread, cv: r.b_cv, config: r.b_config, reason: r.b_reason }, b.config === null, metric, precision),
      changeCell(r.ratio, r.band, r.verdict, metric, r.interval),
    ))),
    h('tfoot', {}, h('tr', { class: 'border-t-2 border-slate-300 font-semibold', attrs: { 'data-test': '' } },
      h('th', { class: 'px-2 py-1 text-left', attrs: { scope: 'row' } }, 'Geometric mean'),
      ...meanCells,
    )),
  );
}

/** The compare section. */
export function createCompare(ctx: AnalysisContext): SectionView {
  const frame = sectionFrame('compare', 'Compare two builds', [
    'Any two versions, or any two configurations, test by test: the change is B over A (best repeat against best repeat), ',
    '▲/▼ when beyond the noise band (the larger run-to-run spread of the two; for a counted metric at least its rebuild band), ≈ within it; the last row of each mode is the geometric mean. ',
    'A side can be a version at its fastest configuration for each test.',
  ], () => ctx.link({ section: 'compare' }), ctx.tools);
  const configOptions = (): (readonly [string, string])[] => [[BEST, 'best per test'], ...ctx.configs.map((c) => [configKey(c), configName(c)] as const)];
  const versionOptions = () => ctx.versions.map((v) => [v, v] as const);
  let current: { a: SideRef; b: SideRef } | null = null;
  const pick = (name: 'a' | 'b', change: { version?: string; config?: ConfigRef | null }) => {
    if (!current) return;
    const side = { ...current[name], ...change };
    ctx.update({ [name]: sideKey(side), section: 'compare' });
  };
  const pickers = (['a', 'b'] as const).map((name) => ({
    version: labelledSelect(`compare-${name}-version`, `${name.toUpperCase()}: version`, (v) => pick(name, { version: v })),
    config: labelledSelect(`compare-${name}-config`, 'configuration', (c) => pick(name, { config: c === BEST ? null : parseConfigKey(c) })),
  }));
  const swap = h('button', {
    class: 'rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100',
    attrs: { type: 'button', 'data-action': 'swap' },
    on: { click: () => current && ctx.update({ a: sideKey(current.b), b: sideKey(current.a), section: 'compare' }) },
  }, 'Swap A and B');
  frame.controls.append(
    ...pickers.map((p, i) => h('fieldset', { class: 'flex flex-wrap items-center gap-2 rounded-md border border-slate-200 px-2 py-1' },
      h('legend', { class: 'sr-only' }, `Build ${i === 0 ? 'A' : 'B'}`), p.version.wrap, p.config.wrap)),
    swap,
  );
  const rule = h('p', { class: 'rule-note mb-2 max-w-4xl text-sm text-slate-700' });
  const tablesBox = h('div', { class: 'grid grid-cols-1 gap-4 xl:grid-cols-2' });
  frame.body.append(rule, tablesBox);

  /** The rows of the protocol's modes (precision: the paired rounds judged here). */
  async function compared(a: SideRef, b: SideRef, metric: Metric, precision: boolean): Promise<CompareRow[]> {
    if (!precision) return ctx.run(compareQuery(a, b, metric));
    const [rows, rounds] = await Promise.all([ctx.run(compareQuery(a, b, metric, 'precision')), ctx.run(precisionCompareQuery(a, b))]);
    return precisionStats('compare', rows, rounds);
  }

  async function render(state: AppState): Promise<void> {
    const precision = protocolOf(state.mode, ctx.precisionModes) === 'precision';
    frame.intro.hidden = precision;
    rule.textContent = RULE_TEXT[precision ? 'precision' : 'reference'];
    const metric = metricOf(state.metric);
    // By default the two newest versions the protocol measured: of the reference modes, the
    // newest two shown with figures in the metric.
    const sides = comparedSides(state, precision
      ? ctx.versions.filter((v) => ctx.rounds.some((r) => r.version === v))
      : compareCandidates(shownVersions(state, ctx.versions, ctx.currentVersions), metric.kind === 'counted' ? ctx.countedVersions : ctx.measuredVersions));
    if (!sides) return;
    current = sides;
    (['a', 'b'] as const).forEach((name, i) => {
      pickers[i]?.version.setOptions(versionOptions(), sides[name].version);
      pickers[i]?.config.setOptions(configOptions(), sides[name].config ? configKey(sides[name].config) : BEST);
    });
    frame.status.textContent = 'Computing…';
    let rows: CompareRow[];
    try {
      rows = await compared(sides.a, sides.b, metric, precision);
    } catch (err) {
      showSectionError(frame, 'The comparison', err);
      return;
    }
    if (current !== sides) return;
    frame.status.textContent = `B: ${sideName(sides.b, metric)} against A: ${sideName(sides.a, metric)}${metricSuffix(metric)}`;
    frame.status.dataset.status = '';
    const file = `redis-benchmarks-compare-${fileSlug(sideKey(sides.b))}-vs-${fileSlug(sideKey(sides.a))}`;
    frame.setQueries(precision ? [
      { label: 'figures', title: `Compare, precision modes: each side's figure per mode and test (B ${sideName(sides.b)}, A ${sideName(sides.a)})`, query: compareQuery(sides.a, sides.b, metric, 'precision'), file: `${file}-precision` },
      { label: 'paired rounds', title: `Compare, precision modes: B ${sideName(sides.b)} against A ${sideName(sides.a)} per mode, test and round (lr = ln B / A in that round)`, query: precisionCompareQuery(sides.a, sides.b), file: `${file}-rounds` },
    ] : [{
      label: 'ratios', title: `Compare: B ${sideName(sides.b)} against A ${sideName(sides.a)}${metricSuffix(metric)}, per mode and test (test NULL: geometric mean)`,
      query: compareQuery(sides.a, sides.b, metric), file: `${file}${metric.id === 'rps' ? '' : `-${metric.id}`}`,
    }]);
    const modes = [...new Set(rows.map((r) => r.mode))];
    tablesBox.replaceChildren(...modes.map((mode) => h('div', { class: 'overflow-x-auto' }, modeTable(mode, rows.filter((r) => r.mode === mode), sides.a, sides.b, metric, precision))));
  }

  return { frame, render, key: (s) => `${s.metric}|${s.a}|${s.b}|${protocolOf(s.mode, ctx.precisionModes)}|${s.releases}|${s.from}|${s.to}` };
}
