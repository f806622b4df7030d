/**
 * One chart's figure: caption naming test and mode, the bars (all versions, or one version's
 * configurations), a way back, a copy-link button and the printed axis range.
 */
import { barChart, type BarChart } from '../chart/barChart';
import type { AxisView } from '../model/domain';
import { formatAxisRange } from '../model/format';
import { pipeResolutionText } from '../model/metric';
import { type Bar, type Metric, MIN_TIME_SECONDS, RPS } from '../vocabulary';
import { copyLink } from './copyLink';
import { h } from './dom';

/** What a card asks of the app. */
export interface CardActions {
  /** Open this version's configurations. */
  open(version: string): void;
  /** Return to all versions. */
  close(): void;
  /** The pointer or focus is on this chart: its drilldowns may be wanted soon. */
  prefetch(): void;
  /** The deep link to this chart in the current state. */
  link(): string;
  /** Show only the releases of this minor line (a group of version bars), or all again if only they are shown. */
  zoom(line: string): void;
  /** What zooming into a line does, in words, for its label's accessible name. */
  zoomText(line: string): string;
}

/** A chart card. */
export interface ChartCard {
  readonly element: HTMLElement;
  /** Shows one bar per version. `focus` moves keyboard focus to that version's bar. */
  showVersions(bars: readonly Bar[], view: AxisView, focus?: string): void;
  /** Shows one version's configurations; `focus` moves keyboard focus into them. */
  showConfigs(version: string, bars: readonly Bar[], view: AxisView, focus: boolean): void;
  setHidden(hidden: boolean): void;
  /** Says the card is being redrawn (it still shows the bars of the state before), or no longer. */
  setRedrawing(redrawing: boolean): void;
  /** The metric the next bars are in: caption, axis note and words follow it. */
  setMetric(metric: Metric): void;
}

const MODE_TEXT: Record<string, string> = {
  data: 'data mode (64-byte values, random keys)',
  pipe: 'pipe mode (64-byte values, random keys, 1,000-request pipelines)',
  'data-long': 'data-long mode (precision: data mode\'s requests, each test at least 1.5 s, interleaved rounds)',
  'pipe-long': 'pipe-long mode (precision: pipe mode\'s requests, each test at least 1.5 s, interleaved rounds)',
};

/** The subtitle's note on unstable figures ('' for none). */
const unstableText = (labels: readonly string[]) =>
  (labels.length ? ` · ⚠ unstable (coefficient of variation over the rounds above 10%): ${labels.join(', ')}` : '');

/** The subtitle's note on figures with a round shorter than the precision modes' min_time ('' for none). */
export const shortRoundsText = (labels: readonly string[]) =>
  (labels.length ? ` · ⚠ a round shorter than ${MIN_TIME_SECONDS} s (one millisecond of the client's clock weighs more): ${labels.join(', ')}` : '');

/** Releases named in a subtitle before it counts them instead (every release: most change). */
const MAX_LISTED_CHANGES = 12;

/**
 * The releases that changed against the one before ("▲ 7.0.15, ▼ 7.4.1"), or, when there are
 * more than MAX_LISTED_CHANGES, how many each way ("120 releases: 70 ▲, 50 ▼, marked above their
 * bars"): at every release a list would bury the chart.
 */
export function changeList(changes: readonly string[]): string {
  if (changes.length <= MAX_LISTED_CHANGES) return changes.join(', ');
  const marks = new Map<string, number>();
  for (const c of changes) {
    const mark = c.split(' ')[0] ?? '';
    marks.set(mark, (marks.get(mark) ?? 0) + 1);
  }
  return `${changes.length} releases: ${[...marks].map(([mark, n]) => `${n} ${mark}`).join(', ')}, marked above their bars`;
}

/** A DOM id for a chart key: letters, digits and dashes only. */
export function chartElementId(key: string): string {
  return `chart-${key.replace(/[^A-Za-z0-9]+/g, '-').replace(/-+$/, '')}`;
}

/** Where a bar is measured on a busy machine, where its precision figure is unstable and where a round fell short of min_time: the subtitle's warnings. */
function warningsText(bars: readonly Bar[], name: (bar: Bar) => string): string {
  const busy = bars.filter((b) => b.busy).map(name);
  return (busy.length ? ` · ⚠ measured on a busy machine (may be low): ${busy.join(', ')}` : '')
    + unstableText(bars.filter((b) => b.unstable).map(name))
    + shortRoundsText(bars.filter((b) => b.short).map(name));
}

/** The subtitle over one bar per version: how many are measured, and which changed against the release before. */
function versionsSubtitle(bars: readonly Bar[], precision: boolean): string {
  const measured = bars.filter((b) => b.value !== null).length;
  // Releases better or worse than the one before beyond the noise band, the arrow by the number's sign.
  const changes = bars.filter((b) => b.change).map((b) => `${b.changeMark ?? (b.change === 'faster' ? '▲' : '▼')} ${b.label}`);
  return `${precision ? 'Fastest configuration per version (geometric mean over its rounds)' : 'Best configuration per version'} · ${measured} of ${bars.length} versions measured · click a bar for its configurations`
    + (changes.length ? ` · ${precision ? 'the 95% interval excludes 0' : 'beyond noise'} against the release before: ${changeList(changes)}` : '')
    + warningsText(bars, (b) => b.label);
}

