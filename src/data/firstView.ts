/**
 * The first view: the answers to the queries the page runs before anything else (every chart's
 * version bars, their noise verdicts, the header's facts) and the catalog, computed from the
 * published tables by this site's own SQL on DuckDB under Node at build time
 * (scripts/site-data.mjs), and served as data/first-view.json. The page draws from it at once
 * and answers those queries from it while DuckDB-WASM loads; every other query goes to the engine.
 * So there is no second implementation of any aggregation: only the results are precomputed.
 */
import { versionBarsQuery } from '../sql/charts';
import { compilersQuery, coverageQuery, datesQuery, machinesQuery, protocolQuery } from '../sql/meta';
import type { Query, QueryRunner } from '../sql/query';
import { versionVerdictsQuery } from '../sql/verdicts';
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
 * The queries the page runs for its first screenful, in the order it runs them: all charts' version
 * bars over every version (the default range), their noise verdicts, and the header's facts.
 */
export function firstViewQueries(): readonly Query<unknown>[] {
  return [versionBarsQuery(null), versionVerdictsQuery(), coverageQuery(), machinesQuery(), compilersQuery(), protocolQuery(), datesQuery()];
}

/**
 * Computes the first view on `runner`, whose tables prepareTables has prepared for the default
 * hardware class (`catalog` is what it returned); `files` are the source files' byte sizes.
 */
export async function computeFirstView(
  runner: QueryRunner, catalog: Catalog, files: Partial<Record<TableName, number>>, split: readonly TableName[] = [],
): Promise<FirstView> {
  const answers: Answer[] = [];
  for (const q of firstViewQueries()) answers.push({ sql: q.sql, params: q.params, rows: await runner.run(q) });
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
