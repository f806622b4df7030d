/** The legend shared by every chart: compiler colours, the winner mark and the missing-data patterns. */
import { MISSING_STYLE, type MissingStatus } from '../chart/palette';
import { h } from './dom';

const SVG_NS = 'http://www.w3.org/2000/svg';

function swatch(fill: string, dashed = false): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('width', '14');
  svg.setAttribute('height', '14');
  svg.setAttribute('aria-hidden', 'true');
  const rect = document.createElementNS(SVG_NS, 'rect');
  rect.setAttribute('width', '13');
  rect.setAttribute('height', '13');
  rect.setAttribute('x', '0.5');
  rect.setAttribute('y', '0.5');
  rect.setAttribute('fill', fill);
  if (fill.startsWith('url(')) rect.setAttribute('stroke', '#94a3b8');
  if (dashed) rect.setAttribute('stroke-dasharray', '3 2');
  svg.append(rect);
  return svg;
}

/** Renders the legend for these compilers (with their colours) into `root`. */
export function renderLegend(root: HTMLElement, compilers: readonly string[], colorOf: (c: string) => string): void {
  const entry = (icon: Node, text: string) => h('li', { class: 'flex items-center gap-1' }, icon, text);
  const missing: MissingStatus[] = ['build_failed', 'unsupported', 'not_collected'];
  root.replaceChildren(
    h('ul', { class: 'flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-700', attrs: { 'aria-label': 'Legend' } },
      ...compilers.map((c) => entry(swatch(colorOf(c)), c)),
      entry(h('span', { class: 'text-sm', attrs: { 'aria-hidden': 'true' } }, '★'), 'fastest configuration'),
      ...missing.map((s) => entry(swatch(`url(#${MISSING_STYLE[s].pattern})`, s === 'not_collected'), s === 'build_failed' ? 'build, server or test failed' : MISSING_STYLE[s].label)),
    ),
  );
}