/** The subtitle over one version's configurations: the best one, or those within noise of it. */
function configsSubtitle(version: string, bars: readonly Bar[], metric: Metric, precision: boolean): string {
  const winner = bars.find((b) => b.winner);
  const tied = bars.filter((b) => b.noise === 'tie').map((b) => `${b.group} ${b.label}`);
  const standing = !winner ? 'no configuration measured'
    : tied.length ? `≈ one group within noise of the best, in no order: ${tied.join(', ')}`
    : winner.noise === 'unknown' ? `? ${metric.best}: ${winner.group} ${winner.label}, no winner called (${precision ? 'fewer than two rounds: no interval' : 'too few repeats to judge the noise'})`
    : `★ ${metric.best}: ${winner.group} ${winner.label}`;
  return `Redis ${version}: ${bars.length} configurations by compiler and flag set · ${standing}${precision ? ' (95% intervals of the paired rounds)' : ''}`
    + warningsText(bars, (b) => `${b.group} ${b.label}`);
}

/** The card's button from one version's configurations back to every version (hidden until a drilldown). */
const backButton = (close: () => void) => h('button', {
  class: 'rounded-md border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-100',
  attrs: { type: 'button', hidden: '', 'data-action': 'back' },
  on: { click: close },
}, '← All versions');

/**
 * Creates the card for the chart `key` (mode and test); `precision`: a precision mode's chart,
 * whose bars are geometric means over rounds judged by bootstrap intervals.
 */
export function createChartCard(key: string, mode: string, test: string, actions: CardActions, precision = false): ChartCard {
  const subtitle = h('p', { class: 'text-xs text-slate-600' });
  let metric = RPS;
  const what = h('span', { class: 'chart-metric text-xs text-slate-600' });
  const caption = () => `${metric.name}${metric.lower ? ` (${metric.kind}; ${metric.direction})` : ''}, ${MODE_TEXT[mode] ?? `${mode} mode`}`;
  what.textContent = caption();
  const back = backButton(() => actions.close());
  const copy = copyLink(() => actions.link(), 'Copy a link to this chart as it is shown now');
  const body = h('div', { class: 'chart-body mt-1' });
  const axisNote = h('p', { class: 'axis-note text-xs text-slate-600' });
  const element = h('figure', {
    class: 'chart-card rounded-lg border border-slate-200 bg-white p-3 shadow-sm',
    attrs: { id: chartElementId(key), 'data-chart-key': key, 'data-drill': '', tabindex: '-1' },
    on: { pointerenter: () => actions.prefetch(), focusin: () => actions.prefetch() },
  },
    h('div', { class: 'flex items-start justify-between gap-2' },
      h('figcaption', { class: 'min-w-0 flex-1' },
        h('h3', { class: 'text-base font-semibold text-slate-900' }, test),
        what,
        subtitle,
      ),
      h('div', { class: 'flex shrink-0 items-center gap-2' }, copy.status, back, copy.link),
    ),
    body,
    axisNote,
  );

  let chart: BarChart | null = null;
  const draw = (bars: readonly Bar[], view: AxisView, label: string, onActivate: (bar: Bar) => void, versions = false) => {
    const options = {
      view,
      label,
      onActivate,
      onEscape: () => actions.close(),
      // Version bars grouped by minor line: a line's label zooms into its releases.
      ...(versions ? { onGroup: (line: string) => actions.zoom(line), groupAction: (line: string) => actions.zoomText(line) } : {}),
    };
    if (chart) chart.update(bars, options);
    else chart = barChart(body, bars, options);
    const domain = chart.domain();
    axisNote.textContent = domain ? formatAxisRange(domain, metric.unit) : 'no figures in this range';
    // Pipe mode's requests/second come in whole-millisecond steps: the chart says how coarse.
    if (domain && mode === 'pipe' && metric === RPS) axisNote.textContent += ` · ${pipeResolutionText(domain[1])}`;
  };

  return {
    element,
    showVersions(bars, view, focus) {
      element.dataset.drill = '';
      back.hidden = true;
      subtitle.textContent = versionsSubtitle(bars, precision);
      draw(bars, view, `${test}, ${mode} mode: one bar per Redis version`, (bar) => actions.open(bar.key), true);
      if (focus !== undefined) chart?.focusBar(focus);
    },
    showConfigs(version, bars, view, focus) {
      element.dataset.drill = version;
      back.hidden = false;
      subtitle.textContent = configsSubtitle(version, bars, metric, precision);
      draw(bars, view, `${test}, ${mode} mode: configurations of Redis ${version}`, () => actions.close());
      if (focus) chart?.focusBar(bars.find((b) => b.winner)?.key);
    },
    setHidden(hidden) {
      // Setting the attribute again would make the browser restyle the card.
      if (element.hidden !== hidden) element.hidden = hidden;
    },
    setRedrawing(redrawing) {
      element.classList.toggle('redrawing', redrawing);
      if (redrawing) element.setAttribute('aria-busy', 'true');
      else element.removeAttribute('aria-busy');
    },
    setMetric(next) {
      metric = next;
      what.textContent = caption();
      element.dataset.metric = next.id;
    },
  };
}
