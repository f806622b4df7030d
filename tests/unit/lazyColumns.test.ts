/**
 * The split files the build writes (scripts/siteData.ts) hold the published tables exactly: read
 * as the page reads them (lean files, lazy columns filled on demand), every table has the rows of
 * the published file, its lazy columns NULL until filled.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAZY_COLUMNS, lazyFile, leanFile, storedName, TABLES, tableFile, type TableName } from '../../src/sql/schema';
import { prepareTables } from '../../src/data/tables';
import { fillLazySql, lazyReaders } from '../../src/sql/load';
import { query, type Query, type QueryRunner } from '../../src/sql/query';
import { firstViewOf } from '../../scripts/siteData';
import { METRICS } from '../../src/vocabulary';
import { openDataDirDb, type FixtureDb } from '../support/fixture-db';
import { openNodeDuckDB } from '../support/node-duckdb.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-columns-'));
const present = TABLES.filter((t) => fs.existsSync(path.resolve(here, '../fixtures', `fixture-${tableFile(t)}`)));
let split: readonly TableName[] = [];
let full: FixtureDb;
let lean: QueryRunner;

/** A database read as the page reads it: the lean files registered, each lazy file registered but not filled. */
async function openLean(): Promise<QueryRunner> {
  const { db, run } = await openNodeDuckDB();
  for (const t of present) db.registerFileBuffer(tableFile(t), new Uint8Array(fs.readFileSync(path.join(dir, split.includes(t) ? leanFile(t) : tableFile(t)))));
  for (const t of split) db.registerFileBuffer(`${t}.lazy.parquet`, new Uint8Array(fs.readFileSync(path.join(dir, lazyFile(t)))));
  const runner = { run: async <Row>(q: Query<Row>) => run(q.sql, [...q.params]) as Row[] };
  await prepareTables(runner, new Set(present), null, new Set(split));
  return runner;
}

beforeAll(async () => {
  for (const t of present) fs.copyFileSync(path.resolve(here, '../fixtures', `fixture-${tableFile(t)}`), path.join(dir, tableFile(t)));
  split = (await firstViewOf(dir, { split: true }))?.view.split ?? [];
  full = await openDataDirDb(dir);
  lean = await openLean();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const everyRow = (table: TableName) => query<Record<string, unknown>>(`SELECT * FROM ${storedName(table)} ORDER BY ALL`);

describe('the split files', () => {
  it('split every table that has lazy columns', () => {
    expect([...split].sort()).toEqual(present.filter((t) => LAZY_COLUMNS[t]).sort());
  });

  it('give a p95 or p99 latency only once results\' lazy file is filled, which their views name; p50 is in the lean file', async () => {
    const page = await openLean();
    const figures = (table: string) => query<{ n: number }>(`SELECT count(best_value)::INTEGER AS n FROM ${table}`);
    const [p50Before] = await page.run(figures(METRICS.p50.table));
    const [p99Before] = await page.run(figures(METRICS.p99.table));
    expect(p50Before?.n).toBeGreaterThan(0);
    expect(p99Before?.n).toBe(0);
    expect(lazyReaders('results')).toEqual(expect.arrayContaining([METRICS.p95.table, METRICS.p99.table]));
    expect(lazyReaders('results')).not.toContain(METRICS.p50.table);
    await page.run(query(fillLazySql('results', 'results.lazy.parquet')));
    for (const m of [METRICS.p50, METRICS.p95, METRICS.p99]) {
      const rows = query<Record<string, unknown>>(`SELECT * FROM ${m.table} ORDER BY ALL`);
      expect(await page.run(rows), m.id).toEqual(await full.runner.run(rows));
    }
  });

  it('give every row of the published table, lazy columns NULL until filled, then exactly as published', async () => {
    for (const table of split) {
      const columns = LAZY_COLUMNS[table]?.columns ?? [];
      const published = await full.runner.run(everyRow(table));
      const before = await lean.run(query<Record<string, unknown>>(`SELECT * FROM ${storedName(table)}`));
      expect(before.length, table).toBe(published.length);
      expect(before.every((row) => columns.every((c) => row[c] === null)), table).toBe(true);
      await lean.run(query(fillLazySql(table, `${table}.lazy.parquet`)));
      expect(await lean.run(everyRow(table)), table).toEqual(published);
    }
  });
});
