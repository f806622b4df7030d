/** The legend shared by every chart: compiler colours, the winner mark and the missing-data patterns. */
import { MISSING_STYLE, type MissingStatus, textureFor } from '../chart/palette';
import { svgElement } from '../chart/svg';
import { changeGlyph } from '../model/metric';
import { type Metric, RPS } from '../vocabulary';
import { h } from './dom';

function swatch(fill: string, dashed = false): SVGSVGElement {
  const rect = svgElement(document, 'rect', {
    width: 13, height: 13, x: 0.5, y: 0.5, fill,
    stroke: fill.startsWith('url(') ? '#94a3b8' : null,
    'stroke-dasharray': dashed ? '3 2' : null,
  });
  const texture = textureFor(fill);
  const overlay = texture ? [svgElement(document, 'rect', { width: 13, height: 13, x: 0.5, y: 0.5, fill: `url(#${texture})` })] : [];
  return svgElement(document, 'svg', { width: 14, height: 14, 'aria-hidden': 'true' }, rect, ...overlay);
}

/** A missing status's words in the legend: a latency that is not there is "not measured". */
function missingText(status: MissingStatus, metric: Metric): string {
  if (status === 'build_failed') return 'build, server or test failed';
  return status === 'not_collected' && metric.latencyColumn !== null ? 'not measured' : MISSING_STYLE[status].label;
}

/** Renders the legend for these compilers (with their colours) into `root`, its marks' words in `metric`, and what the metric is when it says (a simulated count). */
export function renderLegend(root: HTMLElement, compilers: readonly string[], colorOf: (c: string) => string, metric: Metric = RPS): void {
  const entry = (icon: Node, text: string) => h('li', { class: 'flex items-center gap-1' }, icon, text);
  const missing: MissingStatus[] = ['build_failed', 'unsupported', 'not_collected'];
  root.replaceChildren(
    h('ul', { class: 'flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-700', attrs: { 'aria-label': 'Legend' } },
      ...compilers.map((c) => entry(swatch(colorOf(c)), c)),
      entry(h('span', { class: 'text-sm', attrs: { 'aria-hidden': 'true' } }, '★'), `${metric.best} configuration, beyond noise`),
      entry(h('span', { class: 'text-sm', attrs: { 'aria-hidden': 'true' } }, '≈'), 'tie within noise'),
      entry(h('span', { class: 'text-sm', attrs: { 'aria-hidden': 'true' } }, `${changeGlyph(metric, 'faster')} ${changeGlyph(metric, 'slower')}`),
        `${metric.better} / ${metric.worse} than the release before, beyond noise`),
      entry(h('span', { class: 'font-bold', attrs: { 'aria-hidden': 'true' } }, '┃'), 'whisker: worst to best repeat'),
      ...missing.map((s) => entry(swatch(`url(#${MISSING_STYLE[s].pattern})`, s === 'not_collected'), missingText(s, metric))),
    ),
    ...(metric.note ? [h('p', { class: 'metric-note mt-1 max-w-4xl text-xs text-slate-700', attrs: { 'data-metric': metric.id } }, metric.note)] : []),
  );
}
