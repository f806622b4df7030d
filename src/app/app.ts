/**
 * Wires the page: loads the dataset, renders header and charts for the state in the URL, turns
 * user actions into new states (pushed to history) and back/forward into re-renders.
 */
import { compilerColors } from '../chart/palette';
import { configKey } from '../model/analysisState';
import { defaultHardware } from '../model/hardware';
import { fetchFirstView, fetchMoreAnswers, loadDataset, LoadError, type LoadResult } from '../data/dataset';
import type { Database } from '../data/duckdb';
import { type Answer, answeringRunner, type FirstView, MORE_VIEW_FILES, sameFiles } from '../data/firstView';
import { prioritized } from '../data/priority';
import { tableFile } from '../sql/schema';
import { configBar, groupedByLine, versionBar } from '../model/bars';
import { minorLine } from '../model/versions';
import {
  type AppState, chartKey, chartMatches, DEFAULTS, orderRange, reconcileState, sameState,
} from '../model/state';
import type { Catalog } from '../data/tables';
import { countedFiguresQuery } from '../sql/counted';
import { compilersQuery, coverageQuery, datesQuery, machinesQuery, protocolQuery } from '../sql/meta';
import type { QueryRunner } from '../sql/query';
import { chartElementId, createChartCard, type ChartCard } from '../ui/chartCard';
import { createControls, type StatePatch } from '../ui/controls';
import { byId } from '../ui/dom';
import { hardwareChoice } from '../ui/hardware';
import { renderCoverage, renderMeasurement } from '../ui/header';
import { renderLegend } from '../ui/legend';
import { showLinkNotice, showLoadError, showMissingFilesNotice, showNoData } from '../ui/notices';
import { createChartData, verdictKey } from './chartData';
import { absoluteUrlFor, onHistoryMove, recordState, stateFromLocation, urlFor } from './history';
import { createOpenResults } from './openResults';
import { trackScrolledChart } from './scroll';
import { createAnalysis } from '../views/analysis';
import { metricOf } from '../vocabulary';

/** Where keyboard focus goes after a render: into an opened drilldown, or back to its version bar. */
interface FocusRequest {
  readonly key: string;
  readonly version: string;
  readonly kind: 'open' | 'close';
}

interface ChartEntry {
  readonly key: string;
  readonly mode: string;
  readonly test: string;
  readonly card: ChartCard;
}

/** Charts drawn before the first frame is let through, so the top of the page paints early. */
const FIRST_CHUNK = 4;

/** Lets other tasks run (DuckDB's module starting its worker, a click) between charts. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const nextFrame = () =>
  new Promise<void>((resolve) => {
    // rAF does not run in a background tab; the timeout keeps rendering going there.
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() => setTimeout(() => (clearTimeout(timer), resolve()), 0));
  });

/** Runs `task` when the browser is idle (Safari has no requestIdleCallback: soon, then). */
const whenIdle = (task: () => void) =>
  'requestIdleCallback' in window ? requestIdleCallback(task, { timeout: 2000 }) : setTimeout(task, 300);

