/**
 * A bar chart of requests/second: one bar per item, optionally in groups (a drilldown's
 * compilers). Bars without a figure are drawn as patterned full-height columns naming why, never
 * as short bars. Every bar is a keyboard button (one tab stop per chart, arrow keys move).
 * It only draws: it never queries data or touches the URL.
 */
import { axisBottom, axisLeft } from 'd3-axis';
import type { ScaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import type { AxisView, Domain } from '../model/domain';
import { tickSpecifier } from '../model/format';
import type { Bar } from '../vocabulary';
import {
  barLayout, type BarLayout, barMark, barTop, barX, busyInside, groupLabels, MARGIN, MIN_WIDTH, unstableInside, valueAxis, WIDTH,
} from './barLayout';
import { ensurePatterns, MISSING_STYLE, textureFor } from './palette';
import { type AxesParts, type Part, svgElement } from './svg';
import { hideTooltip, showTooltip } from './tooltip';

/** How to draw, and what to call back. */
export interface BarChartOptions {
  readonly view: AxisView;
  /** Accessible name of the chart's bar group. */
  readonly label: string;
  /** A bar was clicked, or pressed with Enter or Space. */
  readonly onActivate?: (bar: Bar) => void;
  /** Escape was pressed on a bar. */
  readonly onEscape?: () => void;
  /**
   * A group's label was clicked, or pressed with Enter or Space: with it, group labels are
   * buttons named by `groupAction` (e.g. "Show the 2.6 releases").
   */
  readonly onGroup?: (group: string) => void;
  readonly groupAction?: (group: string) => string;
}

/** A drawn chart. */
export interface BarChart {
  /** Redraws with new bars and options. */
  update(bars: readonly Bar[], options: BarChartOptions): void;
  /** Moves keyboard focus to the bar with this key (or the first bar). */
  focusBar(key?: string): void;
  /** The value-axis range drawn, or null when no bar has a figure. */
  domain(): Domain | null;
  /** Removes the chart and its listeners. */
  destroy(): void;
}

const TICKS = 5;

/** What a chart holds between draws. */
interface ChartState {
  bars: readonly Bar[];
  options: BarChartOptions;
  /** The drawing's width: as wide as its container up to WIDTH, so text keeps its size on small screens. */
  width: number;
  domain: Domain | null;
  /** The bar that takes the chart's one tab stop (null: the first). */
  focusKey: string | null;
}

/** The chart's parts, made once. */
interface ChartParts extends AxesParts {
  readonly groups: Part<SVGGElement>;
}

/** Draws `bars` into `el` (emptied first). */
export function barChart(el: HTMLElement, bars: readonly Bar[], options: BarChartOptions): BarChart {
  ensurePatterns(el.ownerDocument);
  const parts = chartParts(el);
  const state: ChartState = { bars, options, width: WIDTH, domain: null, focusKey: null };
  const barNodes = () => parts.plot.selectAll<SVGGElement, Bar>('g.bar');
  const draw = () => {
    state.domain = drawChart(parts, state);
  };
  const api: BarChart = {
    update(nextBars, nextOptions) {
      state.bars = nextBars;
      state.options = nextOptions;
      if (state.focusKey !== null && !state.bars.some((b) => b.key === state.focusKey)) state.focusKey = null;
      draw();
    },
    focusBar(key) {
      const target = key ?? state.bars[0]?.key;
      if (target === undefined) return;
      state.focusKey = target;
      barNodes().attr('tabindex', (b) => (b.key === target ? 0 : -1));
      // The bar is in a chart on screen (the one acted on): scrolling it into view would only
      // make the browser lay out the whole page first.
      barNodes().filter((b) => b.key === target).node()?.focus({ preventScroll: true });
    },
    domain: () => state.domain,
    destroy() {
      resized.disconnect();
      hideTooltip();
      parts.svg.remove();
    },
  };
  listen(parts.plot, state, api);
  const resized = watchWidth(el, state, draw);
  draw();
  return api;
}

/** An empty drawing in `el`: the axes, the bars and the group labels, each a group of its own. */
function chartParts(el: HTMLElement): ChartParts {
  const svg = select(svgElement(el.ownerDocument, 'svg'))
    .attr('class', 'block h-auto w-full select-none overflow-visible')
    .attr('role', 'group');
  el.replaceChildren(svg.node() as SVGSVGElement);
  return {
    svg,
    yAxis: svg.append('g').attr('class', 'y-axis text-slate-600'),
    plot: svg.append('g').attr('class', 'bars'),
    xAxis: svg.append('g').attr('class', 'x-axis text-slate-700'),
    groups: svg.append('g').attr('class', 'group-labels'),
  };
}

/** Draws the state's bars at its width; returns the value axis's domain. */
function drawChart(parts: ChartParts, state: ChartState): Domain | null {
  const { bars, options, width } = state;
  const layout = barLayout(bars, width);
  parts.svg.attr('aria-label', options.label).attr('viewBox', `0 0 ${width} ${layout.height}`);
  const { domain, y } = valueAxis(bars, options.view, layout);
  parts.svg.attr('data-domain', domain ? domain.join(',') : '');
  drawValueAxis(parts.yAxis, y, domain !== null, width);
  drawTickLabels(parts.xAxis, bars, layout);
  drawGroupLabels(parts.groups, bars, layout, options);
  drawBars(parts.plot, bars, layout, y, state.focusKey);
  return domain;
}

function drawValueAxis(g: Part<SVGGElement>, y: ScaleLinear<number, number>, visible: boolean, width: number): void {
  g.attr('transform', `translate(${MARGIN.left},0)`)
    .call(axisLeft(y).ticks(TICKS).tickFormat(y.tickFormat(TICKS, tickSpecifier(y.domain()[1] ?? 0))).tickSizeOuter(0))
    // Gridlines: clones of the tick lines, made afresh each draw (ticks that stay would pile them up).
    .call((axis) => axis.selectAll('.gridline').remove())
    .call((axis) => axis.selectAll('.tick line').clone().attr('x2', width - MARGIN.left - MARGIN.right).attr('class', 'gridline').attr('stroke-opacity', 0.12))
    .attr('visibility', visible ? 'visible' : 'hidden');
}

function drawTickLabels(g: Part<SVGGElement>, bars: readonly Bar[], layout: BarLayout): void {
  const { rotate, vertical } = layout;
  const labelByKey = new Map(bars.map((b) => [b.key, b.label]));
  g.attr('transform', `translate(0,${layout.base})`)
    .call(axisBottom(layout.x).tickValues(layout.unlabelled ? [] : bars.map((b) => b.key)).tickSize(0).tickFormat((k) => labelByKey.get(k) ?? k))
    .call((axis) => axis.select('.domain').remove())
    .call((axis) =>
      axis.selectAll('.tick text')
        .attr('transform', vertical ? 'rotate(-90)' : rotate ? 'rotate(-30)' : null)
        .attr('text-anchor', rotate ? 'end' : 'middle')
        .attr('x', vertical ? -6 : null)
        .attr('y', vertical ? 0 : 3)
        .attr('dy', vertical ? '0.32em' : rotate ? '0.9em' : '1.1em'),
    );
}

/** The group labels under the ticks: buttons when the options have onGroup. */
function drawGroupLabels(g: Part<SVGGElement>, bars: readonly Bar[], layout: BarLayout, options: BarChartOptions): void {
  const act = options.onGroup;
  g.selectAll<SVGTextElement, { name: string; center: number }>('text')
    .data(groupLabels(bars, layout))
    .join('text')
    .attr('x', (d) => d.center)
    .attr('y', layout.height - 4)
    .attr('text-anchor', 'middle')
    .attr('class', `fill-slate-700 text-[12px] font-semibold${act ? ' cursor-pointer underline decoration-dotted' : ''}`)
    .attr('role', act ? 'button' : null)
    .attr('tabindex', act ? 0 : null)
    .attr('aria-label', (d) => (act ? (options.groupAction?.(d.name) ?? d.name) : null))
    .attr('data-group', (d) => d.name)
    .on('click', (_event: MouseEvent, d) => options.onGroup?.(d.name))
    .on('keydown', (event: KeyboardEvent, d) => {
      if (!options.onGroup || (event.key !== 'Enter' && event.key !== ' ')) return;
      event.preventDefault();
      options.onGroup(d.name);
    })
    .text((d) => d.name);
}

/** Joins the bars by key: each a button group of a hit area, a shape, and the parts it shows (barPart). */
function drawBars(plot: Part<SVGGElement>, bars: readonly Bar[], layout: BarLayout, y: ScaleLinear<number, number>, focusKey: string | null): void {
  plot.selectAll<SVGGElement, Bar>('g.bar')
    .data(bars, (b) => b.key)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'bar cursor-pointer outline-none').attr('role', 'button');
      g.append('rect').attr('class', 'hit').attr('fill', 'transparent');
      g.append('rect').attr('class', 'shape');
      return g;
    })
    .attr('tabindex', (b) => (b.key === (focusKey ?? bars[0]?.key) ? 0 : -1))
    .attr('aria-label', (b) => b.ariaLabel)
    .attr('data-key', (b) => b.key)
    .attr('data-status', (b) => b.status)
    .attr('data-value', (b) => (b.value === null ? '' : String(b.value)))
    .attr('data-winner', (b) => (b.winner ? 'true' : null))
    .attr('data-noise', (b) => b.noise ?? null)
    .attr('data-change', (b) => b.change ?? null)
    .attr('data-busy', (b) => (b.busy ? 'true' : null))
    .attr('data-unstable', (b) => (b.unstable ? 'true' : null))
    .attr('data-low', (b) => (b.low === undefined || b.low === null ? null : String(b.low)))
    .each(function (b) {
      drawBar(select(this), b, layout, y);
    });
}

