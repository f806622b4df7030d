/**
 * Drawing the page's state: every chart card the filters show (only those whose inputs changed),
 * then the controls, the legend, the chart tools and the sections. The first render paces itself
 * so the top of the page paints early.
 */
import type { ScaleOrdinal } from 'd3-scale';
import { configBar, groupedByLine, versionBar } from '../model/bars';
import { type AppState, chartMatches, DEFAULTS, protocolOf } from '../model/state';
import type { VersionVerdictRow } from '../sql/verdicts';
import type { ChartCard } from '../ui/chartCard';
import type { Controls } from '../ui/controls';
import { byId } from '../ui/dom';
import { renderLegend } from '../ui/legend';
import type { Analysis } from '../views/analysis';
import { type Metric, type MetricId, metricOf, RPS } from '../vocabulary';
import { type ChartData, FIRST_CHUNK, verdictKey } from './chartData';
import type { OpenResults } from './openResults';

/** Where keyboard focus goes after a render: into an opened drilldown, or back to its version bar. */
export interface FocusRequest {
  readonly key: string;
  readonly version: string;
  readonly kind: 'open' | 'close';
}

/** A chart's card, with the chart it draws. */
export interface ChartEntry {
  readonly key: string;
  readonly mode: string;
  readonly test: string;
  readonly card: ChartCard;
}

/** How far the page's drawing got, and what each card last drew. */
export interface Painting {
  /** Renders begun: a render that finds a later one begun stops. */
  count: number;
  /** Per chart, what its card last drew, so a render only redraws cards whose inputs changed. */
  readonly drawn: Map<string, string>;
  /** The first cards painted (the engine may start), and every card painted once. */
  firstPainted: boolean;
  allPainted: boolean;
  /** The metric the legend was drawn for. */
  legendMetric: MetricId;
}

/** What a render reads and writes: the page's state and the parts it draws. */
export interface PageView {
  /** The state shown: the one in the URL. */
  state: AppState;
  /**
   * A keyboard focus asked for and not yet given: a render that supersedes the one that was to
   * give it (the redraw when the noise verdicts arrive) gives it instead.
   */
  pendingFocus: FocusRequest | undefined;
  /** Whether the page has asked for noise verdicts yet (they wait for the header at load). */
  verdictsWanted: boolean;
  readonly painting: Painting;
  /** Whether there are precomputed answers (a first view); starts the engine (once the first charts are painted). */
  readonly source: { readonly view: object | null; readonly wanted: () => void };
  readonly main: HTMLElement;
  readonly colors: ScaleOrdinal<string, string>;
  readonly data: ChartData;
  readonly charts: readonly ChartEntry[];
  readonly controls: Controls;
  readonly results: OpenResults;
  readonly analysis: Analysis;
  /** The modes measured by the precision protocol (the mode filter's 'all' leaves them out). */
  readonly precisionModes: readonly string[];
}

/** Lets other tasks run (DuckDB's module starting its worker, a click) between charts. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const nextFrame = () =>
  new Promise<void>((resolve) => {
    // rAF does not run in a background tab; the timeout keeps rendering going there.
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() => setTimeout(() => (clearTimeout(timer), resolve()), 0));
  });

/**
 * Draws the page's state: every chart the filters show (only those whose inputs changed), then
 * the controls, legend, chart tools and sections. The first render lets a frame through after the
 * first charts, and other tasks between later ones; a render begun after this one stops it.
 */
