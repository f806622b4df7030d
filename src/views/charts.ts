/**
 * The per-test charts: a card per chart (a test in a mode), each drawing for the state either one
 * bar per version or one version's configurations (its drilldown), with their noise verdicts, and
 * the tools under it (chartResults.ts). A card is drawn again only when what it shows changes.
 * The app says when to draw and paces the first paint between the cards.
 */
import type { Catalog } from '../data/tables';
import { configBar, groupedByLine, versionBar } from '../model/bars';
import { type AppState, chartKey, chartMatches, DEFAULTS, protocolOf, zoomedToLine } from '../model/state';
import type { QueryRunner } from '../sql/query';
import type { VersionVerdictRow } from '../sql/verdicts';
import { type ChartCard, createChartCard } from '../ui/chartCard';
import type { SectionTools } from '../ui/section';
import { type Metric, metricOf, RPS } from '../vocabulary';
import { type ChartData, createChartData, verdictKey } from './chartData';
import { type ChartResults, createChartResults } from './chartResults';

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

/** What the charts need from the page. */
export interface ChartsContext {
  /** What the data holds: versions, charts in page order, current versions, precision modes. */
  readonly catalog: Catalog;
  /** Where the charts' queries go (what a reader waits on). */
  readonly db: QueryRunner;
  /** Whether precomputed answers (a first view) hold the default state's noise verdicts. */
  readonly precomputed: boolean;
  /** Compilers in plan order, and their colours. */
  readonly compilers: readonly string[];
  readonly colorOf: (compiler: string) => string;
  /** Folder URL of the published Parquet files (ends in '/'). */
  readonly dataUrl: string;
  state(): AppState;
  /** A reader's action: shows `next`, pushed to history; `focus` says where keyboard focus goes once drawn. */
  show(next: AppState, focus?: FocusRequest): void;
  /** The absolute link to a state. */
  link(state: AppState): string;
  /** Draws the page again for the state shown (the noise verdicts it waited for have arrived). */
  redraw(): void;
  /** A focus asked of draw() has been given. */
  focusGiven(focus: FocusRequest): void;
  /** The console and the file writers, for each chart's tools. */
  readonly tools: SectionTools;
}

/** How far a draw got: the charts the filters show, and the charts of the protocol shown. */
export interface Drawn {
  readonly visible: number;
  readonly ofProtocol: number;
}

/** How a draw lets other work through: after each card drawn, and once the cards on screen are drawn. */
export interface Pace {
  /** After each card drawn, with how many have been drawn so far (a promise returned is awaited). */
  readonly drawn: (count: number) => Promise<void> | undefined;
  /** Set: the cards on screen are drawn first, then this is called with how many cards are left to draw (a promise returned is awaited). */
  readonly inView?: (left: number) => Promise<void> | undefined;
}

/** The charts, driven by the app. */
export interface Charts {
  /** The grid of cards, for the page. */
  readonly element: HTMLElement;
  /** The cards, in page order. */
  readonly entries: readonly ChartEntry[];
  /** The query results behind them, cached. */
  readonly data: ChartData;
  /**
   * Draws `state` into every card the filters show (only those whose inputs changed) and brings
   * the data tables in line; `focus` goes to its card. `pace` is called after each card drawn
   * with how many have been drawn so far; a promise it returns is awaited. With `inView`, the
   * cards on screen are drawn first and `inView` is called (and awaited) once they are, with how
   * many cards are left to draw; the cards left say they are being redrawn until they are. Null
   * when a later draw began meanwhile (this one then stops).
   */
  draw(state: AppState, focus: FocusRequest | undefined, pace: Pace): Promise<Drawn | null>;
  /** Lets draws ask for the noise verdicts they lack (they wait for the header at load); resolves when the state's have arrived. */
  wantVerdicts(): Promise<unknown>;
  /** Fetches and decodes what drawing `state`'s version bars needs (its bars and noise verdicts), drawing nothing. */
  prepare(state: AppState): Promise<unknown>;
}

/** Says that noise verdicts failed: charts are drawn without their marks. */
export const warnVerdicts = (error: unknown): void => console.warn('noise verdicts failed; charts are drawn without their marks', error);

/** A card per chart, whose actions open and close its drilldown, zoom to a release line and link to it. */
function chartEntries(ctx: ChartsContext, data: ChartData): ChartEntry[] {
  const { versions, precisionModes } = ctx.catalog;
  const zoomedTo = (line: string) => zoomedToLine(ctx.state(), versions, line);
  return ctx.catalog.charts.map(({ mode, test }) => {
    const key = chartKey(mode, test);
    const card = createChartCard(key, mode, test, {
      open: (version) => {
        const state = ctx.state();
        ctx.show({ ...state, open: { ...state.open, [key]: version }, chart: key }, { key, version, kind: 'open' });
      },
      close: () => {
        const state = ctx.state();
        const version = state.open[key];
        if (version === undefined) return;
        const { [key]: _closed, ...open } = state.open;
        ctx.show({ ...state, open, chart: key }, { key, version, kind: 'close' });
      },
      prefetch: () => void data.configRows(mode, test, ctx.state().metric),
      zoom: (line) => ctx.show({ ...zoomedTo(line), chart: key }),
      zoomText: (line) => (zoomedTo(line).from === null ? 'Show every release again' : `Show only the ${line} releases`),
      link: () => ctx.link({ ...ctx.state(), chart: key }),
    }, precisionModes.includes(mode));
    return { key, mode, test, card };
  });
}

