/**
 * A bar chart of requests/second: one bar per item, optionally in groups (a drilldown's
 * compilers). Bars without a figure are drawn as patterned full-height columns naming why, never
 * as short bars. Every bar is a keyboard button (one tab stop per chart, arrow keys move).
 * It only draws: it never queries data or touches the URL.
 */
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleBand, scaleLinear } from 'd3-scale';
import { select, type Selection } from 'd3-selection';
import { axisDomain, type AxisView, type Domain } from '../model/domain';
import type { Bar } from '../vocabulary';
import { ensurePatterns, MISSING_STYLE, textureFor } from './palette';
import { svgElement } from './svg';
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

/** Widest drawing, in SVG units; a narrower container (a phone) gets a narrower drawing, not smaller text. */
const WIDTH = 560;
const MIN_WIDTH = 280;
const HEIGHT = 280;
const MARGIN = { top: 18, right: 8, bottom: 34, left: 48 };
const GROUP_LABEL_SPACE = 16;
/** Narrower slots than this (SVG units) leave grouped bars without tick labels: the groups name them. */
const MIN_LABEL_STEP = 12;
/** Rough width of one character of the 12-unit group labels, to keep them from overlapping. */
const GROUP_CHAR_WIDTH = 7.5;
const MIN_BAR_PX = 2;
/** The height a bar needs to hold "⚠ busy" written up its inside. */
const BUSY_LABEL_PX = 50;
const TICKS = 5;