/** Folder URL of the published data files. */
const dataUrl = () => new URL(`${import.meta.env.BASE_URL}data/`, location.href).href;

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Set (to the first view's file sizes) before a reload that must not use that first view again. */
const STALE_VIEW_KEY = 'rcb:stale-first-view';

/** The first view published with the data, unless this page found it stale before (watchEngine). */
async function publishedFirstView(): Promise<FirstView | null> {
  const view = await fetchFirstView(dataUrl());
  return view && sessionStorage.getItem(STALE_VIEW_KEY) !== JSON.stringify(view.files) ? view : null;
}

/**
 * Starts the page: draws it from the first view at once when there is one for the hardware class
 * shown, while DuckDB-WASM loads the data behind it for everything else; without one, once the
 * engine is ready.
 */
export async function startApp(): Promise<void> {
  const main = byId('charts');
  const fail = (fallbackTitle: string, err: unknown) => {
    const known = err instanceof LoadError ? err : new LoadError(fallbackTitle, errorText(err));
    showLoadError(main, known.title, known.message, known.hint);
    byId('controls').hidden = true;
  };
  window.addEventListener('unhandledrejection', (event) => fail('Something went wrong while drawing the charts', event.reason));

  // The hardware decides what every derived table holds, so it is read before anything else.
  const hardware = stateFromLocation().state.hw;
  const published = publishedFirstView();
  // The first view is of the default hardware class.
  const drawable = published.then((file) => (file && (hardware === null || hardware === file.catalog.selectedHardware?.slug) ? file : null));
  let wanted = () => {};
  const engineWanted = new Promise<void>((resolve) => (wanted = resolve));
  // Drawn from a first view, the page starts the engine (its module, worker and files) and
  // fetches the further answers once the first charts are painted, so they do not compete for the
  // main thread, or as soon as something the first view cannot answer is asked; otherwise at once.
  const engine = drawable
    .then((view) => (view ? engineWanted : undefined))
    .then(() => loadDataset(dataUrl(), hardware, published.then((v) => v?.split ?? [])));
  // Its failure is reported where it is awaited, not as an unhandled rejection meanwhile.
  engine.catch(() => undefined);
  const file = await published;
  const view = await drawable;
  if (view) {
    const more = MORE_VIEW_FILES.map((name) => engineWanted.then(() => fetchMoreAnswers(dataUrl(), name)));
    const database = () => (wanted(), engine.then(readyDatabase));
    const shown = showDataset({ db: deferredRunner(engine), database, view, more, wanted }, view.catalog, main);
    // Whatever happens to the page, the engine starts.
    void shown.finally(wanted);
    // An engine that fails replaces the charts with the reason, once they are drawn.
    watchEngine(engine, file, (err) => void shown.finally(() => fail('The benchmark data could not be loaded', err)));
    try {
      await shown;
    } catch (err) {
      fail('The benchmark data could not be read', err);
    }
    return;
  }
  watchEngine(engine, file, () => undefined);
  let loaded;
  try {
    loaded = await engine;
  } catch (err) {
    fail('The benchmark data could not be loaded', err);
    return;
  }
  if (loaded.kind === 'empty') {
    showNoData(main, 'The collector has not published any results yet: this site has no data/plan.parquet. Charts appear here as soon as the first cells are collected.');
    byId('controls').hidden = true;
    byId('coverage').textContent = 'No data collected yet.';
    return;
  }
  try {
    await showDataset({ db: loaded.db, database: () => Promise.resolve(loaded.db), view: null, more: [], wanted: () => {} }, loaded.catalog, main);
  } catch (err) {
    fail('The benchmark data could not be read', err);
  }
}

/**
 * Once the engine has loaded the data: reports missing files, and reloads the page once without
 * the first view when the data is not what it was made from (a data folder replaced without a
 * build). A failure goes to `failed` (with a first view drawn, nothing else awaits the engine yet).
 */
function watchEngine(engine: Promise<LoadResult>, view: FirstView | null, failed: (err: unknown) => void): void {
  void engine.then((loaded) => {
    if (view && (loaded.kind !== 'ready' || !sameFiles(view, loaded.sizes))) {
      console.warn('data/first-view.json was not made from these data files: reloading without it');
      sessionStorage.setItem(STALE_VIEW_KEY, JSON.stringify(view.files));
      location.reload();
      return;
    }
    if (loaded.kind === 'ready') showMissingFilesNotice(byId('notices'), loaded.missing.map(tableFile));
  }, failed);
}

function readyDatabase(loaded: LoadResult): Database {
  if (loaded.kind !== 'ready') throw new LoadError('The benchmark data could not be loaded', 'data/plan.parquet is missing.');
  return loaded.db;
}

/** A runner that waits for the engine: what a query the first view cannot answer goes to. */
function deferredRunner(engine: Promise<LoadResult>): QueryRunner {
  return { run: async (q) => readyDatabase(await engine).run(q) };
}

/** Where the page's queries go. */
interface Source {
  /** The database (or, with a first view, a runner that waits for it). */
  readonly db: QueryRunner;
  /** The database once the data is loaded: the console's and the downloads'. */
  readonly database: () => Promise<Database>;
  /** Answers to the first screenful's queries, when precomputed. */
  readonly view: FirstView | null;
  /** Further precomputed answers (the sections', the drilldowns), as they arrive. */
  readonly more: readonly Promise<readonly Answer[]>[];
  /** Starts the engine and the further answers' fetch (once the first charts are painted, or a query needs them). */
  readonly wanted: () => void;
}

async function showDataset(source: Source, dataCatalog: Catalog, main: HTMLElement): Promise<void> {
  const { versions, compilers: planCompilers, configs, charts: chartRows, hardware, selectedHardware } = dataCatalog;
  const colors = compilerColors(planCompilers);
  const colorOf = (compiler: string) => colors(compiler);
  renderLegend(byId('legend'), colors.domain(), colorOf);
  // What a reader waits on (charts, drilldowns) goes before what the page does on its own.
  const doors = prioritized(source.db);
  // The first view's answers skip the queue: they need no engine.
  const { view } = source;
  const urgent = view ? answeringRunner(view, doors.urgent, source.more, source.wanted) : doors.urgent;
  const background = view ? answeringRunner(view, doors.background, source.more, source.wanted) : doors.background;
  const header = async () => {
    const [[coverage], machines, compilers, protocol, [dates]] = await Promise.all([
      background.run(coverageQuery()), background.run(machinesQuery()), background.run(compilersQuery()),
      background.run(protocolQuery()), background.run(datesQuery()),
    ]);
    if (!coverage) throw new Error('The coverage query returned no row.');
    renderCoverage(byId('coverage'), coverage, hardware.length > 1 ? selectedHardware?.label : undefined);
    renderMeasurement(byId('measurement'), { coverage, machines, compilers, protocol, dates });
    return coverage;
  };

  if (!chartRows.length) {
    const coverage = await header();
    showNoData(main, `${coverage.collected_cells} of ${coverage.planned_cells} cells collected, but no benchmark result yet. Charts appear as soon as the first run finishes.`);
    byId('controls').hidden = true;
    return;
  }

  const data = createChartData(urgent, versions, background);
  const charts: ChartEntry[] = chartRows.map(({ mode, test }) => {
    const key = chartKey(mode, test);
    const card = createChartCard(key, mode, test, {
      open: (version) => setState({ ...state, open: { ...state.open, [key]: version }, chart: key }, { key, version, kind: 'open' }),
      close: () => {
        const version = state.open[key];
        if (version === undefined) return;
        const { [key]: _closed, ...open } = state.open;
        setState({ ...state, open, chart: key }, { key, version, kind: 'close' });
      },
      prefetch: () => void data.configRows(mode, test, state.metric),
      zoom: (line) => setState({ ...zoomedTo(line), chart: key }),
      zoomText: (line) => (zoomedTo(line).from === null ? 'Show every release again' : `Show only the ${line} releases`),
      link: () => absoluteUrlFor({ ...state, chart: key }),
    });
    return { key, mode, test, card };
  });
  const grid = document.createElement('div');
  grid.className = 'grid grid-cols-1 gap-4 xl:grid-cols-2';
  grid.append(...charts.map((c) => c.card.element));
  main.replaceChildren(grid);

  const catalog = {
    versions, charts: new Set(charts.map((c) => c.key)), configs: new Set(configs.map(configKey)),
    hardware, defaultHardware: defaultHardware(hardware)?.slug ?? null,
  };
  const decoded = stateFromLocation();
  const reconciled = reconcileState(decoded.state, catalog);
  showLinkNotice(byId('notices'), [...decoded.problems, ...reconciled.problems]);
  let state: AppState = reconciled.state;
  /** The state showing only the releases of a minor line; all releases when it already does. */
  const zoomedTo = (line: string): AppState => {
    const releases = versions.filter((v) => minorLine(v) === line);
    const from = releases[0] ?? null;
    const to = releases.at(-1) ?? null;
    return from === state.from && to === state.to ? { ...state, from: null, to: null } : { ...state, from, to };
  };
  // Show the URL of what is displayed, not of what the link asked for.
  if (decoded.problems.length || !sameState(state, decoded.state)) history.replaceState(null, '', urlFor(state));
  // The tables hold one hardware class (the one loaded); another is a new page load.
  const loadedHardware = state.hw;
  const choice = hardwareChoice(hardware, selectedHardware, (hw) => location.assign(absoluteUrlFor({ ...state, hw })));
  if (choice) byId('measurement').closest('details')?.before(choice);

  const controls = createControls(byId('controls'), versions, (patch: StatePatch) => {
    const { reset, ...fields } = patch;
    // Reset is for the filters: an open console and the hardware stay as they are.
    setState(reset ? { ...DEFAULTS, hw: state.hw, sql: state.sql, limit: state.limit } : orderRange({ ...state, ...fields }, versions));
  });
  const results = createOpenResults({
    data, compilers: colors.domain(), colorOf, dataUrl: dataUrl(), database: source.database,
    state: () => state, setState: (next) => setState(next), link: absoluteUrlFor,
  });
  for (const chart of charts) results.attach({ mode: chart.mode, test: chart.test, element: chart.card.element });
  const analysis = createAnalysis(byId('analysis'), {
    db: background, versions, configs, compilers: colors.domain(), colorOf, charts: chartRows, hardware, selectedHardware,
    update: (patch) => setState({ ...state, ...patch }),
    link: (patch) => absoluteUrlFor({ ...state, chart: null, ...patch }),
    tools: results.sectionTools,
  });

  // What each card last drew, so a render only redraws cards whose inputs changed.
  const drawn = new Map<string, string>();
  let renderCount = 0;
  let firstPainted = false;
  let allPainted = false;
  // A keyboard focus asked for and not yet given: a render that supersedes the one that was to
  // give it (the redraw when the noise verdicts arrive) gives it instead.
  let pendingFocus: FocusRequest | undefined;
  // Whether the page has asked for noise verdicts yet (they wait for the header at load).
  let verdictsWanted = false;
  let legendMetric = DEFAULTS.metric;

  async function render(focus?: FocusRequest): Promise<void> {
    const token = ++renderCount;
    // Until every chart has been painted once, whichever render gets there marks it.
    const initial = !allPainted;
    const s = state;
    const rowsByChart = await data.versionRows(s);
    if (token !== renderCount) return;
    // Noise verdicts (tie marks, regressions) arrive after the first paint; charts redraw once then.
    const metric = metricOf(s.metric);
    const verdicts = data.verdictsIfReady(s.metric);
    // Another metric's verdicts are asked for once the page's own have been (see the end of showDataset).
    if (!verdicts && verdictsWanted) void data.verdicts(s.metric).then(() => {
      if (state.metric === s.metric) void render(pendingFocus);
    }, (error: unknown) => console.warn('noise verdicts failed; charts are drawn without their marks', error));
    let visible = 0;
    for (const chart of charts) {
      const shown = chartMatches(s, chart.mode, chart.test);
      chart.card.setHidden(!shown);
      if (!shown) continue;
      visible++;
      const drill = s.open[chart.key];
      const signature = `${s.metric}|${s.view}|${data.range(s).key}|${drill ?? ''}|${verdicts ? 'noise' : ''}`;
      const focusHere = focus?.key === chart.key ? focus : undefined;
      if (drawn.get(chart.key) === signature && !focusHere) continue;
      chart.card.setMetric(metric);
      if (drill !== undefined) {
        const rows = (await data.configRows(chart.mode, chart.test, s.metric)).get(drill) ?? [];
        if (token !== renderCount) return;
        const call = verdicts?.get(verdictKey(chart.key, drill))?.winner_call;
        chart.card.showConfigs(drill, rows.map((r) => configBar(r, colorOf, call, metric)), s.view, focusHere?.kind === 'open');
      } else {
        const bars = groupedByLine((rowsByChart.get(chart.key) ?? []).map((r) => versionBar(r, colorOf, verdicts?.get(verdictKey(chart.key, r.version)), metric)));
        chart.card.showVersions(bars, s.view, focusHere?.kind === 'close' ? focusHere.version : undefined);
      }
      drawn.set(chart.key, signature);
      if (focusHere) {
        performance.mark('drilldown:drawn');
        if (pendingFocus === focusHere) pendingFocus = undefined;
      }
      if (initial && !firstPainted && visible === FIRST_CHUNK) {
        await nextFrame();
        firstPainted = true;
        performance.mark('charts:first-painted');
        source.wanted();
        if (token !== renderCount) return;
      } else if (initial && visible % FIRST_CHUNK === 0) {
        // Drawing every chart takes a while: the engine's start and a reader's click go between.
        await nextTask();
        if (token !== renderCount) return;
      }
    }
    controls.sync(s, visible, charts.length);
    if (legendMetric !== s.metric) {
      legendMetric = s.metric;
      renderLegend(byId('legend'), colors.domain(), colorOf, metric);
    }
    results.sync(s);
    analysis.render(s);
    main.setAttribute('aria-busy', 'false');
    if (initial) {
      if (!firstPainted) {
        await nextFrame();
        firstPainted = true;
        performance.mark('charts:first-painted');
        source.wanted();
      }
      await nextFrame();
      allPainted = true;
      performance.mark('charts:all-painted');
    }
  }

  function setState(next: AppState, focus?: FocusRequest): void {
    if (focus) performance.mark('drilldown:start');
    recordState(next, 'push', state);
    state = next;
    pendingFocus = focus;
    void render(focus);
  }

  const scrollTo = ({ chart, section }: AppState) => {
    if (chart) document.getElementById(chartElementId(chart))?.scrollIntoView({ block: 'start' });
    else if (section) analysis.scrollTo(section);
    else window.scrollTo({ top: 0 });
  };

  onHistoryMove((moved) => {
    const previous = state;
    const next = reconcileState(moved.state, catalog);
    if (next.state.hw !== loadedHardware) {
      location.reload();
      return;
    }
    showLinkNotice(byId('notices'), [...moved.problems, ...next.problems]);
    state = next.state;
    void render().then(() => {
      if (previous.chart !== state.chart || previous.section !== state.section) scrollTo(state);
    });
  });

  // Precomputed verdicts cost nothing to wait for: the first paint then has its noise marks.
  if (view && state.metric === DEFAULTS.metric) await data.verdicts();
  // The header's queries wait until the charts are painted: on two cores, DuckDB's worker and
  // the drawing would otherwise compete for the same CPU.
  await render();
  if (state.chart || state.section) scrollTo(state);
  trackScrolledChart(
    () => [...analysis.places(), ...charts.filter((c) => !c.card.element.hidden).map((c) => ({ key: c.key, element: c.card.element }))],
    () => state.chart ?? (state.section ? `#${state.section}` : null),
    (place) => {
      const section = place === null ? null : analysis.sectionOf(place);
      const chart = section === null ? place : null;
      if (chart === state.chart && section === state.section) return;
      const next = { ...state, chart, section };
      recordState(next, 'replace', state);
      state = next;
    },
  );
  // The header grows above the charts; the browser's scroll anchoring keeps the chart in view.
  await header();
  // Whether anything has been counted yet: the counted metrics say so in the control.
  void background.run(countedFiguresQuery()).then(([row]) => controls.setCounted(row?.figures ?? 0), (error: unknown) => console.warn('counted figures unknown', error));
  analysis.start();
  verdictsWanted = true;
  void data.verdicts(state.metric).then(() => render(pendingFocus));
  // Once the page is idle, fetch every chart's drilldowns in one query (a few thousand rows), so
  // that no click, tap or key waits for one; should it fail, each chart queries on its own.
  whenIdle(() =>
    void data
      .prefetchAllConfigRows(state.metric)
      .catch((error: unknown) => console.warn('drilldown prefetch failed; charts will query on demand', error))
      .finally(() => performance.mark('page:ready')),
  );
}
