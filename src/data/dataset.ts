/**
 * Loads the published dataset into DuckDB: fetches the five files while the database starts,
 * registers them and prepares the tables. Failures become LoadErrors with a sentence for people.
 */
import type { QueryRunner } from '../sql/query';
import { startDatabase } from './duckdb';
import { fetchDataFile, type FileOutcome } from './files';
import { REQUIRED_TABLE, TABLES, tableFile, type TableName } from './schema';
import { type Catalog, prepareTables } from './tables';

/** The dataset ready to query, or the fact that nothing has been published yet. */
export type LoadResult =
  | { readonly kind: 'ready'; readonly db: QueryRunner; readonly catalog: Catalog; readonly missing: readonly TableName[] }
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
  const dbPromise = startDatabase();
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
  for (const [table, outcome] of files) {
    if (outcome.kind !== 'ok') continue;
    await db.registerFile(tableFile(table), outcome.bytes);
    present.add(table);
  }
  try {
    const catalog = await prepareTables(db, present, hardware);
    performance.mark('tables:ready');
    return { kind: 'ready', db, catalog, missing: TABLES.filter((t) => !present.has(t)) };
  } catch (err) {
    throw new LoadError('The benchmark data could not be read', message(err));
  }
}
