/**
 * The page once the dataset is known: the legend, the header, a card per chart, the controls, the
 * chart tools and the analysis sections, drawn for the state in the URL and again for every new
 * state (a user action, pushed to history; back and forward).
 */
import type { ScaleOrdinal } from 'd3-scale';
import { compilerColors } from '../chart/palette';
import type { Database } from '../data/duckdb';
import { fetchAnswers } from '../data/dataset';
import { type Answer, answerFile, answeringRunner, type FirstView } from '../data/firstView';
import { prioritized } from '../data/priority';
import type { Catalog } from '../data/tables';
import { configKey } from '../model/analysisState';
import { defaultHardware } from '../model/hardware';
import { precisionCoverageText } from '../model/precision';
import {
  type AppState, type Catalog as StateCatalog, DEFAULTS, orderRange, protocolOf, reconcileState, sameState,
} from '../model/state';
import { configBarsQuery } from '../sql/charts';
import { countedFiguresQuery, rebuildBandsQuery } from '../sql/counted';
import { compilersQuery, countProtocolQuery, coverageQuery, type CoverageRow, datesQuery, machinesQuery, protocolQuery } from '../sql/meta';
import type { QueryRunner } from '../sql/query';
import { chartElementId } from '../ui/chartCard';
import { createControls, type StatePatch } from '../ui/controls';
import { byId } from '../ui/dom';
import { hardwareChoice } from '../ui/hardware';
import { renderCoverage, renderMeasurement } from '../ui/header';
import { renderLegend } from '../ui/legend';
import { onceNearScreen } from '../ui/nearScreen';
import { showLinkNotice, showNoData } from '../ui/notices';
import { type MetricId, metricOf, RPS } from '../vocabulary';
import { createAnalysis } from '../views/analysis';
import { appendTimeShare } from '../views/timeShare';
import { showAnswer } from '../views/answer';
import { createCharts, type FocusRequest, warnVerdicts } from '../views/charts';
import { absoluteUrlFor, onHistoryMove, recordState, stateFromLocation, urlFor } from './history';
import { createOpenResults } from './openResults';
import { type PageView, render } from './render';
import { trackScrolledChart } from './scroll';

/** Where the page's queries go. */
export interface Source {
  /** The database (or, with a first view, a runner that waits for it). */
  readonly db: QueryRunner;
  /** The database once the data is loaded: the console's and the downloads'. */
  readonly database: () => Promise<Database>;
  /** Answers to the first screenful's queries, and where the further precomputed answers are, when there are any. */
  readonly view: FirstView | null;
  /** Starts the engine (once the first charts are painted, or a query no precomputed file answers is asked). */
  readonly wanted: () => void;
}

/** The two ways to the data: what a reader waits on (charts, drilldowns) before what the page does on its own. */
interface Runners {
  readonly urgent: QueryRunner;
  readonly background: QueryRunner;
  /** Fetches the answer files the first view says to fetch once the page is idle (none without one). */
  prefetch(): Promise<void>;
  /**
   * Whether a chart's drilldowns in a metric are precomputed in a file of their own, fetched on
   * demand: not without a first view, nor when every chart's are in one file fetched by prefetch.
   */
  ownDrilldownFile(mode: string, test: string, metric: MetricId): boolean;
}

/** The page: its parts, the state it shows, and what it checks a new state against. */
interface Page extends PageView {
  readonly source: Source;
  readonly runners: Runners;
  readonly versions: readonly string[];
  /** What the data holds, for checking a state from the URL. */
  readonly catalog: StateCatalog;
  /** The hardware class the tables hold (another is a new page load). */
  readonly loadedHardware: string | null;
  /** Whether the tables hold the extended configurations (the `ext` the page was loaded with). */
  readonly loadedExtended: boolean;
}

/** Runs `task` when the browser is idle (Safari has no requestIdleCallback: soon, then). */
const whenIdle = (task: () => void) =>
  'requestIdleCallback' in window ? requestIdleCallback(task, { timeout: 2000 }) : setTimeout(task, 300);

/**
 * Shows the dataset of `dataCatalog` in `main`: with charts, the page for the state in the URL;
 * without, the header and how far the collection got. `dataUrl` is the data folder's URL.
 */