export async function render(page: PageView, focus?: FocusRequest): Promise<void> {
  const { painting } = page;
  const token = ++painting.count;
  // Until every chart has been painted once, whichever render gets there marks it.
  const initial = !painting.allPainted;
  const s = page.state;
  const { data } = page;
  const metric = metricOf(s.metric);
  // Precomputed noise verdicts (tie marks, regressions) come with the bars: each chart waits for
  // its own and is drawn once. The engine's arrive after the first paint; charts redraw once then.
  // The precision charts' verdicts (bootstrap intervals) are the engine's, asked when one is shown.
  const precise = (c: ChartEntry) => page.precisionModes.includes(c.mode);
  // The first view holds the default metric's verdicts, and requests/second's of the default release set.
  const inFiles = s.metric === DEFAULTS.metric || (s.metric === RPS.id && s.releases === DEFAULTS.releases);
  const precomputed = (c: ChartEntry) => page.source.view !== null && inFiles && !precise(c);
  const shownCharts = page.charts.filter((c) => chartMatches(s, c.mode, c.test, page.precisionModes));
  const withPrecision = shownCharts.some(precise);
  // Another metric's verdicts are asked for once the page's own have been (see the end of openPage in page.ts).
  if (page.verdictsWanted && page.charts.some((c) => !precomputed(c) && (withPrecision || !precise(c)) && !data.verdictsIfReady(s, c.key))) {
    redrawWithVerdicts(page, s);
  }
  let visible = 0;
  for (const chart of page.charts) {
    const shown = shownCharts.includes(chart);
    chart.card.setHidden(!shown);
    if (!shown) continue;
    visible++;
    const verdicts = precomputed(chart)
      ? await data.chartVerdicts(s, chart.key).catch((error: unknown) => (warnVerdicts(error), null))
      : data.verdictsIfReady(s, chart.key);
    if (token !== painting.count) return;
    const drawn = await drawCard(page, chart, s, metric, verdicts, focus);
    if (token !== painting.count) return;
    if (!drawn) continue;
    if (initial && !painting.firstPainted && visible === FIRST_CHUNK) {
      await firstPaint(page);
      if (token !== painting.count) return;
    } else if (initial && visible % FIRST_CHUNK === 0) {
      // Drawing every chart takes a while: the engine's start and a reader's click go between.
      await nextTask();
      if (token !== painting.count) return;
    }
  }
  page.controls.sync(s, visible, page.charts.filter((c) => precise(c) === withPrecisionProtocol(page, s)).length);
  if (painting.legendMetric !== s.metric) {
    painting.legendMetric = s.metric;
    renderLegend(byId('legend'), page.colors.domain(), (compiler) => page.colors(compiler), metric);
  }
  page.results.sync(s);
  page.analysis.render(s);
  page.main.setAttribute('aria-busy', 'false');
  // Every render that draws to the end marks it: the benchmark times a metric switch by it.
  performance.mark('charts:drawn');
  if (initial) {
    if (!painting.firstPainted) await firstPaint(page);
    await nextFrame();
    painting.allPainted = true;
    performance.mark('charts:all-painted');
  }
}

/** Lets the first charts paint, then starts the engine. */
async function firstPaint(page: PageView): Promise<void> {
  await nextFrame();
  page.painting.firstPainted = true;
  performance.mark('charts:first-painted');
  page.source.wanted();
}

/** Says that noise verdicts failed: charts are drawn without their marks. */
export const warnVerdicts = (error: unknown): void => console.warn('noise verdicts failed; charts are drawn without their marks', error);

/** Whether the state shows the precision protocol (its charts are counted against each other). */
const withPrecisionProtocol = (page: PageView, s: AppState) => protocolOf(s.mode, page.precisionModes) === 'precision';

/** Asks for the noise verdicts a state shows, and draws the page again with them if it still shows those. */
function redrawWithVerdicts(page: PageView, s: AppState): void {
  const { data } = page;
  void data.verdicts(s).then(() => {
    if (data.verdictsKey(page.state) === data.verdictsKey(s)) void render(page, page.pendingFocus);
  }, warnVerdicts);
}

/**
 * Draws one chart's card for state `s`: its drilldown's configurations or its version bars.
 * False when the card already shows what it would draw (and no focus is asked of it). A render
 * superseded while the card's rows load leaves the card as it was.
 */
async function drawCard(
  page: PageView, chart: ChartEntry, s: AppState, metric: Metric,
  verdicts: ReadonlyMap<string, VersionVerdictRow> | null, focus: FocusRequest | undefined,
): Promise<boolean> {
  const { data, painting } = page;
  const token = painting.count;
  const colorOf = (compiler: string) => page.colors(compiler);
  const drill = s.open[chart.key];
  const signature = `${s.metric}|${s.view}|${data.range(s).key}|${drill ?? ''}|${verdicts ? 'noise' : ''}`;
  const focusHere = focus?.key === chart.key ? focus : undefined;
  if (painting.drawn.get(chart.key) === signature && !focusHere) return false;
  chart.card.setMetric(metric);
  if (drill !== undefined) {
    const rows = (await data.configRows(chart.mode, chart.test, s.metric)).get(drill) ?? [];
    if (token !== painting.count) return false;
    const verdict = verdicts?.get(verdictKey(chart.key, drill));
    chart.card.showConfigs(drill, rows.map((r) => configBar(r, colorOf, verdict?.winner_call, metric, verdict?.standings?.[r.cell_id])), s.view, focusHere?.kind === 'open');
  } else {
    const rows = await data.chartRows(s, chart.key);
    if (token !== painting.count) return false;
    const bars = groupedByLine(rows.map((r) => versionBar(r, colorOf, verdicts?.get(verdictKey(chart.key, r.version)), metric)));
    chart.card.showVersions(bars, s.view, focusHere?.kind === 'close' ? focusHere.version : undefined);
  }
  painting.drawn.set(chart.key, signature);
  if (focusHere) {
    performance.mark('drilldown:drawn');
    if (page.pendingFocus === focusHere) page.pendingFocus = undefined;
  }
  return true;
}