/** Builds the charts' cards and tools for `ctx.catalog` (nothing drawn until draw()). */
export function createCharts(ctx: ChartsContext): Charts {
  const { catalog } = ctx;
  const data = createChartData(ctx.db, catalog.versions, catalog.charts, catalog.currentVersions, catalog.precisionModes);
  const entries = chartEntries(ctx, data);
  const results = createChartResults({ ...ctx, data, show: (next) => ctx.show(next) });
  for (const chart of entries) results.attach({ mode: chart.mode, test: chart.test, element: chart.card.element });
  const element = document.createElement('div');
  element.className = 'grid grid-cols-1 gap-4 xl:grid-cols-2';
  element.append(...entries.map((c) => c.card.element));
  const drawing = { count: 0, drawn: new Map<string, string>(), verdictsWanted: false, redrawing: new Set<string>() };
  const grid = { ctx, data, entries, results, drawing, onScreen: watchOnScreen(entries) };
  return {
    element,
    entries,
    data,
    draw: (state, focus, pace) => drawCharts(grid, state, focus, pace),
    wantVerdicts() {
      drawing.verdictsWanted = true;
      return data.verdicts(ctx.state());
    },
    prepare: (state) => Promise.all([data.versionRows(state), data.verdicts(state)]),
  };
}

/**
 * The keys of the charts whose cards are on screen, kept by an IntersectionObserver: a draw reads
 * them without making the browser lay out the page (empty until the first frame after this).
 */
function watchOnScreen(entries: readonly ChartEntry[]): ReadonlySet<string> {
  const onScreen = new Set<string>();
  const byElement = new Map<Element, string>(entries.map((c) => [c.card.element, c.key]));
  const observer = new IntersectionObserver((records) => {
    for (const r of records) {
      const key = byElement.get(r.target);
      if (key === undefined) continue;
      if (r.isIntersecting) onScreen.add(key);
      else onScreen.delete(key);
    }
  });
  for (const element of byElement.keys()) observer.observe(element);
  return onScreen;
}

/** The charts' parts and what they last drew. */
interface Grid {
  readonly ctx: ChartsContext;
  /** The keys of the charts on screen. */
  readonly onScreen: ReadonlySet<string>;
  readonly data: ChartData;
  readonly entries: readonly ChartEntry[];
  readonly results: ChartResults;
  readonly drawing: {
    /** Draws begun: a draw that finds a later one begun stops. */
    count: number;
    /** Per chart, what its card last drew, so a draw only redraws cards whose inputs changed. */
    readonly drawn: Map<string, string>;
    /** Whether the page has asked for noise verdicts yet. */
    verdictsWanted: boolean;
    /** Charts whose cards say they are being redrawn (they show another state's bars until then). */
    readonly redrawing: Set<string>;
  };
}

/** Draws a state into the cards the filters show (Charts.draw). */
async function drawCharts(grid: Grid, s: AppState, focus: FocusRequest | undefined, pace: Pace): Promise<Drawn | null> {
  const { ctx, data, entries, drawing } = grid;
  const token = ++drawing.count;
  const { precisionModes } = ctx.catalog;
  const metric = metricOf(s.metric);
  // Precomputed noise verdicts (tie marks, regressions) come with the bars: each chart waits for
  // its own and is drawn once. The engine's arrive after the first paint; charts redraw once then.
  // The precision charts' verdicts (bootstrap intervals) are the engine's, asked when one is shown.
  const precise = (c: ChartEntry) => precisionModes.includes(c.mode);
  // The first view holds the default metric's verdicts, and requests/second's of the default release set.
  const inFiles = s.metric === DEFAULTS.metric || (s.metric === RPS.id && s.releases === DEFAULTS.releases);
  const precomputed = (c: ChartEntry) => ctx.precomputed && inFiles && !precise(c);
  const shownCharts = entries.filter((c) => chartMatches(s, c.mode, c.test, precisionModes));
  const withPrecision = shownCharts.some(precise);
  // Another metric's verdicts are asked for once the page's own have been (wantVerdicts).
  if (drawing.verdictsWanted && entries.some((c) => !precomputed(c) && (withPrecision || !precise(c)) && !data.verdictsIfReady(s, c.key))) {
    redrawWithVerdicts(ctx, data, s);
  }
  for (const chart of entries) chart.card.setHidden(!shownCharts.includes(chart));
  const order = pace.inView ? onScreenFirst(grid, shownCharts, s) : { first: [], rest: shownCharts };
  let count = 0;
  const drawOne = async (chart: ChartEntry): Promise<boolean> => {
    const verdicts = precomputed(chart)
      ? await data.chartVerdicts(s, chart.key).catch((error: unknown) => (warnVerdicts(error), null))
      : data.verdictsIfReady(s, chart.key);
    if (token !== drawing.count) return false;
    const drawn = await drawCard(grid, chart, s, metric, verdicts, focus);
    if (token !== drawing.count) return false;
    if (!drawn) return true;
    const paused = pace.drawn(++count);
    if (paused) await paused;
    return token === drawing.count;
  };
  for (const chart of order.first) if (!(await drawOne(chart))) return null;
  if (pace.inView) {
    const paused = pace.inView(order.rest.filter((c) => drawing.redrawing.has(c.key)).length);
    if (paused) await paused;
    if (token !== drawing.count) return null;
  }
  for (const chart of order.rest) if (!(await drawOne(chart))) return null;
  grid.results.sync(s);
  const precisionShown = protocolOf(s.mode, precisionModes) === 'precision';
  return { visible: shownCharts.length, ofProtocol: entries.filter((c) => precise(c) === precisionShown).length };
}

