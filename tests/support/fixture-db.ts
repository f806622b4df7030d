/**
 * A QueryRunner over the fixture dataset (or any data folder) in a Node DuckDB (same engine
 * version as the site), with the tables prepared exactly as the site prepares them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TABLES, tableFile, type TableName } from '../../src/sql/schema';
import { type Catalog, prepareTables } from '../../src/data/tables';
import type { Query, QueryRunner } from '../../src/sql/query';
import { openNodeDuckDB } from './node-duckdb.mjs';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

/** A prepared database (fixture or data folder) and its catalog. */
export interface FixtureDb {
  runner: QueryRunner;
  catalog: Catalog;
  /** The catalog's versions, in release order. */
  versions: readonly string[];
}

/** The bytes of one fixture file. */
export function fixtureBytes(table: TableName): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(fixtures, `fixture-${tableFile(table)}`)));
}

/**
 * A fixture file rewritten by SQL: `select` reads the original as `fixture` and returns the rows
 * to write (e.g. "SELECT * EXCLUDE (rps) FROM fixture").
 */
export async function rewrittenFixture(table: TableName, select: string): Promise<Uint8Array> {
  const { db, run } = await openNodeDuckDB();
  db.registerFileBuffer('in.parquet', fixtureBytes(table));
  const out = path.join(os.tmpdir(), `fixture-${table}-${process.pid}-${Date.now()}.parquet`);
  run(`CREATE VIEW fixture AS SELECT * FROM read_parquet('in.parquet'); COPY (${select}) TO '${out}' (FORMAT PARQUET)`);
  const bytes = new Uint8Array(fs.readFileSync(out));
  fs.rmSync(out);
  return bytes;
}

/**
 * Opens the fixture dataset; `tables` limits which files are registered (default: all five),
 * `replace` substitutes the bytes of some of them, `hardware` is the slug of the hardware
 * class to show (default: the site's default class), and `extended` shows the extended
 * configurations beside the reference ones (the page's `ext=1`).
 */
export function openFixtureDb(
  tables: readonly TableName[] = TABLES,
  replace: Partial<Record<TableName, Uint8Array>> = {},
  hardware: string | null = null,
  extended = false,
): Promise<FixtureDb> {
  return openPrepared(tables, (table) => replace[table] ?? fixtureBytes(table), hardware, extended);
}

/** Opens the Parquet files of a data folder (e.g. the published public/data) as the site does. */
export function openDataDirDb(dir: string): Promise<FixtureDb> {
  const tables = TABLES.filter((table) => fs.existsSync(path.join(dir, tableFile(table))));
  return openPrepared(tables, (table) => new Uint8Array(fs.readFileSync(path.join(dir, tableFile(table)))));
}

async function openPrepared(
  tables: readonly TableName[], bytes: (table: TableName) => Uint8Array, hardware: string | null = null, extended = false,
): Promise<FixtureDb> {
  const { db, run } = await openNodeDuckDB();
  for (const table of tables) db.registerFileBuffer(tableFile(table), bytes(table));
  const runner: QueryRunner = {
    run: async <Row>(q: Query<Row>) => run(q.sql, [...q.params]) as Row[],
  };
  const catalog = await prepareTables(runner, new Set(tables), hardware, new Set(), extended);
  return { runner, catalog, versions: catalog.versions };
}
