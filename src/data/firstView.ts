/**
 * The first view: the answers to the queries the page runs before anything else (every chart's
 * version bars, their noise verdicts, the header's facts, the sections above the charts:
 * src/app/firstViewQueries.ts) and the catalog, computed from the
 * published tables by this site's own SQL on DuckDB under Node at build time
 * (scripts/site-data.mjs), and served as data/first-view.json. The page draws from it at once
 * and answers those queries from it while DuckDB-WASM loads; every other query goes to the engine.
 * So there is no second implementation of any aggregation: only the results are precomputed.
 */
import type { Query, QueryRunner } from '../sql/query';
import type { TableName } from './schema';
import type { Catalog } from './tables';

/** The file's format version: a page that reads another format ignores the file. */
export const FIRST_VIEW_FORMAT = 1;

/** The file name inside the data folder. */
export const FIRST_VIEW_FILE = 'first-view.json';

/** One query and its rows. */
export interface Answer {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly rows: readonly unknown[];
}

/** What data/first-view.json holds. */
export interface FirstView {
  readonly format: number;
  /**
   * The byte size of each table's file the page loads at start (absent: not published): for a
   * split table its lean file, else the published file. The answers are computed from the same data.
   */
  readonly files: Readonly<Partial<Record<TableName, number>>>;
  /** The tables split into a lean file and a text file next to it (schema.ts, TEXT_COLUMNS). */
  readonly split: readonly TableName[];
  /** The catalog as prepareTables returns it for the default hardware class. */
  readonly catalog: Catalog;
  readonly answers: readonly Answer[];
}

/**
 * Computes the first view: the answers to `queries` on `runner`, whose tables prepareTables has
 * prepared for the default hardware class (`catalog` is what it returned); `files` and `split`
 * as FirstView has them.
 */
export async function computeFirstView(
  runner: QueryRunner, catalog: Catalog, queries: readonly Query<unknown>[], files: Partial<Record<TableName, number>>, split: readonly TableName[] = [],
): Promise<FirstView> {
  const answers: Answer[] = [];
  for (const q of queries) answers.push({ sql: q.sql, params: q.params, rows: await runner.run(q) });
  return { format: FIRST_VIEW_FORMAT, files, split, catalog, answers };
}

const answerKey = (sql: string, params: readonly unknown[]) => `${JSON.stringify(params)}\n${sql}`;

/**
 * A runner that answers the first view's queries from `view` and sends every other query to
 * `engine`. Rows are handed out as the file holds them (callers only read them).
 */
export function answeringRunner(view: FirstView, engine: QueryRunner): QueryRunner {
  const known = new Map(view.answers.map((a) => [answerKey(a.sql, a.params), a.rows]));
  return {
    run<Row>(q: Query<Row>): Promise<Row[]> {
      const rows = known.get(answerKey(q.sql, q.params));
      return rows ? Promise.resolve(rows as Row[]) : engine.run(q);
    },
  };
}

/** Whether a parsed file is a first view this page can read (its format). */
export function isFirstView(value: unknown): value is FirstView {
  const v = value as Partial<FirstView> | null;
  return typeof v === 'object' && v !== null && v.format === FIRST_VIEW_FORMAT && Array.isArray(v.answers) && Array.isArray(v.split) && typeof v.catalog === 'object';
}

/** Whether the files the engine loaded (`sizes`) are the ones the first view was computed with. */
export function sameFiles(view: FirstView, sizes: Readonly<Partial<Record<TableName, number>>>): boolean {
  const keys = new Set([...Object.keys(view.files), ...Object.keys(sizes)]) as Set<TableName>;
  return [...keys].every((k) => view.files[k] === sizes[k]);
}
