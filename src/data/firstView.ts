/**
 * The first view: the answers to the queries the page runs before anything else (every chart's
 * version bars, their noise verdicts, the header's facts; then the sections above the charts:
 * src/app/firstViewQueries.ts) and the catalog, computed from the published tables by this
 * site's own SQL on DuckDB under Node at build time (scripts/site-data.mjs), and served as
 * data/first-view.json and MORE_VIEW_FILES. The page draws from the first at once and answers
 * those queries from all of them while DuckDB-WASM loads; every other query goes to the engine.
 * So there is no second implementation of any aggregation: only the results are precomputed.
 */
import type { Query, QueryRunner } from '../sql/query';
import { decodeRows, type EncodedRows, encodeRows } from './columns';
import type { TableName } from '../sql/schema';
import type { Catalog } from './tables';

/** The file's format version: a page that reads another format ignores the file. */
export const FIRST_VIEW_FORMAT = 2;

/** The file name inside the data folder. */
export const FIRST_VIEW_FILE = 'first-view.json';

/**
 * The files of further answers (an AnswerFile each), fetched while the first view is drawn: the
 * sections' answers, and every chart's drilldowns.
 */
export const MORE_VIEW_FILES = ['first-view-sections.json', 'first-view-drilldowns.json'] as const;

/** One query and its rows (column by column: columns.ts). */
export interface Answer {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly rows: EncodedRows;
}

/** What data/first-view.json holds. */
export interface FirstView {
  readonly format: number;
  /**
   * The byte size of each table's file the page loads at start (absent: not published): for a
   * split table its lean file, else the published file. The answers are computed from the same data.
   */
  readonly files: Readonly<Partial<Record<TableName, number>>>;
  /** The tables split into a lean file and a file of their lazy columns (src/sql/schema.ts, LAZY_COLUMNS). */
  readonly split: readonly TableName[];
  /** The catalog as prepareTables returns it for the default hardware class. */
  readonly catalog: Catalog;
  /** What the first paint needs: every chart's version bars, their verdicts, the header. */
  readonly answers: readonly Answer[];
}

/** What each of MORE_VIEW_FILES holds: answers, in the first view's format. */
export interface AnswerFile {
  readonly format: number;
  readonly answers: readonly Answer[];
}

/** The answers to `queries` on `runner`. */
export async function computeAnswers(runner: QueryRunner, queries: readonly Query<unknown>[]): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const q of queries) answers.push({ sql: q.sql, params: q.params, rows: encodeRows(await runner.run(q as Query<Record<string, unknown>>)) });
  return answers;
}

const answerKey = (sql: string, params: readonly unknown[]) => `${JSON.stringify(params)}\n${sql}`;

/**
 * A runner that answers the queries of `view`, then of `more` (further answer files, as they
 * arrive: a query that none has answered yet waits for them), and sends every other query to
 * `engine`. `missed` is told of each query `view` cannot answer (before it waits for `more`).
 * Each answer is decoded once, on first use; callers only read the rows.
 */
export function answeringRunner(
  view: FirstView, engine: QueryRunner, more: readonly Promise<readonly Answer[]>[] = [], missed: () => void = () => {},
): QueryRunner {
  const known = new Map(view.answers.map((a) => [answerKey(a.sql, a.params), a.rows]));
  const decoded = new Map<string, unknown[]>();
  const rowsOf = (key: string) => {
    const encoded = known.get(key);
    if (!encoded) return undefined;
    let rows = decoded.get(key);
    if (!rows) decoded.set(key, (rows = decodeRows(encoded)));
    return rows;
  };
  const added = more.map((file) => file.then((answers) => answers.forEach((a) => known.set(answerKey(a.sql, a.params), a.rows)), () => undefined));
  return {
    async run<Row>(q: Query<Row>): Promise<Row[]> {
      const key = answerKey(q.sql, q.params);
      const now = rowsOf(key);
      if (now) return now as Row[];
      missed();
      for (const file of added) {
        await file;
        const rows = rowsOf(key);
        if (rows) return rows as Row[];
      }
      return engine.run(q);
    },
  };
}

/** Whether a parsed file is a first view this page can read (its format). */
export function isFirstView(value: unknown): value is FirstView {
  const v = value as Partial<FirstView> | null;
  return isAnswerFile(value) && Array.isArray(v?.split) && typeof v?.catalog === 'object';
}

/** Whether a parsed file holds answers in the format this page reads. */
export function isAnswerFile(value: unknown): value is AnswerFile {
  const v = value as Partial<AnswerFile> | null;
  return typeof v === 'object' && v !== null && v.format === FIRST_VIEW_FORMAT && Array.isArray(v.answers);
}

/** Whether the files the engine loaded (`sizes`) are the ones the first view was computed with. */
export function sameFiles(view: FirstView, sizes: Readonly<Partial<Record<TableName, number>>>): boolean {
  const keys = new Set([...Object.keys(view.files), ...Object.keys(sizes)]) as Set<TableName>;
  return [...keys].every((k) => view.files[k] === sizes[k]);
}