/** A bar's optional parts, in drawing order (later ones on top). */
const PARTS = ['texture', 'status-label', 'whisker', 'winner-mark'] as const;

/**
 * The part `name` of a bar: created (in PARTS order) when `shown`, else removed (null). A bar
 * holds only the parts it shows: at every release a page draws thousands of bars.
 */
function barPart(
  g: Part<SVGGElement>, tag: 'rect' | 'text' | 'line', name: (typeof PARTS)[number], shown: boolean,
): Part<SVGElement> | null {
  const found = g.select<SVGElement>(`:scope > .${name}`);
  if (!shown) {
    found.remove();
    return null;
  }
  if (!found.empty()) return found;
  const later = PARTS.slice(PARTS.indexOf(name) + 1).map((m) => `:scope > .${m}`).join(', ');
  return (later ? g.insert<SVGElement>(tag, later) : g.append<SVGElement>(tag)).attr('class', name);
}

/** One bar's parts: drawn at its place, with its figure, or full height and patterned without one. */
function drawBar(g: Part<SVGGElement>, b: Bar, layout: BarLayout, y: ScaleLinear<number, number>): void {
  const { bandwidth, base, innerH } = layout;
  const x = barX(layout, b);
  // The target to point at or tap is the bar's whole slot, padding included.
  g.select('rect.hit').attr('x', x - layout.slotPad).attr('y', MARGIN.top).attr('width', bandwidth + 2 * layout.slotPad).attr('height', innerH);
  const shape = g.select('rect.shape').attr('x', x).attr('width', bandwidth);
  const missing = b.status === 'ok' ? null : MISSING_STYLE[b.status];
  const top = b.value === null ? MARGIN.top : barTop(b.value, y, layout);
  if (b.value !== null) {
    shape.attr('y', top).attr('height', base - top).attr('fill', b.color)
      // Bars within noise of the best are one group, outlined alike: no star, no bar above the others.
      .attr('stroke', b.noise === 'tie' ? '#475569' : b.winner ? '#111827' : 'none').attr('stroke-width', b.noise === 'tie' ? 1.5 : b.winner ? 2 : 0)
      .attr('stroke-dasharray', b.noise === 'tie' ? '3 2' : null).attr('class', 'shape');
  } else {
    shape.attr('y', MARGIN.top).attr('height', innerH).attr('fill', `url(#${missing?.pattern ?? 'pattern-pending'})`)
      .attr('stroke', '#94a3b8').attr('stroke-width', 1).attr('stroke-dasharray', b.status === 'not_collected' ? '4 3' : null)
      .attr('class', 'shape missing');
  }
  const texture = b.value === null ? null : textureFor(b.color);
  barPart(g, 'rect', 'texture', texture !== null)
    ?.attr('fill', `url(#${texture})`)
    .attr('x', x).attr('width', bandwidth)
    .attr('y', shape.attr('y')).attr('height', shape.attr('height'));
  const busy = busyInside(b, y, layout);
  const unstable = unstableInside(b, y, layout);
  const label = missing ? b.missingLabel ?? missing.label : busy ? '⚠ busy' : unstable ? '⚠ unstable' : '';
  barPart(g, 'text', 'status-label', label !== '')
    ?.text(label)
    .attr('transform', `translate(${x + bandwidth / 2},${base - 6}) rotate(-90)`)
    .attr('dy', '0.35em')
    .attr('class', `status-label ${missing ? 'fill-slate-600' : 'fill-white font-semibold'} text-[11px]`);
  // The spread of the repeats: a whisker from the worst repeat to the bar's top (the best).
  const whisker = b.value !== null && b.low !== undefined && b.low !== null && b.low !== b.value;
  barPart(g, 'line', 'whisker', whisker)
    ?.attr('x1', x + bandwidth / 2).attr('x2', x + bandwidth / 2)
    .attr('y1', y(b.low ?? 0)).attr('y2', top)
    .attr('class', 'whisker stroke-slate-900')
    .attr('stroke-width', 1.5)
    .attr('stroke-linecap', 'square');
  const mark = barMark(b, busy, unstable);
  barPart(g, 'text', 'winner-mark', mark.text !== '')
    ?.text(mark.text)
    .attr('x', x + bandwidth / 2)
    .attr('y', (whisker ? Math.min(top, y(b.low ?? 0)) : top) - 4)
    .attr('text-anchor', 'middle')
    .attr('class', `winner-mark ${mark.tone} text-[13px]`);
}

