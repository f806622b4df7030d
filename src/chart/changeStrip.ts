/**
 * The distribution of per-test changes: one row per configuration, one dot per test at its change
 * against the baseline (blue ▲ faster, orange ▼ slower beyond noise, grey within noise), the
 * geometric mean as a black tick with its noise band shaded around zero (in a precision mode, its
 * 95% interval shaded around the mean), and the mean and the counts written at the right. Rows
 * are focusable and name all of it. It only draws.
 */
import { axisBottom } from 'd3-axis';
import { format } from 'd3-format';
import { type ScaleBand, scaleBand, type ScaleLinear, scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { formatChange, VERDICT_GLYPH } from '../model/changeText';
import type { StripPoint, StripRow, Verdict } from '../vocabulary';
import { type Part, svgElement } from './svg';
import { hideTooltip, showTooltip } from './tooltip';

/** A drawn strip chart. */
export interface ChangeStrip {
  update(rows: readonly StripRow[], label: string): void;
  destroy(): void;
}

const WIDTH = 640;
const ROW_H = 22;
const MARGIN = { top: 6, right: 150, bottom: 28, left: 128 };
/** The axis spans at least ±2%, so tiny changes are not blown up to the full width. */
const MIN_SPAN = 0.02;
const DOT_CLASS: Readonly<Record<Verdict, string>> = {
  faster: 'fill-[#0072B2]',
  slower: 'fill-[#D55E00]',
  tie: 'fill-slate-400',
  unknown: 'fill-none stroke-slate-500',
};

/** The strip chart's parts that draw() fills. */
interface Parts {
  readonly svg: Part<SVGSVGElement>;
  readonly axis: Part<SVGGElement>;
  readonly zero: Part<SVGLineElement>;
  readonly plot: Part<SVGGElement>;
}

/** The x scale: the changes (dots, means and intervals) around zero, symmetric, at least ±MIN_SPAN. */
function changeScale(data: readonly StripRow[]): ScaleLinear<number, number> {
  const changes = data.flatMap((r) => [
    ...r.points.map((p) => p.ratio - 1), ...(r.mean === null ? [] : [r.mean - 1]),
    ...(r.interval?.lo != null && r.interval.hi != null ? [r.interval.lo - 1, r.interval.hi - 1] : []),
  ]);
  const span = Math.max(MIN_SPAN, ...changes.map(Math.abs));
  return scaleLinear().domain([-span, span]).range([MARGIN.left, WIDTH - MARGIN.right]).nice();
}

/** Draws one row's parts: background, noise band (or interval), label, dots, mean tick and note. */
function drawRow(g: Part<SVGGElement>, r: StripRow, x: ScaleLinear<number, number>, y: ScaleBand<string>): void {
  const top = y(r.key) ?? 0;
  const mid = top + y.bandwidth() / 2;
  g.select('rect.row-bg').attr('x', 0).attr('y', top).attr('width', WIDTH).attr('height', y.bandwidth());
  const band = r.band ?? 0;
  const [from, to] = r.interval ? [(r.interval.lo ?? 1) - 1, (r.interval.hi ?? 1) - 1] : [-band, band];
  g.select('rect.band').attr('x', x(from)).attr('width', Math.max(0, x(to) - x(from))).attr('y', top).attr('height', y.bandwidth())
    .attr('data-interval', r.interval?.lo != null && r.interval.hi != null ? `${r.interval.lo} ${r.interval.hi}` : null);
  g.select('text.row-label').attr('x', MARGIN.left - 8).attr('y', mid).text(r.label).classed('font-semibold', r.reference);
  g.select('g.dots').selectAll<SVGCircleElement, StripPoint>('circle')
    .data(r.points, (p) => p.key)
    .join('circle')
    .attr('cx', (p) => x(p.ratio - 1))
    .attr('cy', mid)
    .attr('r', 3.5)
    .attr('fill-opacity', 0.75)
    .attr('class', (p) => `dot ${DOT_CLASS[p.verdict]}`)
    .attr('data-test', (p) => p.key)
    .attr('data-verdict', (p) => p.verdict);
  g.select('line.mean')
    .attr('visibility', r.mean === null ? 'hidden' : 'visible')
    .attr('x1', x((r.mean ?? 1) - 1)).attr('x2', x((r.mean ?? 1) - 1))
    .attr('y1', top).attr('y2', top + y.bandwidth());
  g.select('text.row-note').attr('x', WIDTH - MARGIN.right + 8).attr('y', mid)
    .text(r.mean === null ? 'not compared' : `${r.glyph ?? VERDICT_GLYPH[r.verdict ?? 'unknown']} ${formatChange(r.mean)}  ${r.note}`);
}

/** Draws `data` into the chart's parts; `name` is its accessible name. */
function draw(parts: Parts, data: readonly StripRow[], name: string): void {
  const height = MARGIN.top + data.length * ROW_H + MARGIN.bottom;
  parts.svg.attr('viewBox', `0 0 ${WIDTH} ${height}`).attr('aria-label', name);
  const x = changeScale(data);
  const y = scaleBand<string>().domain(data.map((r) => r.key)).range([MARGIN.top, MARGIN.top + data.length * ROW_H]).padding(0.15);
  const bottom = MARGIN.top + data.length * ROW_H;
  parts.axis.attr('transform', `translate(0,${bottom})`).call(axisBottom(x).ticks(6).tickFormat(format('+.0%')).tickSizeOuter(0));
  parts.zero.attr('x1', x(0)).attr('x2', x(0)).attr('y1', MARGIN.top).attr('y2', bottom);
  parts.plot.selectAll<SVGGElement, StripRow>('g.strip-row')
    .data(data, (r) => r.key)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'strip-row outline-none focus-visible:outline-2 focus-visible:outline-blue-700').attr('role', 'listitem').attr('tabindex', 0);
      g.append('rect').attr('class', 'row-bg fill-transparent');
      g.append('rect').attr('class', 'band fill-slate-200');
      g.append('text').attr('class', 'row-label fill-slate-800 text-[11px]').attr('text-anchor', 'end').attr('dy', '0.35em');
      g.append('g').attr('class', 'dots');
      g.append('line').attr('class', 'mean stroke-slate-900').attr('stroke-width', 3);
      g.append('text').attr('class', 'row-note fill-slate-800 text-[11px]').attr('dy', '0.35em');
      return g;
    })
    .attr('aria-label', (r) => r.ariaLabel)
    .attr('data-key', (r) => r.key)
    .attr('data-verdict', (r) => r.verdict ?? '')
    .attr('data-mean', (r) => (r.mean === null ? '' : String(r.mean)))
    .each(function (r) {
      drawRow(select(this), r, x, y);
    });
}