/** Draws `bars` into `el` (emptied first). */
export function barChart(el: HTMLElement, bars: readonly Bar[], options: BarChartOptions): BarChart {
  ensurePatterns(el.ownerDocument);
  // The drawing is as wide as its container up to WIDTH, so text keeps its size on small screens.
  let width = WIDTH;
  const svg = select(svgElement(el.ownerDocument, 'svg'))
    .attr('class', 'block h-auto w-full select-none overflow-visible')
    .attr('role', 'group');
  el.replaceChildren(svg.node() as SVGSVGElement);
  const yAxis = svg.append('g').attr('class', 'y-axis text-slate-600');
  const plot = svg.append('g').attr('class', 'bars');
  const xAxis = svg.append('g').attr('class', 'x-axis text-slate-700');
  const groups = svg.append('g').attr('class', 'group-labels');

  let current = bars;
  let opts = options;
  let domain: Domain | null = null;
  let focusKey: string | null = null;

  const barNodes = () => plot.selectAll<SVGGElement, Bar>('g.bar');

  function draw(): void {
    const grouped = current.some((b) => b.group !== '');
    const groupNames = [...new Set(current.map((b) => b.group))];
    // One band scale over the bars, with an empty slot between groups, so one d3 axis serves both views.
    const slots = current.flatMap((b, i) => (i > 0 && current[i - 1]?.group !== b.group ? [`gap:${i}`, b.key] : [b.key]));
    const x = scaleBand<string>().domain(slots).range([MARGIN.left, width - MARGIN.right]).padding(0.18);
    const bandwidth = x.bandwidth();
    const xOf = (b: Bar) => x(b.key) ?? 0;
    const slotPad = (x.step() - bandwidth) / 2;

    // Tick labels: level when they fit, else slanted; vertical when even slanted ones would reach
    // over two neighbours (a drilldown on a phone), with the drawing made taller to hold them.
    // Grouped bars too narrow for any label (every release of every line) leave it to the groups.
    const unlabelled = grouped && x.step() < MIN_LABEL_STEP;
    const longest = unlabelled ? 0 : Math.max(0, ...current.map((b) => b.label.length * 6.2));
    const rotate = longest > bandwidth;
    const vertical = rotate && longest * Math.cos(Math.PI / 6) > 2 * x.step();
    const extra = vertical ? Math.max(0, Math.ceil(longest + 10 - MARGIN.bottom)) : 0;
    const height = HEIGHT + extra;
    const innerH = HEIGHT - MARGIN.top - MARGIN.bottom - (grouped ? GROUP_LABEL_SPACE : 0);
    svg.attr('aria-label', opts.label).attr('viewBox', `0 0 ${width} ${height}`);

    // A cost's worst repeat lies above its bar: the axis reaches its whisker's end.
    domain = axisDomain(current.flatMap((b) => (b.value === null ? [] : b.low != null && b.low > b.value ? [b.value, b.low] : [b.value])), opts.view);
    const y = scaleLinear()
      .domain(domain ?? [0, 1])
      .range([MARGIN.top + innerH, MARGIN.top])
      .clamp(true);
    svg.attr('data-domain', domain ? domain.join(',') : '');

    yAxis
      .attr('transform', `translate(${MARGIN.left},0)`)
      .call(axisLeft(y).ticks(TICKS).tickFormat(y.tickFormat(TICKS, '~s')).tickSizeOuter(0))
      // Gridlines: clones of the tick lines, made afresh each draw (ticks that stay would pile them up).
      .call((g) => g.selectAll('.gridline').remove())
      .call((g) => g.selectAll('.tick line').clone().attr('x2', width - MARGIN.left - MARGIN.right).attr('class', 'gridline').attr('stroke-opacity', 0.12))
      .attr('visibility', domain ? 'visible' : 'hidden');

    const labelByKey = new Map(current.map((b) => [b.key, b.label]));
    xAxis
      .attr('transform', `translate(0,${MARGIN.top + innerH})`)
      .call(axisBottom(x).tickValues(unlabelled ? [] : current.map((b) => b.key)).tickSize(0).tickFormat((k) => labelByKey.get(k) ?? k))
      .call((g) => g.select('.domain').remove())
      .call((g) =>
        g.selectAll('.tick text')
          .attr('transform', vertical ? 'rotate(-90)' : rotate ? 'rotate(-30)' : null)
          .attr('text-anchor', rotate ? 'end' : 'middle')
          .attr('x', vertical ? -6 : null)
          .attr('y', vertical ? 0 : 3)
          .attr('dy', vertical ? '0.32em' : rotate ? '0.9em' : '1.1em'),
      );

    const groupCenter = (g: string) => {
      const members = current.filter((b) => b.group === g);
      return members.reduce((sum, b) => sum + xOf(b) + bandwidth / 2, 0) / members.length;
    };
    // Group labels that would overlap the one before are left out (two releases of a line are ~7 units wide).
    let lastEnd = -Infinity;
    const shownGroups = (grouped ? groupNames : []).filter((g) => {
      const half = (g.length * GROUP_CHAR_WIDTH) / 2;
      if (groupCenter(g) - half < lastEnd + 4) return false;
      lastEnd = groupCenter(g) + half;
      return true;
    });
    const act = opts.onGroup;
    groups
      .selectAll<SVGTextElement, string>('text')
      .data(shownGroups)
      .join('text')
      .attr('x', groupCenter)
      .attr('y', height - 4)
      .attr('text-anchor', 'middle')
      .attr('class', `fill-slate-700 text-[12px] font-semibold${act ? ' cursor-pointer underline decoration-dotted' : ''}`)
      .attr('role', act ? 'button' : null)
      .attr('tabindex', act ? 0 : null)
      .attr('aria-label', (g) => (act ? (opts.groupAction?.(g) ?? g) : null))
      .attr('data-group', (g) => g)
      .on('click', (_event: MouseEvent, g: string) => opts.onGroup?.(g))
      .on('keydown', (event: KeyboardEvent, g: string) => {
        if (!opts.onGroup || (event.key !== 'Enter' && event.key !== ' ')) return;
        event.preventDefault();
        opts.onGroup(g);
      })
      .text((g) => g);

    const base = MARGIN.top + innerH;
    barNodes()
      .data(current, (b) => b.key)
      .join((enter) => {
        const g = enter.append('g').attr('class', 'bar cursor-pointer outline-none').attr('role', 'button');
        g.append('rect').attr('class', 'hit').attr('fill', 'transparent');
        g.append('rect').attr('class', 'shape');
        g.append('rect').attr('class', 'texture');
        g.append('text').attr('class', 'status-label');
        g.append('line').attr('class', 'whisker');
        g.append('text').attr('class', 'winner-mark');
        return g;
      })
      .attr('tabindex', (b) => (b.key === (focusKey ?? current[0]?.key) ? 0 : -1))
      .attr('aria-label', (b) => b.ariaLabel)
      .attr('data-key', (b) => b.key)
      .attr('data-status', (b) => b.status)
      .attr('data-value', (b) => (b.value === null ? '' : String(b.value)))
      .attr('data-winner', (b) => (b.winner ? 'true' : null))
      .attr('data-noise', (b) => b.noise ?? null)
      .attr('data-change', (b) => b.change ?? null)
      .attr('data-busy', (b) => (b.busy ? 'true' : null))
      .attr('data-low', (b) => (b.low === undefined || b.low === null ? null : String(b.low)))
      .each(function (b) {
        const g = select(this);
        const x = xOf(b);
        // The target to point at or tap is the bar's whole slot, padding included.
        g.select('rect.hit').attr('x', x - slotPad).attr('y', MARGIN.top).attr('width', bandwidth + 2 * slotPad).attr('height', innerH);
        const shape = g.select('rect.shape').attr('x', x).attr('width', bandwidth);
        const missing = b.status === 'ok' ? null : MISSING_STYLE[b.status];
        if (b.value !== null) {
          const top = Math.min(y(b.value), base - MIN_BAR_PX);
          shape.attr('y', top).attr('height', base - top).attr('fill', b.color)
            .attr('stroke', b.winner ? '#111827' : 'none').attr('stroke-width', b.winner ? 2 : 0)
            .attr('stroke-dasharray', null).attr('class', 'shape');
        } else {
          shape.attr('y', MARGIN.top).attr('height', innerH).attr('fill', `url(#${missing?.pattern ?? 'pattern-pending'})`)
            .attr('stroke', '#94a3b8').attr('stroke-width', 1).attr('stroke-dasharray', b.status === 'not_collected' ? '4 3' : null)
            .attr('class', 'shape missing');
        }
        const texture = b.value === null ? null : textureFor(b.color);
        g.select('rect.texture')
          .attr('display', texture ? null : 'none')
          .attr('fill', texture ? `url(#${texture})` : null)
          .attr('x', x).attr('width', bandwidth)
          .attr('y', shape.attr('y')).attr('height', shape.attr('height'));
        // "⚠ busy" fits inside a bar of BUSY_LABEL_PX or more; a shorter bar carries ⚠ in its mark above.
        const busyInside = b.busy === true && b.value !== null && base - Math.min(y(b.value), base - MIN_BAR_PX) >= BUSY_LABEL_PX;
        g.select('text.status-label')
          .text(missing ? missing.label : busyInside ? '⚠ busy' : '')
          .attr('transform', `translate(${x + bandwidth / 2},${base - 6}) rotate(-90)`)
          .attr('dy', '0.35em')
          .attr('class', `status-label ${missing ? 'fill-slate-600' : 'fill-white font-semibold'} text-[11px]`);
        // The spread of the repeats: a whisker from the worst repeat to the bar's top (the best).
        const whisker = b.value !== null && b.low !== undefined && b.low !== null && b.low !== b.value;
        const top = b.value === null ? MARGIN.top : Math.min(y(b.value), base - MIN_BAR_PX);
        g.select('line.whisker')
          .attr('display', whisker ? null : 'none')
          .attr('x1', x + bandwidth / 2).attr('x2', x + bandwidth / 2)
          .attr('y1', whisker ? y(b.low ?? 0) : 0).attr('y2', whisker ? top : 0)
          .attr('class', 'whisker stroke-slate-900')
          .attr('stroke-width', 1.5)
          .attr('stroke-linecap', 'square');
        // One mark above the bar: ★ the winner, ≈ a tie within noise, ▲/▼ a change beyond noise.
        const arrow = b.change ? (b.changeMark ?? (b.change === 'faster' ? '▲' : '▼')) : '';
        const glyph = b.noise === 'tie' ? '≈' : b.noise === 'unknown' ? '?' : b.winner ? '★' : arrow;
        const mark = b.busy && !busyInside ? `${glyph}⚠` : glyph;
        const tone = arrow && glyph === arrow ? (b.change === 'faster' ? 'fill-[#0072B2]' : 'fill-[#D55E00]') : 'fill-slate-900';
        g.select('text.winner-mark')
          .text(mark)
          .attr('x', x + bandwidth / 2)
          .attr('y', (whisker ? Math.min(top, y(b.low ?? 0)) : top) - 4)
          .attr('text-anchor', 'middle')
          .attr('class', `winner-mark ${tone} text-[13px]`);
      });
  }

  function moveFocus(from: Bar, step: number | 'first' | 'last'): void {
    const i = current.findIndex((b) => b.key === from.key);
    const next = step === 'first' ? 0 : step === 'last' ? current.length - 1 : Math.max(0, Math.min(current.length - 1, i + step));
    const bar = current[next];
    if (bar) api.focusBar(bar.key);
  }

  plot
    .on('click', (event: MouseEvent) => {
      const bar = barFrom(event.target);
      if (bar) opts.onActivate?.(bar);
    })
    .on('keydown', (event: KeyboardEvent) => {
      const bar = barFrom(event.target);
      if (!bar) return;
      const keys: Record<string, () => void> = {
        Enter: () => opts.onActivate?.(bar),
        ' ': () => opts.onActivate?.(bar),
        ArrowRight: () => moveFocus(bar, 1),
        ArrowDown: () => moveFocus(bar, 1),
        ArrowLeft: () => moveFocus(bar, -1),
        ArrowUp: () => moveFocus(bar, -1),
        Home: () => moveFocus(bar, 'first'),
        End: () => moveFocus(bar, 'last'),
        Escape: () => opts.onEscape?.(),
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
      if (event.type === 'focusin') focusKey = bar.key;
      showTooltip(node, bar.tooltip);
    })
    .on('pointerout focusout', hideTooltip);

  function barFrom(target: EventTarget | null): Bar | undefined {
    const node = (target as Element | null)?.closest?.('g.bar');
    return node ? (select(node as SVGGElement).datum() as Bar) : undefined;
  }

  // Phones: redraw at the container's width (in 10-unit steps); hidden charts (width 0) keep theirs.
  const resized = new ResizeObserver(([entry]) => {
    const available = Math.round((entry?.contentRect.width ?? 0) / 10) * 10;
    const next = Math.max(MIN_WIDTH, Math.min(WIDTH, available));
    if (available > 0 && next !== width) {
      width = next;
      draw();
    }
  });
  resized.observe(el);

  const api: BarChart = {
    update(nextBars, nextOptions) {
      current = nextBars;
      opts = nextOptions;
      if (focusKey !== null && !current.some((b) => b.key === focusKey)) focusKey = null;
      draw();
    },
    focusBar(key) {
      const target = key ?? current[0]?.key;
      if (target === undefined) return;
      focusKey = target;
      barNodes().attr('tabindex', (b) => (b.key === target ? 0 : -1));
      barNodes().filter((b) => b.key === target).node()?.focus();
    },
    domain: () => domain,
    destroy() {
      resized.disconnect();
      hideTooltip();
      (svg as Selection<SVGSVGElement, unknown, null, undefined>).remove();
    },
  };
  draw();
  return api;
}
