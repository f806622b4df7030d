/**
 * Loads the published dataset into DuckDB: fetches the files while the database starts,
 * registers them and prepares the tables. Failures become LoadErrors with a sentence for people.
 * DuckDB-WASM's module is imported here on demand, so the page's first script does not carry it.
 */
import type { Database } from './duckdb';
import { fetchDataFile, type FileOutcome } from './files';
import { FIRST_VIEW_FILE, type FirstView, isFirstView } from './firstView';
import { REQUIRED_TABLE, TABLES, tableFile, type TableName } from './schema';
import { type Catalog, prepareTables } from './tables';

/** The dataset ready to query, or the fact that nothing has been published yet. */
export type LoadResult =
  | {
    readonly kind: 'ready'; readonly db: Database; readonly catalog: Catalog; readonly missing: readonly TableName[];
    /** Byte size of each file loaded. */
    readonly sizes: Readonly<Partial<Record<TableName, number>>>;
  }
  | { readonly kind: 'empty' };

/** What a reader can do about a failure. */
const DATA_HINT = 'Reload the page to try again. If the error stays, the published data files are broken and need to be written again by the collector.';
const ENGINE_HINT = 'This site runs DuckDB in your browser with WebAssembly. Reload the page to try again, or use a current version of Chrome, Firefox, Safari or Edge.';

/** Loading failed: `title` is the headline for the page, the message the details, `hint` what to do. */
export class LoadError extends Error {
  override name = 'LoadError';
  constructor(readonly title: string, message: string, readonly hint: string = DATA_HINT) {
    super(message);
  }
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Loads every table from `dataUrl` (a folder URL ending in '/'), showing the hardware class whose
 * slug is `hardware` (null or unknown: the default class; the catalog says which one it is).
 */
export async function loadDataset(dataUrl: string, hardware: string | null): Promise<LoadResult> {
  const dbPromise = import('./duckdb').then((engine) => engine.startDatabase());
  // Fail once, below, with a sentence: not as an unhandled rejection while the files load.
  dbPromise.catch(() => undefined);
  const files = await Promise.all(
    TABLES.map(async (table) => [table, await fetchDataFile(new URL(tableFile(table), dataUrl).href)] as const),
  );
  performance.mark('data:fetched');
  const outcomes = new Map<TableName, FileOutcome>(files);
  if (outcomes.get(REQUIRED_TABLE)?.kind === 'missing') return { kind: 'empty' };
  for (const [table, outcome] of files) {
    if (outcome.kind === 'corrupt') {
      throw new LoadError(`The data file ${tableFile(table)} is damaged`, `It cannot be read: ${outcome.reason}.`);
    }
  }

  let db;
  try {
    db = await dbPromise;
  } catch (err) {
    throw new LoadError('The in-browser database (DuckDB-WASM) could not start', message(err), ENGINE_HINT);
  }
  performance.mark('duckdb:ready');

  const present = new Set<TableName>();
  const sizes: Partial<Record<TableName, number>> = {};
  for (const [table, outcome] of files) {
    if (outcome.kind !== 'ok') continue;
    sizes[table] = outcome.bytes.length;
    await db.registerFile(tableFile(table), outcome.bytes);
    present.add(table);
  }
  try {
    const catalog = await prepareTables(db, present, hardware);
    performance.mark('tables:ready');
    return { kind: 'ready', db, catalog, missing: TABLES.filter((t) => !present.has(t)), sizes };
  } catch (err) {
    throw new LoadError('The benchmark data could not be read', message(err));
  }
}

/**
 * The first view published next to the data files (firstView.ts), or null when there is none
 * (a dev server, a data folder not built by `npm run build`) or it cannot be read: the page then
 * waits for the engine, as it would without the file.
 */
export async function fetchFirstView(dataUrl: string): Promise<FirstView | null> {
  try {
    const response = await fetch(new URL(FIRST_VIEW_FILE, dataUrl).href);
    // A server that answers unknown paths with index.html has no file either.
    if (!response.ok || !response.headers.get('content-type')?.includes('json')) return null;
    const view: unknown = await response.json();
    return isFirstView(view) ? view : null;
  } catch {
    return null;
  }
}
