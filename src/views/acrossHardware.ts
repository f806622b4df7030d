/**
 * The across-hardware section: the shown hardware class (A) set against another (B), over the
 * cells, modes and tests both measured (src/sql/acrossHardware.ts). How much faster B runs the
 * same builds, per configuration and version, and whether the ranking of configurations carries
 * over from one CPU to the other. Figures of the two classes are only ever set side by side here.
 */
import { heatTable, type HeatTable, heatTables } from '../chart/heatTable';
import { configKey, parseConfigKey } from '../model/analysisState';
import { changeText, configName, countsNote, countsText, formatChange, VERDICT_GLYPH } from '../model/changeText';
import type { HardwareClass } from '../model/hardware';
import { ranks, spearman } from '../model/ranking';
import type { AppState } from '../model/state';
import { hardwareRankingQuery, type HardwareRankingRow, hardwareRatiosQuery, type HardwareRatioRow } from '../sql/acrossHardware';
import { fileSlug } from '../export/download';
import { h } from '../ui/dom';
import { changeCell } from './compare';
import { type AnalysisContext, type SectionView, showSectionError } from './context';
import { labelledSelect, sectionFrame } from '../ui/section';
import type { ConfigRef, HeatTableData, Verdict } from '../vocabulary';

const ALL = '';

/** The classes a state sets side by side: the shown class and `vs` (or the first other class); null with fewer than two. */
export function comparedClasses(classes: readonly HardwareClass[], shown: HardwareClass | null, vs: string | null): { a: HardwareClass; b: HardwareClass } | null {
  if (!shown) return null;
  const others = classes.filter((c) => c.slug !== shown.slug);
  const b = others.find((c) => c.slug === vs) ?? others[0];
  return b ? { a: shown, b } : null;
}

/** A class label without the core count when both classes have the same: "AMD EPYC". */
export function shortLabel(label: string, other: string): string {
  const cores = /, (\d+ cores?)$/;
  const mine = cores.exec(label)?.[1];
  return mine !== undefined && cores.exec(other)?.[1] === mine ? label.replace(cores, '') : label;
}

const range = (row: Pick<HardwareRatioRow, 'p10' | 'p90'>) => `${formatChange(row.p10)} to ${formatChange(row.p90)}`;

/** One mode's headline: "data mode: Intel Xeon ? +18.5% against AMD EPYC (geometric mean of 741 tests in 39 cells …)". */
export function headlineText(mode: string, row: HardwareRatioRow, a: string, b: string): string {
  const used = row.min_used === row.max_used ? `${row.min_used}` : `${row.min_used}–${row.max_used}`;
  return `${mode} mode: ${b} ${VERDICT_GLYPH[row.verdict]} ${formatChange(row.ratio)} against ${a} (geometric mean of ${row.items} tests in ${row.cells} cell${row.cells === 1 ? '' : 's'} measured on both, `
    + `best of ${used} repeat${used === '1' ? '' : 's'} on each side; middle 80% of the per-test changes ${range(row)}; ${countsText(row, 'per test')})`;
}

/** The ranking of one mode, with each side's rank and the rank correlation. */
export interface ModeRanking {
  rows: (HardwareRankingRow & { a_rank: number; b_rank: number })[];
  /** Spearman's rank correlation of the two columns, null with fewer than three configurations. */
  rho: number | null;
}

/** Ranks a mode's configurations on each class (1 = fastest against the baseline). */
export function rankMode(rows: readonly HardwareRankingRow[]): ModeRanking {
  const ra = ranks(rows.map((r) => r.a_ratio));
  const rb = ranks(rows.map((r) => r.b_ratio));
  return {
    rows: rows.map((r, i) => ({ ...r, a_rank: ra[i]!, b_rank: rb[i]! })),
    rho: spearman(rows.map((r) => r.a_ratio), rows.map((r) => r.b_ratio)),
  };
}

const rankText = (rank: number) => (Number.isInteger(rank) ? String(rank) : `${Math.floor(rank)}=`);

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

