/**
 * The across-hardware section: the shown hardware class (A) set against another (B), over the
 * cells, modes and tests both measured (src/sql/acrossHardware.ts). How much faster B runs the
 * same builds, per configuration and version, and whether the ranking of configurations carries
 * over from one CPU to the other. Figures of the two classes are only ever set side by side here.
 */
import { heatTable, type HeatTable, heatTables } from '../chart/heatTable';
import { fileSlug } from '../export/download';
import {
  comparedClasses, hardwareHeadlines, hardwareStatusText, hardwareTable, hardwareTestsTable, type ModeRanking, rankingText, rankMode,
  rankText, ratioModes, shortLabel,
} from '../model/acrossHardware';
import { configKey, parseConfigKey } from '../model/analysisState';
import { configName } from '../model/changeText';
import type { AppState } from '../model/state';
import { hardwareRankingQuery, type HardwareRankingRow, hardwareRatiosQuery, type HardwareRatioRow } from '../sql/acrossHardware';
import { h } from '../ui/dom';
import { labelledSelect, sectionFrame } from '../ui/section';
import type { ConfigRef, Verdict } from '../vocabulary';
import { changeCell } from './compare';
import { type AnalysisContext, type SectionView, showSectionError } from './context';

function scoreCell(ratio: number, band: number | null, verdict: Verdict, reference: boolean): HTMLElement {
  return reference ? h('td', { class: 'px-2 py-1 text-right text-slate-600' }, 'baseline') : changeCell(ratio, band, verdict);
}

function rankingTable(mode: string, ranking: ModeRanking, base: ConfigRef, a: string, b: string): HTMLElement {
  const th = (text: string, extra = '') => h('th', { class: `border-b border-slate-300 px-2 py-1 font-semibold text-slate-700 ${extra}`, attrs: { scope: 'col' } }, text);
  const items = Math.max(0, ...ranking.rows.map((r) => r.items));
  return h('table', { class: 'hardware-ranking w-full border-collapse text-sm tabular-nums', attrs: { 'data-mode': mode } },
    h('caption', { class: 'mb-1 text-left font-semibold text-slate-800' },
      `${mode} mode: each configuration against ${configName(base)}, on each class, over the same tests (up to ${items})`),
    h('thead', {}, h('tr', {}, th('Configuration', 'text-left'), th(a, 'text-right'), th('rank', 'text-right'), th(b, 'text-right'), th('rank', 'text-right'))),
    h('tbody', {}, ...ranking.rows.map((r) => {
      const reference = configKey(r) === configKey(base);
      return h('tr', { class: 'border-b border-slate-100', attrs: { 'data-config': configKey(r), title: `${r.items} tests on ${r.versions} version${r.versions === 1 ? '' : 's'} measured for both configurations on both classes` } },
        h('th', { class: 'px-2 py-1 text-left font-normal', attrs: { scope: 'row' } }, configName(r)),
        scoreCell(r.a_ratio, r.a_band, r.a_verdict, reference),
        h('td', { class: 'px-2 py-1 text-right', attrs: { 'data-rank': 'a' } }, rankText(r.a_rank)),
        scoreCell(r.b_ratio, r.b_band, r.b_verdict, reference),
        h('td', { class: 'px-2 py-1 text-right', attrs: { 'data-rank': 'b' } }, rankText(r.b_rank)),
      );
    })),
  );
}

