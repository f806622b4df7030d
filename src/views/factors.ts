/**
 * The build-factor section: what the compiler, the optimisation level and LTO are each worth,
 * holding the other factors fixed, per version and over all versions, per mode.
 */
import { heatTables } from '../chart/heatTable';
import { changeText, countsText, formatChange, verdictGlyphs } from '../model/changeText';
import { metricSuffix } from '../model/metric';
import type { AppState } from '../model/state';
import { effectsQuery, type EffectRow } from '../sql/effects';
import { h } from '../ui/dom';
import { type AnalysisContext, type SectionView, showSectionError } from './context';
import { sectionFrame } from '../ui/section';
import { metricOf } from '../vocabulary';

const ALL = '';

/** "clang vs gcc", "-Os vs -O2", "LTO (-flto) on vs off". */
export function effectName(row: Pick<EffectRow, 'factor' | 'level' | 'base'>): string {
  return row.factor === 'lto' ? 'LTO (-flto) on vs off' : `${row.level} vs ${row.base}`;
}

/** What an effect holds fixed, in words. */
const HELD: Readonly<Record<EffectRow['factor'], string>> = {
  compiler: 'same flags',
  level: 'same compiler, same LTO',
  lto: 'same compiler, same level',
};

/** The build-factor section. */
export function createFactors(ctx: AnalysisContext): SectionView {
  const frame = sectionFrame('factors', 'Build factors: what each choice is worth', [
    'Each factor as the geometric mean of the ratios between builds that differ in that factor only ',
    '(e.g. LTO: "-O2 -flto" against "-O2", "-Os -flto" against "-Os", with the same compiler, version, mode and test). ',
    'A cell is tinted only when the mean is beyond its noise band (the geometric mean of the pairs\' bands): blue better, orange worse in the page\'s metric. ',
    'For a counted cost a negative change is the better one (▼ cheaper).',
  ], () => ctx.link({ section: 'factors' }), ctx.tools);
  const headline = h('ul', { class: 'factor-headline mb-3 space-y-1 text-sm text-slate-800' });
  const tablesBox = h('div', { class: 'grid grid-cols-1 gap-4 overflow-x-auto' });
  frame.body.append(headline, tablesBox);
  const tables = heatTables(tablesBox, 'factor-table');

  async function render(state: AppState): Promise<void> {
    const metric = metricOf(state.metric);
    const glyph = verdictGlyphs(metric);
    frame.status.textContent = 'Computing…';
    let rows: EffectRow[];
    try {
      rows = await ctx.run(effectsQuery(metric));
    } catch (err) {
      showSectionError(frame, 'The build factors', err);
      return;
    }
    frame.setQueries([{
      label: 'effects', title: `Build factors: effect of compiler, level and LTO${metricSuffix(metric)}, per mode and version (version NULL: all versions)`,
      query: effectsQuery(metric), file: `redis-benchmarks-build-factors${metric.id === 'rps' ? '' : `-${metric.id}`}`,
    }]);
    const modes = [...new Set(rows.map((r) => r.mode))];
    frame.status.textContent = modes.length ? '' : 'Nothing to compare yet: no two builds that differ in one factor were both measured.';
    headline.replaceChildren(...modes.map((mode) => {
      const overall = rows.filter((r) => r.mode === mode && r.version === null);
      return h('li', {}, h('strong', {}, `${mode} mode, all versions${metric.kind === 'counted' ? `, ${metric.name}` : ''}: `),
        overall.map((r) => `${effectName(r)} ${glyph[r.verdict]} ${formatChange(r.ratio)}`).join(' · '));
    }));
    for (const mode of modes) {
      const inMode = rows.filter((r) => r.mode === mode);
      const effects = [...new Map(inMode.map((r) => [`${r.factor}:${r.level}`, r])).values()];
      const versions = ctx.versions.filter((v) => inMode.some((r) => r.version === v));
      const data = {
        caption: `${mode} mode: effect of each factor on ${metric.name} (${metric.direction}), per version`,
        columns: [...versions.map((v) => ({ key: v, label: v })), { key: ALL, label: 'all' }],
        rows: effects.map((effect) => ({
          key: `${effect.factor}:${effect.level}`,
          label: effectName(effect),
          cells: [...versions, null].map((version) => {
            const r = inMode.find((x) => x.factor === effect.factor && x.level === effect.level && x.version === version);
            const where = `${effectName(effect)}, ${version === null ? 'all versions' : `Redis ${version}`}, ${mode} mode`;
            return r
              ? { ratio: r.ratio, verdict: r.verdict, glyph: glyph[r.verdict], title: `${where}: ${changeText(r.ratio, r.band, r.verdict, metric)}; ${countsText(r, `${r.pairs} pairs (${HELD[r.factor]})`, metric)}` }
              : { ratio: null, verdict: null, title: `${where}: no pair of builds measured` };
          }),
        })),
      };
      tables.show(mode, data, {});
    }
  }

  return { frame, render, key: (s) => s.metric };
}
