/**
 * The summary section (the landing section): every configuration's geometric-mean speed against
 * a baseline, per mode, with the distribution of its per-test changes (one version, or all
 * versions) and a table of the scores per version.
 */
import { changeStrip, type ChangeStrip, type StripRow } from '../chart/changeStrip';
import { type HeatTableData, heatTables } from '../chart/heatTable';
import { type ConfigRef, configKey, parseConfigKey } from '../model/analysisState';
import { changeText, configName, countsNote, countsText, formatChange, verdictText } from '../model/changeText';
import type { AppState } from '../model/state';
import { summaryItemsQuery, type SummaryItemRow, summaryQuery, type SummaryRow } from '../sql/summary';
import { fileSlug } from '../export/download';
import { h } from '../ui/dom';
import { type AnalysisContext, type SectionView, showSectionError } from './context';
import { labelledSelect, sectionFrame } from './section';

const ALL = '';

function stripRow(config: ConfigRef, base: ConfigRef, score: SummaryRow | undefined, items: readonly SummaryItemRow[], allVersions: boolean): StripRow {
  const name = configName(config);
  const reference = configKey(config) === configKey(base);
  const against = `against ${configName(base)}`;
  const points = items.map((i) => ({
    key: i.test,
    ratio: i.ratio,
    verdict: i.verdict,
    tooltip: [
      `${name}: ${i.test}`,
      `${formatChange(i.ratio)} ${against}${allVersions ? ` (geometric mean over ${i.versions} version${i.versions === 1 ? '' : 's'})` : ''}`,
      verdictText(i.verdict, i.band),
    ],
  }));
  if (!score) {
    const why = `${name}: nothing to compare (not measured where ${configName(base)} was)`;
    return { key: configKey(config), label: name, mean: null, band: null, verdict: null, note: '', points, ariaLabel: why, tooltip: [why], reference };
  }
  const mean = `geometric mean ${changeText(score.ratio, score.band, score.verdict)}, ${against} over ${score.tests} tests`;
  const extremes = `largest gain ${score.best_test} ${formatChange(score.best_ratio)}, largest loss ${score.worst_test} ${formatChange(score.worst_ratio)}`;
  const counts = countsText(score, 'tests');
  return {
    key: configKey(config),
    label: reference ? `${name} (baseline)` : name,
    mean: score.ratio,
    band: score.band,
    verdict: score.verdict,
    note: countsNote(score),
    points,
    ariaLabel: `${name}: ${mean}; ${counts}; ${extremes}.`,
    tooltip: [name, mean, counts, extremes],
    reference,
  };
}

