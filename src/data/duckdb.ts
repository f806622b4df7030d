/**
 * The only module that imports DuckDB-WASM. It starts one database behind a shared promise,
 * serves every query through cached prepared statements, and attaches the SQL to any error.
 *
 * Version 1.28.0 (DuckDB 0.9.1) on purpose: it has the Parquet reader built in, while 1.29+
 * downloads it from DuckDB's CDN at the first Parquet query (docs/site.md has the measurements).
 * The wasm and worker files are build assets of this site, so no other origin is ever contacted.
 */
import * as duckdb from '@duckdb/duckdb-wasm';
import ehWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import mvpWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import mvpWasm from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import type { Query, QueryRunner, SqlParam } from '../sql/query';

/** A query that DuckDB rejected, with the statement that caused it. */
export class QueryError extends Error {
  override name = 'QueryError';
  constructor(message: string, readonly sql: string) {
    super(`${message}\nSQL: ${sql.trim()}`);
  }
}

/** The running database: queries plus registering file contents under a name SQL can read. */
export interface Database extends QueryRunner {
  /** Makes `bytes` readable as `name` (e.g. read_parquet('results.parquet')). Takes ownership of the buffer. */
  registerFile(name: string, bytes: Uint8Array): Promise<void>;
}

let started: Promise<Database> | null = null;

/** Starts DuckDB once; every caller shares the same database. */
export function startDatabase(): Promise<Database> {
  started ??= open();
  return started;
}

async function open(): Promise<Database> {
  const bundle = await duckdb.selectBundle({
    mvp: { mainModule: absolute(mvpWasm), mainWorker: absolute(mvpWorker) },
    eh: { mainModule: absolute(ehWasm), mainWorker: absolute(ehWorker) },
  });
  if (!bundle.mainWorker) throw new Error('DuckDB-WASM has no worker for this browser.');
  const worker = new Worker(bundle.mainWorker);
  performance.mark('duckdb:worker');
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
  await startedOrFailed(db.instantiate(bundle.mainModule), bundle.mainModule);
  const conn = await db.connect();
  const prepared = new Map<string, Promise<duckdb.AsyncPreparedStatement>>();

  const execute = async (sql: string, params: readonly SqlParam[]) => {
    if (!params.length) return conn.query(sql);
    let statement = prepared.get(sql);
    if (!statement) {
      statement = conn.prepare(sql);
      prepared.set(sql, statement);
      // A statement that failed to prepare must not stay cached.
      statement.catch(() => prepared.delete(sql));
    }
    return (await statement).query(...params);
  };

  return {
    async run<Row>(q: Query<Row>): Promise<Row[]> {
      const start = performance.now();
      try {
        const table = await execute(q.sql, q.params);
        // Timings of every statement, for `npm run bench` and the browser's performance panel.
        performance.measure(`sql: ${q.sql.trim().replace(/\s+/g, ' ').slice(0, 60)}`, { start });
        // 1.28 types rows as any: each is an Arrow StructRow whose toJSON() gives a plain object.
        return table.toArray().map((row: { toJSON(): Row }) => row.toJSON());
      } catch (err) {
        throw new QueryError(err instanceof Error ? err.message : String(err), q.sql);
      }
    },
    async registerFile(name, bytes) {
      await db.registerFileBuffer(name, bytes);
    },
  };
}

/** Longest wait for the engine to start (a slow connection downloads ~4.3 MB of gzipped wasm). */
const START_TIMEOUT_MS = 60_000;

/**
 * DuckDB-WASM's instantiate never settles when its worker fails to load the wasm (the rejection
 * stays inside the worker, where the page cannot catch it). Race it against a check that the
 * wasm file is there and against a timeout, so the page can say what happened.
 */
async function startedOrFailed<T>(instantiate: Promise<T>, wasmUrl: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const failed = new Promise<never>((_, reject) => {
    void fetch(wasmUrl, { method: 'HEAD' }).then(
      (response) => response.ok || reject(new Error(`its wasm file is missing (HTTP ${response.status} for ${wasmUrl})`)),
      (err: unknown) => reject(new Error(`its wasm file could not be fetched (${err instanceof Error ? err.message : String(err)})`)),
    );
    timer = setTimeout(() => reject(new Error(`it did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
  });
  try {
    return await Promise.race([instantiate, failed]);
  } finally {
    clearTimeout(timer);
  }
}

/** The worker resolves relative URLs against its own location: hand it absolute ones. */
function absolute(url: string): string {
  return new URL(url, document.baseURI).href;
}