export async function showDataset(source: Source, dataCatalog: Catalog, main: HTMLElement, dataUrl: string): Promise<void> {
  const colors = compilerColors(dataCatalog.compilers);
  renderLegend(byId('legend'), colors.domain(), (compiler) => colors(compiler));
  const runners = queryRunners(source, dataUrl);
  const header = () => renderHeader(runners.background, dataCatalog);
  if (!dataCatalog.charts.length) {
    const coverage = await header();
    showNoData(main, `${coverage.collected_cells} of ${coverage.planned_cells} cells built, but no benchmark result yet. Charts appear as soon as the first run finishes.`);
    byId('controls').hidden = true;
    return;
  }
  const page = createPage(source, runners, dataCatalog, main, colors, dataUrl);
  let headerShown = () => {};
  const roundsAfter = new Promise<void>((resolve) => (headerShown = resolve));
  // The answer is drawn before the charts (from the first view: a few milliseconds), so it does
  // not grow above them once a reader or a link has scrolled to one.
  const answer = await showAnswer(byId('answer'), {
    db: runners.urgent, baseline: dataCatalog.configs[0], precisionModes: dataCatalog.precisionModes, rounds: dataCatalog.rounds,
    colorOf: (compiler) => colors(compiler), link: (patch) => absoluteUrlFor({ ...page.state, chart: null, ...patch }), roundsAfter,
  }).catch((error: unknown) => console.warn('the answer failed', error));
  await openPage(page, async () => {
    const coverage = await header();
    headerShown();
    return coverage;
  }, answer?.rounds ?? Promise.resolve());
}

/**
 * The page's two query doors; precomputed answers skip the queue: they need no engine. Both doors
 * share the further answer files, each fetched from the data folder `dataUrl` once.
 */
function queryRunners(source: Source, dataUrl: string): Runners {
  const doors = prioritized(source.db);
  const { view } = source;
  const files = new Map<string, Promise<readonly Answer[]>>();
  const load = (file: string) => {
    let answers = files.get(file);
    if (!answers) files.set(file, (answers = fetchAnswers(dataUrl, file)));
    return answers;
  };
  return {
    urgent: view ? answeringRunner(view, doors.urgent, load, source.wanted) : doors.urgent,
    background: view ? answeringRunner(view, doors.background, load, source.wanted) : doors.background,
    prefetch: async () => void (await Promise.all((view?.prefetch ?? []).map(load))),
    ownDrilldownFile(mode, test, metric) {
      const file = view ? answerFile(view, configBarsQuery(mode, test, metricOf(metric))) : undefined;
      return file !== undefined && !view?.prefetch.includes(file);
    },
  };
}

/** Fills the header: how much of the matrix is collected (of the class shown), and how it was measured. */
async function renderHeader(background: QueryRunner, dataCatalog: Catalog): Promise<CoverageRow> {
  const { hardware, selectedHardware } = dataCatalog;
  const [[coverage], machines, compilers, protocol, countProtocol, [dates], rebuildBands] = await Promise.all([
    background.run(coverageQuery()), background.run(machinesQuery()), background.run(compilersQuery()),
    background.run(protocolQuery()), background.run(countProtocolQuery()), background.run(datesQuery()), background.run(rebuildBandsQuery()),
  ]);
  if (!coverage) throw new Error('The coverage query returned no row.');
  renderCoverage(byId('coverage'), coverage, hardware.length > 1 ? selectedHardware?.label : undefined);
  renderMeasurement(byId('measurement'), { coverage, machines, compilers, protocol, countProtocol, rebuildBands, dates });
  appendTimeShare(byId('measurement'), background);
  return coverage;
}

/**
 * Builds the page's parts for the state in the URL (checked against the data, with a notice for
 * what it does not hold): the chart cards, the hardware select, the controls, the chart tools and
 * the analysis sections, each turning a reader's action into a new state.
 */