/**
 * The shown cards split into those on screen (drawn first) and the rest; each card that will show
 * something else (another metric, view, range or drilldown) says it is being redrawn until it is.
 */
function onScreenFirst(grid: Grid, shown: readonly ChartEntry[], s: AppState): { first: ChartEntry[]; rest: ChartEntry[] } {
  const { drawing } = grid;
  for (const chart of shown) {
    const changes = !(drawing.drawn.get(chart.key) ?? '').startsWith(`${inputsOf(grid, chart, s)}|`);
    if (changes && !drawing.redrawing.has(chart.key)) {
      drawing.redrawing.add(chart.key);
      chart.card.setRedrawing(true);
    }
  }
  return { first: shown.filter((c) => grid.onScreen.has(c.key)), rest: shown.filter((c) => !grid.onScreen.has(c.key)) };
}

/** What a card draws for state `s`, noise verdicts aside: equal when it would draw the same bars. */
function inputsOf(grid: Grid, chart: ChartEntry, s: AppState): string {
  return `${s.metric}|${s.view}|${grid.data.range(s).key}|${s.open[chart.key] ?? ''}`;
}

/** Asks for the noise verdicts a state shows, and draws the page again with them if it still shows those. */
function redrawWithVerdicts(ctx: ChartsContext, data: ChartData, s: AppState): void {
  void data.verdicts(s).then(() => {
    if (data.verdictsKey(ctx.state()) === data.verdictsKey(s)) ctx.redraw();
  }, warnVerdicts);
}

/**
 * Draws one chart's card for state `s`: its drilldown's configurations or its version bars.
 * False when the card already shows what it would draw (and no focus is asked of it). A draw
 * superseded while the card's rows load leaves the card as it was.
 */
async function drawCard(
  grid: Grid, chart: ChartEntry, s: AppState, metric: Metric,
  verdicts: ReadonlyMap<string, VersionVerdictRow> | null, focus: FocusRequest | undefined,
): Promise<boolean> {
  const { ctx, data, drawing } = grid;
  const token = drawing.count;
  const drill = s.open[chart.key];
  const signature = `${inputsOf(grid, chart, s)}|${verdicts ? 'noise' : ''}`;
  const focusHere = focus?.key === chart.key ? focus : undefined;
  if (drawing.drawn.get(chart.key) === signature && !focusHere) {
    redrawn(grid, chart);
    return false;
  }
  chart.card.setMetric(metric);
  if (drill !== undefined) {
    const rows = (await data.configRows(chart.mode, chart.test, s.metric)).get(drill) ?? [];
    if (token !== drawing.count) return false;
    const verdict = verdicts?.get(verdictKey(chart.key, drill));
    chart.card.showConfigs(drill, rows.map((r) => configBar(r, ctx.colorOf, verdict?.winner_call, metric, verdict?.standings?.[r.cell_id])), s.view, focusHere?.kind === 'open');
  } else {
    const rows = await data.chartRows(s, chart.key);
    if (token !== drawing.count) return false;
    const bars = groupedByLine(rows.map((r) => versionBar(r, ctx.colorOf, verdicts?.get(verdictKey(chart.key, r.version)), metric)));
    chart.card.showVersions(bars, s.view, focusHere?.kind === 'close' ? focusHere.version : undefined);
  }
  drawing.drawn.set(chart.key, signature);
  redrawn(grid, chart);
  if (focusHere) {
    performance.mark('drilldown:drawn');
    ctx.focusGiven(focusHere);
  }
  return true;
}

/** A card no longer waits to be redrawn. */
function redrawn(grid: Grid, chart: ChartEntry): void {
  if (grid.drawing.redrawing.delete(chart.key)) chart.card.setRedrawing(false);
}