/** The bar an event happened on, if any. */
function barFrom(target: EventTarget | null): Bar | undefined {
  const node = (target as Element | null)?.closest?.('g.bar');
  return node ? (select(node as SVGGElement).datum() as Bar) : undefined;
}

/**
 * The bars' events, delegated to the plot: a click, Enter or Space activates a bar, arrow keys,
 * Home and End move the focus, Escape calls back; pointing or focusing shows the bar's tooltip.
 * The options are read when an event happens, so an update needs no new listeners.
 */
function listen(plot: Part<SVGGElement>, state: ChartState, chart: Pick<BarChart, 'focusBar'>): void {
  const moveFocus = (from: Bar, step: number | 'first' | 'last') => {
    const { bars } = state;
    const i = bars.findIndex((b) => b.key === from.key);
    const next = step === 'first' ? 0 : step === 'last' ? bars.length - 1 : Math.max(0, Math.min(bars.length - 1, i + step));
    const bar = bars[next];
    if (bar) chart.focusBar(bar.key);
  };
  plot
    .on('click', (event: MouseEvent) => {
      const bar = barFrom(event.target);
      if (bar) state.options.onActivate?.(bar);
    })
    .on('keydown', (event: KeyboardEvent) => {
      const bar = barFrom(event.target);
      if (!bar) return;
      const keys: Record<string, () => void> = {
        Enter: () => state.options.onActivate?.(bar),
        ' ': () => state.options.onActivate?.(bar),
        ArrowRight: () => moveFocus(bar, 1),
        ArrowDown: () => moveFocus(bar, 1),
        ArrowLeft: () => moveFocus(bar, -1),
        ArrowUp: () => moveFocus(bar, -1),
        Home: () => moveFocus(bar, 'first'),
        End: () => moveFocus(bar, 'last'),
        Escape: () => state.options.onEscape?.(),
      };
      const action = keys[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    })
    .on('pointerover focusin', (event: Event) => {
      const bar = barFrom(event.target);
      const node = (event.target as Element | null)?.closest('g.bar');
      if (!bar || !node) return;
      if (event.type === 'focusin') state.focusKey = bar.key;
      showTooltip(node, bar.tooltip);
    })
    .on('pointerout focusout', hideTooltip);
}

/** Phones: redraws at the container's width (in 10-unit steps); hidden charts (width 0) keep theirs. */
function watchWidth(el: HTMLElement, state: ChartState, draw: () => void): ResizeObserver {
  const resized = new ResizeObserver(([entry]) => {
    const available = Math.round((entry?.contentRect.width ?? 0) / 10) * 10;
    const next = Math.max(MIN_WIDTH, Math.min(WIDTH, available));
    if (available > 0 && next !== state.width) {
      state.width = next;
      draw();
    }
  });
  resized.observe(el);
  return resized;
}