/** The summary section. */
export function createSummary(ctx: AnalysisContext): SectionView {
  const frame = sectionFrame('summary', 'Summary: which build is fastest?', [
    "Each configuration's speed relative to a baseline, as the geometric mean of its per-test ratios (best repeat against best repeat), ",
    'with one dot per test. ▲ and ▼ mark changes beyond the noise band (the larger run-to-run spread of the two builds), ≈ changes within it; ',
    'the shaded band around 0 is the noise band of the mean. Over all versions, each test is first averaged over the versions both builds measured.',
  ], () => ctx.link({ section: 'summary' }), ctx.tools);
  const baseSelect = labelledSelect('summary-base', 'Baseline', (value) => ctx.update({ base: value === configKey(ctx.configs[0] ?? { compiler: '', flag_set: '' }) ? null : value }));
  const scopeSelect = labelledSelect('summary-scope', 'Per-test changes on', (value) => ctx.update({ scope: value === ALL ? null : value }));
  frame.controls.append(baseSelect.wrap, scopeSelect.wrap);
  const stripsBox = h('div', { class: 'grid grid-cols-1 gap-4 xl:grid-cols-2' });
  const tablesBox = h('div', { class: 'mt-4 grid grid-cols-1 gap-4 overflow-x-auto' });
  frame.body.append(stripsBox, tablesBox);
  const strips = new Map<string, { chart: ChangeStrip; caption: HTMLElement }>();
  const tables = heatTables(tablesBox, 'summary-table');

  async function render(state: AppState): Promise<void> {
    const base = parseConfigKey(state.base ?? '') ?? ctx.configs[0];
    if (!base) return;
    baseSelect.setOptions(ctx.configs.map((c) => [configKey(c), configName(c)]), configKey(base));
    scopeSelect.setOptions([[ALL, 'all versions'], ...ctx.versions.map((v) => [v, v] as const)], state.scope ?? ALL);
    frame.status.textContent = 'Computing…';
    let scores: SummaryRow[];
    let items: SummaryItemRow[];
    try {
      [scores, items] = await Promise.all([ctx.run(summaryQuery(base)), ctx.run(summaryItemsQuery(base, state.scope))]);
    } catch (err) {
      showSectionError(frame, 'The summary', err);
      return;
    }
    const modes = [...new Set(scores.map((s) => s.mode))];
    frame.status.textContent = modes.length ? '' : `Nothing to compare yet: ${configName(base)} has no measured test.`;
    frame.status.dataset.status = '';
    const scopeText = state.scope === null ? 'all versions' : `Redis ${state.scope}`;
    const against = `against ${configName(base)}`;
    frame.setQueries([
      { label: 'geometric means', title: `Summary: geometric mean of every configuration ${against}, per mode and version (version NULL: all versions)`,
        query: summaryQuery(base), file: `redis-benchmarks-summary-vs-${fileSlug(configName(base))}` },
      { label: 'per-test changes', title: `Summary: per-test changes of every configuration ${against}, ${scopeText}`,
        query: summaryItemsQuery(base, state.scope), file: `redis-benchmarks-summary-tests-vs-${fileSlug(configName(base))}-${fileSlug(state.scope ?? 'all-versions')}` },
    ]);

    for (const mode of modes) {
      const rows = ctx.configs.map((config) => stripRow(
        config, base,
        scores.find((s) => s.mode === mode && s.version === state.scope && s.compiler === config.compiler && s.flag_set === config.flag_set),
        items.filter((i) => i.mode === mode && i.compiler === config.compiler && i.flag_set === config.flag_set),
        state.scope === null,
      ));
      const label = `${mode} mode, ${scopeText}: change of each configuration against ${configName(base)}, one dot per test`;
      let strip = strips.get(mode);
      if (!strip) {
        const caption = h('figcaption', { class: 'text-sm font-semibold text-slate-800' });
        // On a phone the chart scrolls sideways in its box rather than shrinking its text.
        const box = h('div', { class: 'overflow-x-auto [&>svg]:min-w-[520px]' });
        stripsBox.append(h('figure', { class: 'summary-strip', attrs: { 'data-mode': mode } }, caption, box));
        strip = { chart: changeStrip(box, rows, label), caption };
        strips.set(mode, strip);
      } else strip.chart.update(rows, label);
      strip.caption.textContent = `${mode} mode · ${scopeText} · against ${configName(base)}`;

      const data: HeatTableData = {
        caption: `${mode} mode: geometric mean against ${configName(base)}, per version (click a cell for its per-test changes)`,
        columns: [...ctx.versions.map((v) => ({ key: v, label: v })), { key: ALL, label: 'all' }],
        rows: ctx.configs.map((config) => ({
          key: configKey(config),
          label: configName(config),
          cells: [...ctx.versions, null].map((version) => {
            const s = scores.find((r) => r.mode === mode && r.version === version && r.compiler === config.compiler && r.flag_set === config.flag_set);
            const where = `${configName(config)}, ${version === null ? 'all versions' : `Redis ${version}`}, ${mode} mode`;
            return s
              ? { ratio: s.ratio, verdict: s.verdict, title: `${where}: ${changeText(s.ratio, s.band, s.verdict)} against ${configName(base)}; ${countsText(s, `${s.tests} tests`)}` }
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

  return { frame, render, key: (s) => `${s.base}|${s.scope}` };
}
