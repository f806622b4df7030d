/**
 * The geometry of a bar chart (barChart.ts), without drawing: where each bar stands, how the tick
 * labels fit, how tall the drawing is, the value axis, which group labels have room, and the
 * mark above each bar. In SVG units.
 */
import { type ScaleBand, scaleBand, type ScaleLinear, scaleLinear } from 'd3-scale';
import { axisDomain, type AxisView, type Domain } from '../model/domain';
import type { Bar } from '../vocabulary';

/** Widest drawing; a narrower container (a phone) gets a narrower drawing, not smaller text. */
export const WIDTH = 560;
export const MIN_WIDTH = 280;
const HEIGHT = 280;
export const MARGIN = { top: 18, right: 8, bottom: 34, left: 48 } as const;
const GROUP_LABEL_SPACE = 16;
/** Narrower slots than this leave grouped bars without tick labels: the groups name them. */
const MIN_LABEL_STEP = 12;
/** Rough width of one character of the tick labels. */
const TICK_CHAR_WIDTH = 6.2;
/** Rough width of one character of the 12-unit group labels, to keep them from overlapping. */
const GROUP_CHAR_WIDTH = 7.5;
const MIN_BAR_PX = 2;
/** The height a bar needs to hold "⚠ busy" written up its inside. */
const BUSY_LABEL_PX = 50;

/** Where the bars stand and how their labels fit, for one set of bars at one width. */
export interface BarLayout {
  /** One band per bar, with an empty slot between groups. */
  readonly x: ScaleBand<string>;
  readonly bandwidth: number;
  /** The padding on each side of a bar within its slot. */
  readonly slotPad: number;
  /** Whether the bars stand in named groups (group labels under the ticks). */
  readonly grouped: boolean;
  /** No tick labels: grouped bars too narrow for any (the groups name them). */
  readonly unlabelled: boolean;
  /** Tick labels slanted (too wide to stand level), or vertical (too wide even slanted). */
  readonly rotate: boolean;
  readonly vertical: boolean;
  /** The drawing's height, taller to hold vertical labels. */
  readonly height: number;
  /** The plot's height, and its bottom (the value axis's zero line). */
  readonly innerH: number;
  readonly base: number;
}

/** The layout of `bars` in a drawing `width` wide. */
export function barLayout(bars: readonly Bar[], width: number): BarLayout {
  const grouped = bars.some((b) => b.group !== '');
  // One band scale over the bars, with an empty slot between groups, so one d3 axis serves both views.
  const slots = bars.flatMap((b, i) => (i > 0 && bars[i - 1]?.group !== b.group ? [`gap:${i}`, b.key] : [b.key]));
  const x = scaleBand<string>().domain(slots).range([MARGIN.left, width - MARGIN.right]).padding(0.18);
  const bandwidth = x.bandwidth();
  // Tick labels: level when they fit, else slanted; vertical when even slanted ones would reach
  // over two neighbours (a drilldown on a phone), with the drawing made taller to hold them.
  // Grouped bars too narrow for any label (every release of every line) leave it to the groups.
  const unlabelled = grouped && x.step() < MIN_LABEL_STEP;
  const longest = unlabelled ? 0 : Math.max(0, ...bars.map((b) => b.label.length * TICK_CHAR_WIDTH));
  const rotate = longest > bandwidth;
  const vertical = rotate && longest * Math.cos(Math.PI / 6) > 2 * x.step();
  const extra = vertical ? Math.max(0, Math.ceil(longest + 10 - MARGIN.bottom)) : 0;
  const innerH = HEIGHT - MARGIN.top - MARGIN.bottom - (grouped ? GROUP_LABEL_SPACE : 0);
  return {
    x, bandwidth, slotPad: (x.step() - bandwidth) / 2, grouped, unlabelled, rotate, vertical,
    height: HEIGHT + extra, innerH, base: MARGIN.top + innerH,
  };
}

