/**
 * What the build adds to a data folder next to the published Parquet files: first-view.json
 * (src/data/firstView.ts), computed by the site's own SQL on the same DuckDB version under Node.
 * Run through scripts/site-data.mjs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { computeFirstView, FIRST_VIEW_FILE, type FirstView } from '../src/data/firstView';
import { TABLES, tableFile, type TableName } from '../src/data/schema';
import { prepareTables } from '../src/data/tables';
import type { Query, QueryRunner } from '../src/sql/query';
import { openNodeDuckDB } from '../tests/support/node-duckdb.mjs';

/** Computes the first view of the Parquet files in `dir` (null when there is no plan.parquet: nothing published). */
export async function firstViewOf(dir: string): Promise<FirstView | null> {
  const present = TABLES.filter((table) => fs.existsSync(path.join(dir, tableFile(table))));
  if (!present.includes('plan')) return null;
  const { db, run } = await openNodeDuckDB();
  const files: Partial<Record<TableName, number>> = {};
  for (const table of present) {
    const bytes = new Uint8Array(fs.readFileSync(path.join(dir, tableFile(table))));
    files[table] = bytes.length;
    db.registerFileBuffer(tableFile(table), bytes);
  }
  const runner: QueryRunner = { run: async <Row>(q: Query<Row>) => run(q.sql, [...q.params]) as Row[] };
  const catalog = await prepareTables(runner, new Set(present));
  return computeFirstView(runner, catalog, files);
}

/** Writes `dir`/first-view.json (or removes a stale one when nothing is published); returns its path. */
export async function writeSiteData(dir: string): Promise<string> {
  const out = path.join(dir, FIRST_VIEW_FILE);
  const view = await firstViewOf(dir);
  if (!view) {
    fs.rmSync(out, { force: true });
    return out;
  }
  fs.writeFileSync(out, JSON.stringify(view));
  return out;
}