/** Draws `rows` into `el` (emptied first); `label` is the chart's accessible name. */
export function changeStrip(el: HTMLElement, rows: readonly StripRow[], label: string): ChangeStrip {
  const svg = select(svgElement(el.ownerDocument, 'svg'))
    .attr('class', 'block h-auto w-full select-none overflow-visible')
    .attr('role', 'list');
  el.replaceChildren(svg.node() as SVGSVGElement);
  const parts: Parts = {
    svg,
    axis: svg.append('g').attr('class', 'x-axis text-slate-600'),
    zero: svg.append('line').attr('class', 'stroke-slate-500').attr('stroke-dasharray', '2 2'),
    plot: svg.append('g'),
  };
  parts.plot
    .on('pointerover focusin', (event: Event) => {
      const target = event.target as Element | null;
      const dot = target?.closest('circle.dot');
      const row = target?.closest('g.strip-row');
      if (dot) showTooltip(dot, (select(dot).datum() as StripPoint).tooltip);
      else if (row) showTooltip(row, (select(row).datum() as StripRow).tooltip);
    })
    .on('pointerout focusout', hideTooltip);

  draw(parts, rows, label);
  return {
    update: (data, name) => draw(parts, data, name),
    destroy() {
      hideTooltip();
      svg.remove();
    },
  };
}