/** The across-hardware section. */
export function createAcrossHardware(ctx: AnalysisContext): SectionView {
  const frame = sectionFrame('hardware', 'Across hardware: the same builds on another CPU', [
    'Everywhere else this page shows one hardware class, never mixing CPUs. Here the shown class (A) is set against another (B), ',
    'over the cells, modes and tests both measured: B / A per test (best repeat on each, over as many repeats as the class with fewer has, ',
    'so that a class further along does not look faster for it), as geometric means per configuration and version, and per test, ',
    'judged by the same noise rule (▲/▼ beyond the larger spread of the two classes\' repeats; ? when a class has one repeat). ',
    'Below, whether the choice of build carries over: every configuration against the baseline on each class, over the same tests. ',
    'This section always compares requests/second: a counted metric does not depend on the CPU (one dataset for every class), so it has nothing to set side by side.',
  ], () => ctx.link({ section: 'hardware' }), ctx.tools);
  const vsSelect = labelledSelect('hardware-vs', 'Set against (B)', (slug) => ctx.update({ vs: slug, section: 'hardware' }));
  const baseSelect = labelledSelect('hardware-base', 'Baseline (shared with the summary)', (value) =>
    ctx.update({ base: value === configKey(ctx.configs[0] ?? { compiler: '', flag_set: '' }) ? null : value, section: 'hardware' }));
  frame.controls.append(vsSelect.wrap, baseSelect.wrap);
  const headline = h('ul', { class: 'hardware-headline mb-3 space-y-1 text-sm text-slate-800' });
  const tablesBox = h('div', { class: 'grid grid-cols-1 gap-4 overflow-x-auto' });
  const testsBox = h('div', { class: 'hardware-tests mt-4 max-w-2xl overflow-x-auto' });
  const rankingBox = h('div', { class: 'mt-4 grid grid-cols-1 gap-4 xl:grid-cols-2' });
  frame.body.append(headline, tablesBox, testsBox, rankingBox);
  const tables = heatTables(tablesBox, 'hardware-table');
  let testsTable: HeatTable | null = null;
  let shown = '';

  async function render(state: AppState): Promise<void> {
    const classes = comparedClasses(ctx.hardware, ctx.selectedHardware, state.vs);
    if (!classes) {
      vsSelect.wrap.hidden = true;
      baseSelect.wrap.hidden = true;
      frame.status.textContent = `Only one hardware class in the data${ctx.selectedHardware ? ` (${ctx.selectedHardware.label})` : ''}: nothing to set it against yet.`;
      return;
    }
    const base = parseConfigKey(state.base ?? '') ?? ctx.configs[0];
    if (!base) return;
    const { a, b } = classes;
    vsSelect.setOptions(ctx.hardware.filter((c) => c.slug !== a.slug).map((c) => [c.slug, c.label]), b.slug);
    baseSelect.setOptions(ctx.configs.map((c) => [configKey(c), configName(c)]), configKey(base));
    const key = `${b.slug}|${configKey(base)}`;
    shown = key;
    frame.status.textContent = 'Computing…';
    frame.status.dataset.status = '';
    const ratiosQuery = hardwareRatiosQuery(a.label, b.label);
    const rankingQuery = hardwareRankingQuery(a.label, b.label, base);
    let ratios: HardwareRatioRow[];
    let ranking: HardwareRankingRow[];
    try {
      [ratios, ranking] = await Promise.all([ctx.run(ratiosQuery), ctx.run(rankingQuery)]);
    } catch (err) {
      showSectionError(frame, 'The comparison across hardware', err);
      return;
    }
    if (shown !== key) return;
    const an = shortLabel(a.label, b.label);
    const bn = shortLabel(b.label, a.label);
    const files = `redis-benchmarks-hardware-${fileSlug(b.slug)}-vs-${fileSlug(a.slug)}`;
    frame.setQueries([
      { label: 'ratios', title: `Across hardware: ${b.label} / ${a.label} per mode, configuration and version (NULL: all)`, query: ratiosQuery, file: `${files}-ratios` },
      { label: 'rankings', title: `Across hardware: every configuration against ${configName(base)} on ${a.label} and on ${b.label}, per mode`, query: rankingQuery, file: `${files}-rankings` },
    ]);
    const modes = ratioModes(ratios);
    frame.status.textContent = hardwareStatusText(a, b, modes);
    headline.replaceChildren(...hardwareHeadlines(ratios, an, bn).map(({ mode, text }) => h('li', { attrs: { 'data-mode': mode } }, text)));
    for (const mode of modes) tables.show(mode, hardwareTable(mode, ratios, ctx.versions, ctx.configs, an, bn), {});
    tables.keepOnly(modes);
    const testData = hardwareTestsTable(ratios, modes, an, bn);
    if (testsTable) testsTable.update(testData, {});
    else testsTable = heatTable(testsBox, testData, {});

    const rankingModes = [...new Set(ranking.map((r) => r.mode))];
    rankingBox.replaceChildren(...rankingModes.map((mode) => {
      const ranked = rankMode(ranking.filter((r) => r.mode === mode));
      return h('div', { class: 'overflow-x-auto', attrs: { 'data-mode': mode } },
        h('p', { class: 'hardware-ranking-note mb-1 text-sm text-slate-800' }, rankingText(ranked, an, bn)),
        rankingTable(mode, ranked, base, an, bn));
    }));
  }

  return { frame, render, key: (s) => `${s.vs}|${s.base}` };
}
