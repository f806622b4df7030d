/**
 * Loads the published dataset into DuckDB: fetches the files while the database starts,
 * registers them and prepares the tables. Failures become LoadErrors with a sentence for people.
 * DuckDB-WASM's module is imported here on demand, so the page's first script does not carry it.
 */
import type { Database } from './duckdb';
import { fetchDataFile, type FileOutcome } from './files';
import { type Answer, FIRST_VIEW_FILE, type FirstView, isAnswerFile, isFirstView } from './firstView';
import { fillLazySql, lazyReaders } from '../sql/load';
import { query } from '../sql/query';
import { lazyFile, leanFile, REQUIRED_TABLE, TABLES, tableFile, type TableName } from '../sql/schema';
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
 * slug is `hardware` (null or unknown: the default class; the catalog says which one it is), and
 * the extended configurations beside the reference ones when `extended`. The
 * `split` tables are loaded from their lean files; their lazy columns (src/sql/schema.ts) are fetched when
 * a query names one, or before any console script.
 */
export async function loadDataset(
  dataUrl: string, hardware: string | null, splitTables: Promise<readonly TableName[]> | readonly TableName[] = [], extended = false,
): Promise<LoadResult> {
  const dbPromise = import('./duckdb').then((engine) => engine.startDatabase());
  // Fail once, below, with a sentence: not as an unhandled rejection while the files load.
  dbPromise.catch(() => undefined);
  const split = await splitTables;
  const files = await Promise.all(
    TABLES.map(async (table) => [table, await fetchDataFile(new URL(split.includes(table) ? leanFile(table) : tableFile(table), dataUrl).href)] as const),
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
    const lean = split.filter((t) => present.has(t));
    const catalog = await prepareTables(db, present, hardware, new Set(lean), extended);
    performance.mark('tables:ready');
    return { kind: 'ready', db: withLazyColumns(db, dataUrl, lean), catalog, missing: TABLES.filter((t) => !present.has(t)), sizes };
  } catch (err) {
    throw new LoadError('The benchmark data could not be read', message(err));
  }
}

/**
 * `db` whose split tables get their lazy columns on demand: before a query that names one of a
 * table's lazy columns or a view over one (lazyReaders: l1_status), that table's; before any
 * script (the console: `SELECT *` names none), all.
 */
function withLazyColumns(db: Database, dataUrl: string, split: readonly TableName[]): Database {
  const loading = new Map<TableName, Promise<void>>();
  const load = (table: TableName) => {
    let done = loading.get(table);
    if (!done) {
      done = (async () => {
        const outcome = await fetchDataFile(new URL(lazyFile(table), dataUrl).href);
        if (outcome.kind !== 'ok') throw new LoadError(`The data file ${lazyFile(table)} could not be read`, outcome.kind === 'missing' ? 'It is missing.' : outcome.reason);
        const name = `${table}.lazy.parquet`;
        await db.registerFile(name, outcome.bytes);
        await db.run(query(fillLazySql(table, name)));
        performance.mark(`lazy:${table}`);
      })();
      // A failed fetch is tried again by the next query that needs it.
      done.catch(() => loading.delete(table));
      loading.set(table, done);
    }
    return done;
  };
  const named = split.map((table) => ({ table, pattern: new RegExp(`\\b(${lazyReaders(table).join('|')})\\b`) }));
  const all = () => Promise.all(split.map(load));
  return {
    async run(q) {
      // Names inside string literals ('ir' as a metric's id) are not columns.
      const sql = q.sql.replace(/'(?:[^']|'')*'/g, "''");
      await Promise.all(named.filter(({ pattern }) => pattern.test(sql)).map(({ table }) => load(table)));
      return db.run(q);
    },
    registerFile: (name, bytes) => db.registerFile(name, bytes),
    async runScript(statements, limit, signal) {
      await all();
      return db.runScript(statements, limit, signal);
    },
    async scriptToParquet(statements, signal) {
      await all();
      return db.scriptToParquet(statements, signal);
    },
  };
}

/**
 * The first view published next to the data files (firstView.ts), or null when there is none
 * (a dev server, a data folder not built by `npm run build`) or it cannot be read: the page then
 * waits for the engine, as it would without the file.
 */
export async function fetchFirstView(dataUrl: string): Promise<FirstView | null> {
  const view = await fetchJson(new URL(FIRST_VIEW_FILE, dataUrl).href);
  return isFirstView(view) ? view : null;
}

/** The answers of one further answer file the first view names (firstView.ts); none when absent or unreadable. */
export async function fetchAnswers(dataUrl: string, file: string): Promise<readonly Answer[]> {
  const answers = await fetchJson(new URL(file, dataUrl).href);
  return isAnswerFile(answers) ? answers.answers : [];
}

/** A JSON file's value, or null when it is missing (a server that answers with index.html has none) or broken. */
async function fetchJson(url: string): Promise<unknown> {
  try {
    const response = await fetch(url);
    if (!response.ok || !response.headers.get('content-type')?.includes('json')) return null;
    return (await response.json()) as unknown;
  } catch {
    return null;
  }
}