/** A bar's left edge. */
export function barX(layout: BarLayout, bar: Bar): number {
  return layout.x(bar.key) ?? 0;
}

/**
 * The value axis: the domain of the bars' figures in `view` (null when no bar has one) and its
 * scale onto the plot. A cost's worst repeat lies above its bar: the axis reaches its whisker's end.
 */
export function valueAxis(bars: readonly Bar[], view: AxisView, layout: BarLayout): { domain: Domain | null; y: ScaleLinear<number, number> } {
  const domain = axisDomain(bars.flatMap((b) => (b.value === null ? [] : b.low != null && b.low > b.value ? [b.value, b.low] : [b.value])), view);
  const y = scaleLinear()
    .domain(domain ?? [0, 1])
    .range([layout.base, MARGIN.top])
    .clamp(true);
  return { domain, y };
}

/** The top of a bar with a figure: at least MIN_BAR_PX tall, so a figure is never invisible. */
export function barTop(value: number, y: ScaleLinear<number, number>, layout: BarLayout): number {
  return Math.min(y(value), layout.base - MIN_BAR_PX);
}

/** Whether "⚠ busy" fits inside the bar; a shorter bar carries ⚠ in its mark above. */
export function busyInside(bar: Bar, y: ScaleLinear<number, number>, layout: BarLayout): boolean {
  return bar.busy === true && bar.value !== null && layout.base - barTop(bar.value, y, layout) >= BUSY_LABEL_PX;
}

/** The height a bar needs for "⚠ unstable" written inside it. */
const UNSTABLE_LABEL_PX = 74;

/** Whether an unstable bar that is not busy has room to say "⚠ unstable" inside it (busy is said first). */
export function unstableInside(bar: Bar, y: ScaleLinear<number, number>, layout: BarLayout): boolean {
  return bar.unstable === true && bar.busy !== true && bar.value !== null && layout.base - barTop(bar.value, y, layout) >= UNSTABLE_LABEL_PX;
}

/**
 * The group labels that have room, each at the centre of its bars: a label that would overlap
 * the one before is left out (two releases of a line are ~7 units wide). None without groups.
 */
export function groupLabels(bars: readonly Bar[], layout: BarLayout): { name: string; center: number }[] {
  if (!layout.grouped) return [];
  const centerOf = (group: string) => {
    const members = bars.filter((b) => b.group === group);
    return members.reduce((sum, b) => sum + barX(layout, b) + layout.bandwidth / 2, 0) / members.length;
  };
  let lastEnd = -Infinity;
  return [...new Set(bars.map((b) => b.group))].flatMap((name) => {
    const center = centerOf(name);
    const half = (name.length * GROUP_CHAR_WIDTH) / 2;
    if (center - half < lastEnd + 4) return [];
    lastEnd = center + half;
    return [{ name, center }];
  });
}

/**
 * The one mark above a bar: ★ the winner, ≈ a tie within noise, ? no spread to judge by, ▲/▼ a
 * change beyond noise (blue better, orange worse), followed by ⚠ when the bar is busy or unstable
 * and too short to say so inside. `tone` is its fill class.
 */
export function barMark(bar: Bar, busyWrittenInside: boolean, unstableWrittenInside = false): { text: string; tone: string } {
  const arrow = bar.change ? (bar.changeMark ?? (bar.change === 'faster' ? '▲' : '▼')) : '';
  const glyph = bar.noise === 'tie' ? '≈' : bar.noise === 'unknown' ? '?' : bar.winner ? '★' : arrow;
  const warn = (bar.busy && !busyWrittenInside) || (bar.unstable && !bar.busy && !unstableWrittenInside);
  const text = warn ? `${glyph}⚠` : glyph;
  const tone = arrow && glyph === arrow ? (bar.change === 'faster' ? 'fill-[#0072B2]' : 'fill-[#D55E00]') : 'fill-slate-900';
  return { text, tone };
}
