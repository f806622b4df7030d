// @ts-check
/**
 * DuckDB for Node: the same engine and version the site runs in the browser (DuckDB-WASM 1.28.0,
 * DuckDB 0.9.1), through its blocking Node build, so that tests and the fixture generator speak
 * exactly the site's SQL dialect. Only tests and tools import this file; src/ never does.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const duckdb = require('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs');
const dist = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs'));

/**
 * Starts an in-memory database and returns a connection whose `query(sql, params)` returns plain
 * row objects (Arrow rows converted with toJSON).
 * @returns {Promise<{ db: any, run: (sql: string, params?: unknown[]) => Record<string, unknown>[] }>}
 */
export async function openNodeDuckDB() {
  const db = await duckdb.createDuckDB(
    {
      mvp: { mainModule: path.join(dist, 'duckdb-mvp.wasm'), mainWorker: path.join(dist, 'duckdb-node-mvp.worker.cjs') },
      eh: { mainModule: path.join(dist, 'duckdb-eh.wasm'), mainWorker: path.join(dist, 'duckdb-node-eh.worker.cjs') },
    },
    new duckdb.VoidLogger(),
    duckdb.NODE_RUNTIME,
  );
  await db.instantiate(() => {});
  const conn = db.connect();
  /** @type {(sql: string, params?: unknown[]) => Record<string, unknown>[]} */
  const run = (sql, params = []) => {
    try {
      if (!params.length) return conn.query(sql).toArray().map((/** @type {any} */ row) => row.toJSON());
      // A prepared statement holds engine memory until closed: the build prepares hundreds.
      const statement = conn.prepare(sql);
      try {
        return statement.query(...params).toArray().map((/** @type {any} */ row) => row.toJSON());
      } finally {
        statement.close();
      }
    } catch (err) {
      // The engine's own message is enough; the minified bundle in the stack is not.
      throw new Error(`${err instanceof Error ? err.message : String(err)}\nSQL: ${sql}`);
    }
  };
  return { db, run };
}