function createPage(source: Source, runners: Runners, dataCatalog: Catalog, main: HTMLElement, colors: ScaleOrdinal<string, string>, dataUrl: string): Page {
  const { versions, configs, hardware, selectedHardware } = dataCatalog;
  const colorOf = (compiler: string) => colors(compiler);
  // The parts' actions run after the page exists: they read its state then.
  const current = () => page.state;
  const show = (next: AppState, focus?: FocusRequest) => setState(page, next, focus);
  const results = createOpenResults({ dataUrl, database: source.database, state: current, setState: (next) => show(next) });
  const charts = createCharts({
    catalog: dataCatalog, db: runners.urgent, precomputed: source.view !== null, compilers: colors.domain(), colorOf, dataUrl,
    state: current, show, link: absoluteUrlFor, tools: results.tools,
    redraw: () => void render(page, page.pendingFocus),
    focusGiven: (focus) => {
      if (page.pendingFocus === focus) page.pendingFocus = undefined;
    },
  });
  main.replaceChildren(charts.element);

  const { precisionModes } = dataCatalog;
  const modes = [...new Set(dataCatalog.charts.map((c) => c.mode))];
  const catalog: StateCatalog = {
    versions, charts: new Set(charts.entries.map((c) => c.key)), configs: new Set(configs.map(configKey)), modes, precisionModes,
    hardware, defaultHardware: defaultHardware(hardware)?.slug ?? null, hasExtended: dataCatalog.extendedConfigs.length > 0,
  };
  const state = initialState(catalog);
  const choice = hardwareChoice(hardware, selectedHardware, (hw) => location.assign(absoluteUrlFor({ ...current(), hw })));
  if (choice) byId('measurement').closest('details')?.before(choice);
  // The extended builds, as the hardware, decide what every table holds: a new page load.
  const onControls = (patch: StatePatch) => (patch.ext !== undefined && patch.ext !== current().ext
    ? location.assign(absoluteUrlFor({ ...current(), ext: patch.ext }))
    : show(patched(current(), patch, versions, precisionModes)));
  const controls = createControls(byId('controls'), versions, onControls, versions.length - dataCatalog.currentVersions.length, {
    reference: modes.filter((m) => !precisionModes.includes(m)), precision: precisionModes,
    coverage: precisionCoverageText(precisionModes, dataCatalog.rounds, versions),
  }, [...new Set(dataCatalog.extendedConfigs.map((c) => c.flag_set))]);
  const analysis = createAnalysis(byId('analysis'), {
    db: runners.background, versions, currentVersions: dataCatalog.currentVersions, configs, compilers: colors.domain(), colorOf, charts: dataCatalog.charts, hardware, selectedHardware,
    precisionModes, rounds: dataCatalog.rounds, countedVersions: dataCatalog.countedVersions, depColumns: dataCatalog.depColumns, measuredVersions: dataCatalog.measuredVersions,
    update: (patch) => show({ ...current(), ...patch }),
    link: (patch) => absoluteUrlFor({ ...current(), chart: null, ...patch }),
    tools: results.tools,
  });
  const page: Page = {
    state, pendingFocus: undefined,
    painting: { firstPainted: false, allPainted: false, legendMetric: DEFAULTS.metric },
    source, runners, main, versions, colors, charts, catalog, loadedHardware: state.hw, loadedExtended: dataCatalog.extended, controls, results, analysis,
  };
  return page;
}

/**
 * The state in the URL, less what the data does not hold (with a notice saying so); the URL is
 * replaced by the state's own, so it shows what is displayed rather than what the link asked for.
 */
function initialState(catalog: StateCatalog): AppState {
  const decoded = stateFromLocation();
  const reconciled = reconcileState(decoded.state, catalog);
  showLinkNotice(byId('notices'), [...decoded.problems, ...reconciled.problems]);
  const state = reconciled.state;
  if (decoded.problems.length || !sameState(state, decoded.state)) history.replaceState(null, '', urlFor(state));
  return state;
}

/**
 * The state after a change of the controls; Reset is for the filters: an open console and the
 * hardware stay as they are. The precision modes measure requests/second only: picking one shows
 * requests/second, and picking another metric there goes back to the reference modes.
 */
function patched(state: AppState, patch: StatePatch, versions: readonly string[], precisionModes: readonly string[]): AppState {
  const { reset, ...fields } = patch;
  if (reset) return { ...DEFAULTS, hw: state.hw, ext: state.ext, sql: state.sql, limit: state.limit };
  const next = { ...state, ...fields };
  const precise = protocolOf(next.mode, precisionModes) === 'precision';
  if (precise && patch.mode !== undefined) next.metric = 'rps';
  else if (precise && next.metric !== 'rps') next.mode = 'all';
  return orderRange(next, versions);
}

/** Shows a new state: a reader's action, pushed to history; `focus` says where keyboard focus goes once drawn. */
function setState(page: Page, next: AppState, focus?: FocusRequest): void {
  if (focus) performance.mark('drilldown:start');
  recordState(next, 'push', page.state);
  page.state = next;
  page.pendingFocus = focus;
  void render(page, focus);
}

