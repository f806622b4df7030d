/**
 * The DuckDB floor: a bare DuckDB-WASM page (the same engine build as the site, nothing else
 * loaded) that fetches the published Parquet files, prepares the tables and runs the version bars
 * query exactly as the site does, and draws every chart: the least the engine path can cost.
 */
import * as duckdb from '@duckdb/duckdb-wasm';
import ehWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import mvpWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import mvpWasm from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import { fetchDataFile } from '../../../src/data/files';
import { TABLES, tableFile } from '../../../src/sql/schema';
import { prepareTables } from '../../../src/data/tables';
import { versionBarsQuery } from '../../../src/sql/charts';
import { RPS } from '../../../src/vocabulary';
import type { Query, QueryRunner } from '../../../src/sql/query';
import { dataUrl, drawCharts } from './draw';

const absolute = (url: string) => new URL(url, location.href).href;
const bundle = await duckdb.selectBundle({
  mvp: { mainModule: absolute(mvpWasm), mainWorker: absolute(mvpWorker) },
  eh: { mainModule: absolute(ehWasm), mainWorker: absolute(ehWorker) },
});
// The site's fetch: a server that answers a missing file with index.html has no such file.
const files = Promise.all(TABLES.map(async (table) => {
  const outcome = await fetchDataFile(new URL(tableFile(table), dataUrl()).href);
  return [table, outcome.kind === 'ok' ? outcome.bytes : null] as const;
}));
const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), new Worker(bundle.mainWorker ?? ''));
await db.instantiate(bundle.mainModule);
const conn = await db.connect();
performance.mark('duckdb:ready');
const present = new Set<(typeof TABLES)[number]>();
for (const [table, bytes] of await files) {
  if (!bytes) continue;
  await db.registerFileBuffer(tableFile(table), bytes);
  present.add(table);
}
const runner: QueryRunner = {
  run: async <Row>(q: Query<Row>) => {
    const result = q.params.length ? await (await conn.prepare(q.sql)).query(...q.params) : await conn.query(q.sql);
    return result.toArray().map((row: { toJSON(): Row }) => row.toJSON());
  },
};
const catalog = await prepareTables(runner, present);
// The site's default: the current versions alone when the plan marks others.
await drawCharts([() => runner.run(versionBarsQuery(null, RPS, catalog.currentVersions.length < catalog.versions.length))], catalog.compilers);
