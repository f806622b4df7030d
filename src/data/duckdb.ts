/**
 * The only module that imports DuckDB-WASM. It starts one database behind a shared promise,
 * serves every query through cached prepared statements, and attaches the SQL to any error.
 *
 * Version 1.28.0 (DuckDB 0.9.1) on purpose: it has the Parquet reader built in, while 1.29+
 * downloads it from DuckDB's CDN at the first Parquet query (docs/evidence/duckdb-wasm.md has the measurements).
 * The wasm and worker files are build assets of this site, and the worker refuses any request to
 * another origin (user SQL can name URLs), so no other origin is ever contacted.
 */
import * as duckdb from '@duckdb/duckdb-wasm';
import ehWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import mvpWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import mvpWasm from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import type { Query, QueryRunner, SqlParam } from '../sql/query';
import { firstKeyword, type Statement } from '../sql/scan';
import { type ArrowType, duckdbTypeName, isNumericType, plainValue, type PlainValue } from './arrowValues';

/** A query that DuckDB rejected, with the statement that caused it. */
export class QueryError extends Error {
  override name = 'QueryError';
  constructor(message: string, readonly sql: string) {
    super(`${message}\nSQL: ${sql.trim()}`);
  }
}

/** A user's statement that DuckDB rejected: `message` is DuckDB's own, `statement` the one that failed. */
export class UserSqlError extends Error {
  override name = 'UserSqlError';
  constructor(message: string, readonly statement: Statement) {
    super(message);
  }
}

/** A script run that was cancelled through its AbortSignal. */
export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor() {
    super('Cancelled.');
  }
}

/** One column of a script's result. */
export interface ResultColumn {
  readonly name: string;
  /** DuckDB's name of the type, e.g. BIGINT, VARCHAR, TIMESTAMP. */
  readonly type: string;
  readonly numeric: boolean;
}

/** The rows of a script's last statement, as plain values in column order. */
export interface ResultTable {
  readonly columns: readonly ResultColumn[];
  readonly rows: readonly (readonly PlainValue[])[];
  /** True when the statement returned more rows than the limit let through. */
  readonly truncated: boolean;
}

/** The running database: queries plus registering file contents under a name SQL can read. */
export interface Database extends QueryRunner {
  /** Makes `bytes` readable as `name` (e.g. read_parquet('results.parquet')). Takes ownership of the buffer. */
  registerFile(name: string, bytes: Uint8Array): Promise<void>;
  /**
   * Runs a user's script (the SQL console, a chart's query): its statements in order, on a
   * connection of its own, inside a transaction that is always rolled back, so nothing a script
   * does outlives it. Returns the last statement's rows, at most `limit` (Infinity for all).
   * Aborting `signal` cancels the statement running. Rejects with UserSqlError or CancelledError.
   */
  runScript(statements: readonly Statement[], limit: number, signal?: AbortSignal): Promise<ResultTable>;
  /** Runs the script the same way, its last statement (a query) written as a Parquet file: its bytes. */
  scriptToParquet(statements: readonly Statement[], signal?: AbortSignal): Promise<Uint8Array>;
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
  const { worker, wasmFailed } = sameOriginWorker(bundle.mainWorker);
  performance.mark('duckdb:worker');
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
  await startedOrFailed(db.instantiate(bundle.mainModule), wasmFailed);
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
        return plainRows<Row>(table);
      } catch (err) {
        throw new QueryError(err instanceof Error ? err.message : String(err), q.sql);
      }
    },
    async registerFile(name, bytes) {
      await db.registerFileBuffer(name, bytes);
    },
    ...scripts(db),
  };
}

/** The part of an Arrow table (1.28 types it as any) plainRows reads. */
interface ArrowColumns {
  readonly numRows: number;
  readonly schema: { readonly fields: readonly { readonly name: string }[] };
  getChildAt(index: number): { get(row: number): unknown } | null;
}

/**
 * A result's rows as plain objects, read column by column: the same values as each row's
 * toJSON(), several times faster for the thousands of rows of a prefetch.
 */
function plainRows<Row>(table: ArrowColumns): Row[] {
  const rows: Record<string, unknown>[] = Array.from({ length: table.numRows }, () => ({}));
  table.schema.fields.forEach(({ name }, c) => {
    const column = table.getChildAt(c);
    if (column) for (let r = 0; r < rows.length; r++) (rows[r] as Record<string, unknown>)[name] = column.get(r);
  });
  return rows as Row[];
}

/** Statements that would end the transaction every script runs in. */
const TRANSACTION_KEYWORDS = new Set(['BEGIN', 'START', 'COMMIT', 'END', 'ROLLBACK', 'ABORT']);

/** runScript and scriptToParquet, on a connection of their own, one script at a time. */
function scripts(db: duckdb.AsyncDuckDB): Pick<Database, 'runScript' | 'scriptToParquet'> {
  let connection: Promise<duckdb.AsyncDuckDBConnection> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  let exports = 0;

  /** Runs `last` after the other statements, inside a transaction that is rolled back. */
  const inTransaction = <T>(statements: readonly Statement[], signal: AbortSignal | undefined,
    last: (conn: duckdb.AsyncDuckDBConnection, statement: Statement) => Promise<T>): Promise<T> => {
    const run = async () => {
      connection ??= db.connect();
      const conn = await connection;
      const final = statements.at(-1);
      if (!final) throw new UserSqlError('There is no statement to run.', { sql: '', offset: 0 });
      for (const statement of statements) {
        if (TRANSACTION_KEYWORDS.has(firstKeyword(statement.sql))) {
          throw new UserSqlError('Transactions are not available here: every run starts from the published tables and is rolled back at its end.', statement);
        }
      }
      await conn.query('BEGIN TRANSACTION');
      try {
        for (const statement of statements.slice(0, -1)) await stream(conn, statement, 0, signal);
        return await last(conn, final);
      } finally {
        await conn.query('ROLLBACK').catch(() => undefined);
      }
    };
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  };

  return {
    runScript: (statements, limit, signal) => inTransaction(statements, signal, (conn, last) => stream(conn, last, limit, signal)),
    scriptToParquet: (statements, signal) =>
      inTransaction(statements, signal, async (conn, last) => {
        const file = `export-${++exports}.parquet`;
        // The statement's own lines stay as they are, so DuckDB's positions still map onto them.
        const prefix = 'COPY (\n';
        await stream(conn, { sql: `${prefix}${last.sql}\n) TO '${file}' (FORMAT PARQUET)`, offset: last.offset - prefix.length }, 0, signal);
        try {
          return await db.copyFileToBuffer(file);
        } finally {
          await db.dropFile(file);
        }
      }),
  };
}

