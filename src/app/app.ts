/**
 * Wires the page: loads the dataset, renders header and charts for the state in the URL, turns
 * user actions into new states (pushed to history) and back/forward into re-renders.
 */
import { fetchFirstView, loadDataset, LoadError, type LoadResult } from '../data/dataset';
import type { Database } from '../data/duckdb';
import { type FirstView, sameFiles } from '../data/firstView';
import type { QueryRunner } from '../sql/query';
import { tableFile } from '../sql/schema';
import { byId } from '../ui/dom';
import { showLoadError, showMissingFilesNotice, showNoData } from '../ui/notices';
import { stateFromLocation } from './history';
import { showDataset } from './page';

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

  // The hardware and the extended builds decide what every derived table holds, so they are read before anything else.
  const { hw: hardware, ext: extended } = stateFromLocation().state;
  const published = publishedFirstView();
  // The first view is of the default hardware class and the reference configurations.
  const drawable = published.then((file) => (file && !extended && (hardware === null || hardware === file.catalog.selectedHardware?.slug) ? file : null));
  let wanted = () => {};
  const engineWanted = new Promise<void>((resolve) => (wanted = resolve));
  // Drawn from a first view, the page starts the engine (its module, worker and files) once the
  // first charts are painted, so they do not compete for the main thread, or as soon as something
  // no precomputed file answers is asked; otherwise at once.
  const engine = drawable
    .then((view) => (view ? engineWanted : undefined))
    .then(() => loadDataset(dataUrl(), hardware, published.then((v) => v?.split ?? []), extended));
  // Its failure is reported where it is awaited, not as an unhandled rejection meanwhile.
  engine.catch(() => undefined);
  const file = await published;
  const view = await drawable;
  if (view) {
    const database = () => (wanted(), engine.then(readyDatabase));
    const shown = showDataset({ db: deferredRunner(engine), database, view, wanted }, view.catalog, main, dataUrl());
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
    await showDataset({ db: loaded.db, database: () => Promise.resolve(loaded.db), view: null, wanted: () => {} }, loaded.catalog, main, dataUrl());
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
