/**
 * The build-factor section: what the compiler, the optimisation level and LTO are each worth,
 * holding the other factors fixed, per version and over all versions, per mode; in the precision
 * modes (the mode filter's protocol), by bootstrap intervals of the pairs' rounds.
 */
import { heatTables } from '../chart/heatTable';
import { effectModes, factorHeadlines, factorsStatus, factorTable } from '../model/factors';
import { metricSuffix } from '../model/metric';
import { precisionStats } from '../data/precisionStats';
import { RULE_TEXT } from '../model/precision';
import { type AppState, protocolOf, shownVersions } from '../model/state';
import { effectsQuery, type EffectRow } from '../sql/effects';
import { precisionEffectsQuery } from '../sql/precision';
import { h } from '../ui/dom';
import { sectionFrame } from '../ui/section';
import { metricOf } from '../vocabulary';
import { type AnalysisContext, type SectionView, showSectionError } from './context';

/** The build-factor section. */
export function createFactors(ctx: AnalysisContext): SectionView {
  const frame = sectionFrame('factors', 'Build factors: what each choice is worth', [
    'Each factor as the geometric mean of the ratios between builds that differ in that factor only ',
    '(e.g. LTO: "-O2 -flto" against "-O2", "-Os -flto" against "-Os", with the same compiler, version, mode and test). ',
    'A cell is tinted only when the mean is beyond its noise band (the geometric mean of the pairs\' bands): blue better, orange worse in the page\'s metric. ',
    'For a counted cost a negative change is the better one (▼ cheaper).',
  ], () => ctx.link({ section: 'factors' }), ctx.tools);
  const rule = h('p', { class: 'rule-note mb-2 max-w-4xl text-sm text-slate-700' });
  const headline = h('ul', { class: 'factor-headline mb-3 space-y-1 text-sm text-slate-800' });
  const tablesBox = h('div', { class: 'grid grid-cols-1 gap-4 overflow-x-auto' });
  frame.body.append(rule, headline, tablesBox);
  const tables = heatTables(tablesBox, 'factor-table');

  let renders = 0;
  async function render(state: AppState): Promise<void> {
    const metric = metricOf(state.metric);
    const protocol = protocolOf(state.mode, ctx.precisionModes);
    const token = ++renders;
    frame.status.textContent = 'Computing…';
    frame.intro.hidden = protocol === 'precision';
    rule.textContent = RULE_TEXT[protocol];
    let rows: EffectRow[];
    try {
      rows = protocol === 'precision' ? await precisionStats('effects', await ctx.run(precisionEffectsQuery())) : await ctx.run(effectsQuery(metric));
    } catch (err) {
      showSectionError(frame, 'The build factors', err);
      return;
    }
    if (token !== renders) return;
    frame.setQueries([protocol === 'precision' ? {
      label: 'paired rounds', title: 'Build factors, precision modes: every pair of builds that differ in one factor, per mode, version, test and round (lr = ln of the ratio in that round)',
      query: precisionEffectsQuery(), file: 'redis-benchmarks-build-factors-rounds',
    } : {
      label: 'effects', title: `Build factors: effect of compiler, level and LTO${metricSuffix(metric)}, per mode and version (version NULL: all versions)`,
      query: effectsQuery(metric), file: `redis-benchmarks-build-factors${metric.id === 'rps' ? '' : `-${metric.id}`}`,
    }]);
    const modes = effectModes(rows);
    tables.keepOnly(modes);
    frame.status.textContent = factorsStatus(modes);
    headline.replaceChildren(...factorHeadlines(rows, metric).map(({ lead, text }) => h('li', {}, h('strong', {}, lead), text)));
    // The versions shown (release set and range) head the tables; "all" stays over every version measured.
    const shown = shownVersions(state, ctx.versions, ctx.currentVersions);
    for (const mode of modes) tables.show(mode, factorTable(mode, rows, ctx.versions, metric, shown), {});
  }

  return { frame, render, key: (s) => `${s.metric}|${protocolOf(s.mode, ctx.precisionModes)}|${s.releases}|${s.from}|${s.to}` };
}