interface ArrowBatch {
  readonly numRows: number;
  getChildAt(index: number): { get(row: number): unknown } | null;
}

/**
 * Sends one statement and reads up to `limit` rows of its result as they stream in. The query runs
 * in slices inside the worker, so the charts' queries still get their turn, and cancelSent() stops it.
 */
async function stream(conn: duckdb.AsyncDuckDBConnection, statement: Statement, limit: number, signal?: AbortSignal): Promise<ResultTable> {
  if (signal?.aborted) throw new CancelledError();
  const cancel = () => void conn.cancelSent();
  signal?.addEventListener('abort', cancel);
  try {
    // Opening the reader reads the schema (there is one even when no row follows).
    const reader = await (await conn.send(statement.sql)).open();
    const fields = reader.schema.fields as unknown as readonly { name: string; type: ArrowType }[];
    const rows: PlainValue[][] = [];
    let truncated = false;
    for await (const batch of reader as AsyncIterable<ArrowBatch>) {
      if (signal?.aborted) throw new CancelledError();
      const vectors = fields.map((_, i) => batch.getChildAt(i));
      const take = Math.min(batch.numRows, limit - rows.length);
      for (let r = 0; r < take; r++) rows.push(fields.map((f, i) => plainValue(vectors[i]?.get(r), f.type)));
      if (take < batch.numRows) {
        truncated = true;
        break;
      }
    }
    const columns = fields.map((f) => ({ name: f.name, type: duckdbTypeName(f.type), numeric: isNumericType(f.type) }));
    return { columns, rows, truncated };
  } catch (err) {
    if (signal?.aborted || err instanceof CancelledError) throw new CancelledError();
    throw new UserSqlError(err instanceof Error ? err.message : String(err), statement);
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/**
 * The DuckDB worker, started from a prelude that refuses every request to another origin: SQL
 * typed into the console (or carried by a link) can name http(s) and s3 URLs, which DuckDB-WASM
 * would otherwise fetch from inside the worker. The prelude also reports a wasm file the worker
 * could not fetch (`wasmFailed` rejects with why), which DuckDB-WASM itself keeps inside the
 * worker: so the page needs no request of its own to find out.
 */
function sameOriginWorker(workerUrl: string): { worker: Worker; wasmFailed: Promise<never> } {
  // A channel of this worker's own (another tab's engine must not answer it).
  const channelName = `rcb-duckdb-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const prelude = `const origin = ${JSON.stringify(location.origin)};
const allowed = (url) => { try { return new URL(url, origin).origin === origin; } catch { return false; } };
const open = XMLHttpRequest.prototype.open;
XMLHttpRequest.prototype.open = function (method, url, ...rest) {
  if (!allowed(String(url))) throw new Error('this site does not request other origins (' + url + ')');
  return open.call(this, method, url, ...rest);
};
const report = (text) => new BroadcastChannel(${JSON.stringify(channelName)}).postMessage(text);
const fetchAny = self.fetch.bind(self);
self.fetch = (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (!allowed(url)) return Promise.reject(new TypeError('this site does not request other origins'));
  if (!/\\.wasm$/.test(new URL(url, origin).pathname)) return fetchAny(input, init);
  return fetchAny(input, init).then(
    (response) => (response.ok || report('its wasm file is missing (HTTP ' + response.status + ' for ' + url + ')'), response),
    (err) => { report('its wasm file could not be fetched (' + (err && err.message || err) + ')'); throw err; });
};
importScripts(${JSON.stringify(workerUrl)});`;
  const url = URL.createObjectURL(new Blob([prelude], { type: 'text/javascript' }));
  const worker = new Worker(url);
  // The worker has fetched its script by the time it first answers.
  worker.addEventListener('message', () => URL.revokeObjectURL(url), { once: true });
  const channel = new BroadcastChannel(channelName);
  const wasmFailed = new Promise<never>((_, reject) => {
    channel.onmessage = (event: MessageEvent<string>) => reject(new Error(event.data));
  });
  return { worker, wasmFailed };
}

/** Longest wait for the engine to start (a slow connection downloads ~4.3 MB of gzipped wasm). */
const START_TIMEOUT_MS = 60_000;

/**
 * DuckDB-WASM's instantiate never settles when its worker fails to load the wasm (the rejection
 * stays inside the worker, where the page cannot catch it). Race it against the worker's report
 * of a failed wasm fetch and against a timeout, so the page can say what happened.
 */
async function startedOrFailed<T>(instantiate: Promise<T>, wasmFailed: Promise<never>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
  });
  try {
    return await Promise.race([instantiate, wasmFailed, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** The worker resolves relative URLs against its own location: hand it absolute ones. */
function absolute(url: string): string {
  return new URL(url, document.baseURI).href;
}
