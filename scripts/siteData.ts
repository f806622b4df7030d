/**
 * What the build adds to a data folder next to the published Parquet files: the split files of
 * the tables with lazily loaded columns (split/, src/sql/schema.ts LAZY_COLUMNS), first-view.json
 * and the further answer files it names (first-view/, src/data/firstView.ts), computed by the
 * site's own SQL on the same DuckDB version under Node. Run through scripts/site-data.mjs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AnswerGroup, DRILLDOWNS_FILE, firstViewQueries } from '../src/app/firstViewQueries';
import { ANSWER_DIR, type AnswerFile, answerId, computeAnswers, FIRST_VIEW_FILE, FIRST_VIEW_FORMAT, type FirstView } from '../src/data/firstView';
import { LAZY_COLUMNS, lazyFile, leanFile, SCHEMA, TABLES, tableFile, type TableName } from '../src/sql/schema';
import { prepareTables } from '../src/data/tables';
import type { Query, QueryRunner } from '../src/sql/query';
import { openNodeDuckDB } from '../tests/support/node-duckdb.mjs';

type Run = (sql: string, params?: unknown[]) => Record<string, unknown>[];

/**
 * Writes a split table's lean file and lazy file into `dir`/split/; false (nothing written) when
 * its key is not unique, so a join could not put each row's lazy columns back on exactly one row.
 * A lazy column the published file lacks (written by an older collector: OPTIONAL_COLUMNS) is
 * NULL in the lazy file.
 */
function splitTable(run: Run, dir: string, table: TableName): boolean {
  const lazy = LAZY_COLUMNS[table];
  if (!lazy) return false;
  const source = `read_parquet('${tableFile(table)}')`;
  const key = lazy.key.map((k) => `"${k}"`).join(', ');
  const present = new Set(run(`DESCRIBE SELECT * FROM ${source}`).map((r) => String(r.column_name)));
  const stored = lazy.columns.filter((c) => present.has(c)).map((c) => `"${c}"`).join(', ');
  const columns = lazy.columns.map((c) => (present.has(c) ? `"${c}"` : `NULL::${SCHEMA[table][c] ?? 'VARCHAR'} AS "${c}"`)).join(', ');
  const [dup] = run(`SELECT count(*) - (SELECT count(*) FROM (SELECT DISTINCT ${key} FROM ${source})) AS n FROM ${source}`);
  if (Number(dup?.n) !== 0) return false;
  // DuckDB under Node writes to a path on disk: a temporary one, then moved into place.
  const write = (select: string, file: string) => {
    const tmp = path.join(os.tmpdir(), `site-data-${process.pid}-${path.basename(file)}`);
    run(`COPY (${select}) TO '${tmp}' (FORMAT PARQUET, COMPRESSION ZSTD)`);
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.renameSync(tmp, path.join(dir, file));
    fs.chmodSync(path.join(dir, file), 0o644);
  };
  write(stored ? `SELECT * EXCLUDE (${stored}) FROM ${source}` : `SELECT * FROM ${source}`, leanFile(table));
  write(`SELECT ${key}, ${columns} FROM ${source}`, lazyFile(table));
  return true;
}

/**
 * Every chart's drilldowns go in one file (DRILLDOWNS_FILE), which the page fetches once it is
 * idle, while that file is at most this many bytes of JSON (1 MiB: the published data's are
 * ~0.9 MB, ~0.18 MB gzip); above it (every release: ~10 MB), each chart's are a file of their own,
 * fetched once the page is idle as the chart comes near the screen, or when it is pointed at,
 * focused or opened.
 */
export const DRILLDOWN_BUNDLE_BYTES = 1 << 20;

/** The first view and the further answer files, by their path relative to the data folder. */
export interface SiteAnswers {
  readonly view: FirstView;
  readonly files: Readonly<Record<string, AnswerFile>>;
}

/**
 * Splits the tables with lazy columns and computes the first view and the further answer files
 * of the Parquet files in `dir` (null when there is no plan.parquet: nothing published); the
 * drilldowns in one file up to `drilldownBundleBytes`.
 */
export async function firstViewOf(
  dir: string, { split = false, drilldownBundleBytes = DRILLDOWN_BUNDLE_BYTES } = {},
): Promise<SiteAnswers | null> {
  const present = TABLES.filter((table) => fs.existsSync(path.join(dir, tableFile(table))));
  if (!present.includes('plan')) return null;
  const { db, run } = await openNodeDuckDB();
  for (const table of present) db.registerFileBuffer(tableFile(table), new Uint8Array(fs.readFileSync(path.join(dir, tableFile(table)))));
  const splitTables = split ? present.filter((table) => splitTable(run, dir, table)) : [];
  const files: Partial<Record<TableName, number>> = {};
  for (const table of present) {
    files[table] = fs.statSync(path.join(dir, splitTables.includes(table) ? leanFile(table) : tableFile(table))).size;
  }
  // The answers come from the published files: the split leaves every column the queries read as it is.
  const runner: QueryRunner = { run: async <Row>(q: Query<Row>) => run(q.sql, [...q.params]) as Row[] };
  const catalog = await prepareTables(runner, new Set(present));
  const queries = firstViewQueries(catalog);
  const drilldowns = await Promise.all(queries.drilldowns.map(async (group) => ({ group, answers: await computeAnswers(runner, group.queries) })));
  const bundle = { format: FIRST_VIEW_FORMAT, answers: drilldowns.flatMap((d) => d.answers) };
  const together = JSON.stringify(bundle).length <= drilldownBundleBytes;
  const groups: { group: AnswerGroup; answers: AnswerFile['answers'] }[] = [
    ...await Promise.all(queries.files.map(async (group) => ({ group, answers: await computeAnswers(runner, group.queries) }))),
    ...(together ? [{ group: { file: DRILLDOWNS_FILE, queries: queries.drilldowns.flatMap((g) => g.queries) }, answers: bundle.answers }] : drilldowns),
  ];
  const answerFiles: Record<string, AnswerFile> = {};
  const index: Record<string, string> = {};
  for (const { group, answers } of groups) {
    answerFiles[group.file] = { format: FIRST_VIEW_FORMAT, answers };
    for (const q of group.queries) {
      const id = answerId(q.sql, q.params);
      if (index[id] !== undefined) throw new Error(`two precomputed queries share the answer id ${id} (${index[id]}, ${group.file})`);
      index[id] = group.file;
    }
  }
  const answers = await computeAnswers(runner, queries.paint);
  return {
    view: { format: FIRST_VIEW_FORMAT, files, split: splitTables, catalog, answers, index, prefetch: together ? [DRILLDOWNS_FILE] : [] },
    files: answerFiles,
  };
}

/**
 * Writes `dir`/split/, `dir`/first-view.json and the further answer files (`dir`/first-view/),
 * or removes stale ones when nothing is published; returns the first view's path.
 */
export async function writeSiteData(dir: string): Promise<string> {
  const out = path.join(dir, FIRST_VIEW_FILE);
  for (const file of [out, path.join(dir, ANSWER_DIR), path.join(dir, 'split')]) fs.rmSync(file, { recursive: true, force: true });
  const made = await firstViewOf(dir, { split: true });
  if (made) {
    fs.writeFileSync(out, JSON.stringify(made.view));
    for (const [file, answers] of Object.entries(made.files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), JSON.stringify(answers));
    }
  }
  return out;
}