/** "Fastest on A: clang -O2 -flto (+4.0%); on B: gcc -O2 -flto (+3.1%); rank correlation 0.71 over 12 configurations." */
export function rankingText(ranking: ModeRanking, a: string, b: string): string {
  const top = (side: 'a' | 'b') => {
    const rank = side === 'a' ? 'a_rank' : 'b_rank';
    const best = ranking.rows.filter((r) => r[rank] === Math.min(...ranking.rows.map((x) => x[rank])));
    return best.map((r) => `${configName(r)} (${formatChange(side === 'a' ? r.a_ratio : r.b_ratio)})`).join(' and ');
  };
  const rho = ranking.rho === null
    ? 'too few configurations for a rank correlation'
    : `rank correlation (Spearman) ${ranking.rho.toFixed(2)} over ${ranking.rows.length} configurations`;
  // One repeat per cell on the class with fewer: each side's best is one run, with no spread.
  const single = ranking.rows.length > 0 && ranking.rows.every((r) => r.a_verdict === 'unknown' && r.b_verdict === 'unknown');
  const caveat = single
    ? ' One repeat per cell on each side so far (as many as the class with fewer has): no spread is known, and the rankings are as noisy as single runs.'
    : '';
  return `Fastest on ${a}: ${top('a')}; on ${b}: ${top('b')}; ${rho}.${caveat}`;
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
    const modes = [...new Set(ratios.map((r) => r.mode))];
    frame.status.textContent = modes.length
      ? `B: ${b.label} (${b.measuredCells} of ${b.plannedCells} cells measured) against A: ${a.label} (${a.measuredCells} of ${a.plannedCells})`
      : `No cell measured on both ${a.label} and ${b.label} yet.`;
    headline.replaceChildren(...modes.flatMap((mode) => {
      const overall = ratios.find((r) => r.mode === mode && r.compiler === null && r.version === null && r.test === null);
      return overall ? [h('li', { attrs: { 'data-mode': mode } }, headlineText(mode, overall, an, bn))] : [];
    }));

    for (const mode of modes) {
      const inMode = ratios.filter((r) => r.mode === mode && r.test === null);
      const versions = ctx.versions.filter((v) => inMode.some((r) => r.version === v));
      const configRows = [...ctx.configs.filter((c) => inMode.some((r) => r.compiler === c.compiler && r.flag_set === c.flag_set)), null];
      const data: HeatTableData = {
        caption: `${mode} mode: ${bn} / ${an}, per configuration and version`,
        columns: [...versions.map((v) => ({ key: v, label: v })), { key: ALL, label: 'all' }],
        rows: configRows.map((config) => ({
          key: config ? configKey(config) : ALL,
          label: config ? configName(config) : 'all configurations',
          cells: [...versions, null].map((version) => {
            const r = inMode.find((x) => x.compiler === (config?.compiler ?? null) && x.flag_set === (config?.flag_set ?? null) && x.version === version);
            const where = `${config ? configName(config) : 'all configurations'}, ${version === null ? 'all versions' : `Redis ${version}`}, ${mode} mode`;
            return r
              ? { ratio: r.ratio, verdict: r.verdict, title: `${where}: ${bn} ${changeText(r.ratio, r.band, r.verdict)} against ${an}; ${countsText(r, `${r.items} tests`)} (${countsNote(r)})` }
              : { ratio: null, verdict: null, title: `${where}: not measured on both classes` };
          }),
        })),
      };
      tables.show(mode, data, {});
    }
    tables.keepOnly(modes);
    // Per test, both modes side by side: where the two CPUs differ most.
    const testRows = ratios.filter((r) => r.test !== null);
    const tests = [...new Map(testRows.map((r) => [r.test, r.test_index ?? 0])).entries()].sort((x, y) => x[1] - y[1]).map(([t]) => t as string);
    const testData: HeatTableData = {
      caption: `Per test: ${bn} / ${an} over every cell measured on both, per mode`,
      columns: modes.map((m) => ({ key: m, label: `${m} mode` })),
      rows: tests.map((test) => ({
        key: test,
        label: test,
        cells: modes.map((mode) => {
          const r = testRows.find((x) => x.mode === mode && x.test === test);
          return r
            ? { ratio: r.ratio, verdict: r.verdict, title: `${test}, ${mode} mode: ${bn} ${changeText(r.ratio, r.band, r.verdict)} against ${an}, over ${r.cells} cell${r.cells === 1 ? '' : 's'} (middle 80% ${range(r)}); ${countsText(r, 'per cell')}` }
            : { ratio: null, verdict: null, title: `${test}, ${mode} mode: not measured on both classes` };
        }),
      })),
    };
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