/** Scrolls to the state's chart or section, or to the top. */
function scrollToState(page: Page, { chart, section }: AppState): void {
  if (chart) document.getElementById(chartElementId(chart))?.scrollIntoView({ block: 'start' });
  else if (section) page.analysis.scrollTo(section);
  else window.scrollTo({ top: 0 });
}

/** Back and forward: shows the state they move to (another hardware class is a new page load). */
function followHistory(page: Page): void {
  onHistoryMove((moved) => {
    const previous = page.state;
    const next = reconcileState(moved.state, page.catalog);
    if (next.state.hw !== page.loadedHardware || next.state.ext !== page.loadedExtended) {
      location.reload();
      return;
    }
    showLinkNotice(byId('notices'), [...moved.problems, ...next.problems]);
    page.state = next.state;
    void render(page).then(() => {
      if (previous.chart !== page.state.chart || previous.section !== page.state.section) scrollToState(page, page.state);
    });
  });
}

/**
 * Draws the page for the first time and starts what follows it: the header (after the charts:
 * on two cores DuckDB's worker and the drawing would otherwise compete for the same CPU), the
 * sections, the noise verdicts, and at idle the drilldowns (all of them when they are small
 * enough to fetch whole, else those of each chart that comes near the screen) and the other
 * instrument's charts; page:ready marks the page idle after them and the answer's rounds, with the
 * engine started.
 */
async function openPage(page: Page, header: () => Promise<CoverageRow>, answerRounds: Promise<void>): Promise<void> {
  followHistory(page);
  const { charts, analysis } = page;
  await render(page);
  if (page.state.chart || page.state.section) scrollToState(page, page.state);
  trackScrolledChart(
    () => [...analysis.places(), ...charts.entries.filter((c) => !c.card.element.hidden).map((c) => ({ key: c.key, element: c.card.element }))],
    () => page.state.chart ?? (page.state.section ? `#${page.state.section}` : null),
    (place) => {
      // Scrolling names the chart in view; the open section (a tab) stays open.
      const chart = place === null || analysis.sectionOf(place) !== null ? null : place;
      if (chart === page.state.chart) return;
      const next = { ...page.state, chart };
      recordState(next, 'replace', page.state);
      page.state = next;
    },
  );
  // The header grows above the charts; the browser's scroll anchoring keeps the chart in view.
  await header();
  // Whether anything has been counted yet: the counted metrics say so in the control.
  void page.runners.background.run(countedFiguresQuery()).then(([row]) => page.controls.setCounted(row?.figures ?? 0), (error: unknown) => console.warn('counted figures unknown', error));
  analysis.start();
  // Charts drawn before their noise verdicts (the engine's) are drawn again with them.
  await charts.wantVerdicts().then(() => render(page, page.pendingFocus), warnVerdicts);
  // Once the page is idle, the drilldowns when the build kept them in one file (small data: then
  // no click waits); otherwise each chart's, from its file, as the chart comes near the screen (a
  // tap on a phone has no hover before it: the click then only draws), or when it is pointed at,
  // focused or opened. The page is ready when the drilldowns of the charts near the screen and the
  // other instrument's charts are at hand, the answer's rounds drawn and the engine started:
  // nothing else then loads.
  whenIdle(() => {
    // In the metric shown when the chart comes near (a pointer or focus fetches another's).
    const near = onceNearScreen(charts.entries.filter((c) => page.runners.ownDrilldownFile(c.mode, c.test, DEFAULTS.metric)).map((c) => ({
      element: c.card.element,
      act: () => {
        const { metric } = page.state;
        return page.runners.ownDrilldownFile(c.mode, c.test, metric) ? charts.data.configRows(c.mode, c.test, metric) : undefined;
      },
    })));
    void Promise.allSettled([page.runners.prefetch(), near, otherInstrument(page), answerRounds, page.source.database()]).then(() => performance.mark('page:ready'));
  });
}

/**
 * The charts of the other instrument a reader switches to (requests/second, or from there
 * instructions per request), fetched and decoded when precomputed files hold them: a switch then
 * only draws.
 */
function otherInstrument(page: Page): Promise<unknown> {
  const other = { ...page.state, metric: page.state.metric === RPS.id ? DEFAULTS.metric : RPS.id };
  const inFiles = page.source.view !== null && other.releases === DEFAULTS.releases;
  return inFiles ? page.charts.prepare(other) : Promise.resolve();
}
