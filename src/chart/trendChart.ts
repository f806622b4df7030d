/**
 * One small-multiple panel of the trends section: a flag set's configurations across releases,
 * a line per compiler (coloured as in the bar charts; later compilers dashed) with a dot per
 * measured release. A release without a figure breaks the line and gets a hollow mark on the
 * panel's floor, never a point at zero. Panels share the value axis range they are given. It
 * only draws.
 */
import { axisBottom, axisLeft } from 'd3-axis';
import { type ScaleLinear, scaleLinear, type ScalePoint, scalePoint } from 'd3-scale';
import { select } from 'd3-selection';
import { line } from 'd3-shape';
import type { Domain } from '../model/domain';
import { tickSpecifier } from '../model/format';
import type { TrendPanel, TrendPoint, TrendSeries } from '../model/trends';
import { minorLine } from '../model/versions';
import { type AxesParts, type Part, svgElement } from './svg';
import { hideTooltip, showTooltip } from './tooltip';

/** What a panel is drawn against. */
export interface TrendChartOptions {
  /** The versions shown, in release order (the x axis). */
  readonly versions: readonly string[];
  /** The value axis range shared by the panels, or null when nothing is measured. */
  readonly domain: Domain | null;
  /** Accessible name of the panel. */
  readonly label: string;
}

/** A drawn panel. */
export interface TrendChart {
  update(panel: TrendPanel, options: TrendChartOptions): void;
  destroy(): void;
}

const WIDTH = 380;
const HEIGHT = 230;
const MARGIN = { top: 22, right: 10, bottom: 40, left: 46 };
const TICKS = 4;
/** Height of the floor strip holding the marks of releases without a figure. */
const FLOOR = 10;
/** The least distance between two labelled releases, in viewBox units (the labels are rotated). */
const MIN_LABEL_STEP = 12;

/**
 * The releases the x axis labels, and how: every release when there is room; else the first
 * release of each minor line, labelled with the line ("6.2"), skipping a line too close to the
 * last one labelled.
 */
export function trendTicks(versions: readonly string[], step: number): { values: string[]; format: (v: string) => string } {
  if (step >= MIN_LABEL_STEP) return { values: [...versions], format: (v) => v };
  const values: string[] = [];
  let last = -Infinity;
  versions.forEach((v, i) => {
    if (i > 0 && minorLine(v) === minorLine(versions[i - 1] ?? '')) return;
    if ((i - last) * step < MIN_LABEL_STEP) return;
    values.push(v);
    last = i;
  });
  return { values, format: minorLine };
}

/** The panel's parts that draw() fills. */
interface Parts extends AxesParts {
  readonly title: Part<SVGTextElement>;
}

/** The bottom of the plot: the floor strip of releases without a figure lies above it. */
const FLOOR_Y = HEIGHT - MARGIN.bottom;

/** Draws the value axis (with gridlines; hidden without a domain) and the release axis. */
function drawAxes(parts: Parts, x: ScalePoint<string>, y: ScaleLinear<number, number>, opts: TrendChartOptions): void {
  parts.yAxis
    .attr('transform', `translate(${MARGIN.left},0)`)
    .call(axisLeft(y).ticks(TICKS).tickFormat(y.tickFormat(TICKS, tickSpecifier(y.domain()[1] ?? 0))).tickSizeOuter(0))
    .call((g) => g.selectAll('.gridline').remove())
    .call((g) => g.selectAll('.tick line').clone().attr('x2', WIDTH - MARGIN.left - MARGIN.right).attr('class', 'gridline').attr('stroke-opacity', 0.12))
    .attr('visibility', opts.domain ? 'visible' : 'hidden');
  const ticks = trendTicks(opts.versions, x.step());
  parts.xAxis
    .attr('transform', `translate(0,${FLOOR_Y})`)
    .attr('data-labels', ticks.format === minorLine ? 'minor-lines' : 'releases')
    .call(axisBottom(x).tickValues(ticks.values).tickFormat(ticks.format).tickSizeOuter(0))
    .call((g) => g.selectAll('.tick text').attr('transform', 'rotate(-40)').attr('text-anchor', 'end').attr('dx', '-0.3em').attr('dy', '0.6em'));
}

/**
 * Draws one series' points: a dot per measured release (ringed when the machine was busy), a
 * hollow mark on the floor for a release without a figure, moved sideways by `offset` so the
 * floor marks of different series do not hide each other.
 */
function drawPoints(
  points: Part<SVGGElement>, s: TrendSeries, x: ScalePoint<string>, y: ScaleLinear<number, number>, offset: number,
): void {
  points.selectAll<SVGGElement, TrendPoint>('g.point')
    .data(s.points, (p) => p.version)
    .join((enter) => {
      const p = enter.append('g').attr('class', 'point');
      p.append('circle');
      return p;
    })
    .attr('data-version', (p) => p.version)
    .attr('data-status', (p) => p.status)
    .attr('data-value', (p) => (p.value === null ? '' : String(p.value)))
    .attr('data-busy', (p) => (p.busy ? 'true' : null))
    .each(function (p) {
      const measured = p.value !== null;
      select(this).select('circle')
        .attr('cx', (x(p.version) ?? 0) + (measured ? 0 : offset))
        .attr('cy', measured ? y(p.value ?? 0) : FLOOR_Y - FLOOR / 2)
        .attr('r', measured ? 3.5 : 3)
        // A hollow mark answers the pointer over its inside too, not only on its dotted rim.
        .attr('pointer-events', 'all')
        .attr('fill', measured ? s.color : 'none')
        // A busy ring in the theme's text colour, so it shows on light and dark cards alike.
        .attr('stroke', measured ? (p.busy ? null : 'none') : s.color)
        .attr('class', measured && p.busy ? 'stroke-slate-900' : null)
        .attr('stroke-width', 1.5)
        .attr('stroke-dasharray', measured ? null : '1.5 1.5');
    });
}

/** Draws a panel's series: a line per compiler, broken where a release has no figure, and its points. */
function drawSeries(parts: Parts, data: TrendPanel, x: ScalePoint<string>, y: ScaleLinear<number, number>): void {
  const path = line<TrendPoint>()
    .defined((p) => p.value !== null)
    .x((p) => x(p.version) ?? 0)
    .y((p) => y(p.value ?? 0));
  // Floor marks of different series side by side, so none hides another.
  const spread = (i: number) => (i - (data.series.length - 1) / 2) * 7;
  parts.plot.selectAll<SVGGElement, TrendSeries>('g.trend-series')
    .data(data.series, (s) => s.key)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'trend-series outline-none focus-visible:outline-2 focus-visible:outline-blue-700').attr('role', 'img').attr('tabindex', 0);
      g.append('path').attr('class', 'trend-line').attr('fill', 'none').attr('stroke-width', 2);
      g.append('g').attr('class', 'points');
      return g;
    })
    .attr('aria-label', (s) => s.ariaLabel)
    .attr('data-key', (s) => s.key)
    .each(function (s, i) {
      const g = select(this);
      g.select('path.trend-line').attr('d', path([...s.points])).attr('stroke', s.color).attr('stroke-dasharray', s.dashed ? '6 3' : null);
      drawPoints(g.select<SVGGElement>('g.points'), s, x, y, spread(i));
    });
}

/** Draws `data` into the panel's parts, against `opts`. */
function draw(parts: Parts, data: TrendPanel, opts: TrendChartOptions): void {
  parts.svg.attr('aria-label', opts.label).attr('data-domain', opts.domain ? opts.domain.join(',') : '');
  parts.title.text(data.key);
  const x = scalePoint<string>().domain(opts.versions).range([MARGIN.left, WIDTH - MARGIN.right]).padding(0.4);
  const y = scaleLinear().domain(opts.domain ?? [0, 1]).range([FLOOR_Y - FLOOR, MARGIN.top]).clamp(true);
  drawAxes(parts, x, y, opts);
  drawSeries(parts, data, x, y);
}

/** Draws `panel` into `el` (emptied first). */
export function trendChart(el: HTMLElement, panel: TrendPanel, options: TrendChartOptions): TrendChart {
  const svg = select(svgElement(el.ownerDocument, 'svg'))
    .attr('class', 'block h-auto w-full select-none overflow-visible')
    .attr('role', 'group')
    .attr('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  el.replaceChildren(svg.node() as SVGSVGElement);
  const parts: Parts = {
    svg,
    title: svg.append('text').attr('class', 'panel-title fill-slate-900 text-[13px] font-semibold').attr('x', MARGIN.left).attr('y', 13),
    yAxis: svg.append('g').attr('class', 'y-axis text-slate-600'),
    xAxis: svg.append('g').attr('class', 'x-axis text-slate-700'),
    plot: svg.append('g').attr('class', 'series'),
  };
  parts.plot
    .on('pointerover', (event: Event) => {
      const point = (event.target as Element | null)?.closest('g.point');
      if (point) showTooltip(point, (select(point).datum() as TrendPoint).tooltip);
    })
    .on('focusin', (event: Event) => {
      const series = (event.target as Element | null)?.closest('g.trend-series');
      if (series) showTooltip(series, [(select(series).datum() as TrendSeries).ariaLabel]);
    })
    .on('pointerout focusout', hideTooltip);

  draw(parts, panel, options);
  return {
    update: (data, opts) => draw(parts, data, opts),
    destroy() {
      hideTooltip();
      svg.remove();
    },
  };
}
