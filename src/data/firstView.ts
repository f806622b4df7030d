/**
 * The first view: the answers to the queries the page runs before anything else (the first
 * charts' version bars and noise verdicts, the header's facts: src/app/firstViewQueries.ts) and
 * the catalog, computed from the published tables by this site's own SQL on DuckDB under Node at
 * build time (scripts/site-data.mjs), and served as data/first-view.json; further answers (the
 * other charts' bars, the sections', each chart's drilldowns) are in files of their own, which its
 * index names, each fetched when one of its queries is first asked. The page draws from the first
 * view at once and answers those queries from the files while DuckDB-WASM loads; every other
 * query goes to the engine. So there is no second implementation of any aggregation: only the
 * results are precomputed.
 */
import type { Query, QueryRunner } from '../sql/query';
import { decodeRows, type EncodedRows, encodeRows } from './columns';
import type { TableName } from '../sql/schema';
import type { Catalog } from './tables';

/** The file's format version: a page that reads another format ignores the file. */
export const FIRST_VIEW_FORMAT = 4;

/** The file name inside the data folder. */
export const FIRST_VIEW_FILE = 'first-view.json';

/** The folder, inside the data folder, of the further answer files (an AnswerFile each). */
export const ANSWER_DIR = 'first-view/';

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
  /** What the first paint needs: the first charts' version bars, their verdicts, the header. */
  readonly answers: readonly Answer[];
  /**
   * Where the further precomputed answers are: answerId of a query -> its file, relative to the
   * data folder (in ANSWER_DIR).
   */
  readonly index: Readonly<Record<string, string>>;
  /** Further answer files the page fetches once it is idle: every chart's drilldowns, when they are small enough to fetch whole. */
  readonly prefetch: readonly string[];
}

/** What each further answer file holds: answers, in the first view's format. */
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

/** A short hash (53 bits, base 36: cyrb53) of a query's SQL and parameters: the key of the first view's index. */
export function answerId(sql: string, params: readonly unknown[]): string {
  const text = answerKey(sql, params);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** The further answer file that holds the answer to `q` (relative to the data folder), if the first view's index names one. */
export function answerFile(view: FirstView, q: Query<unknown>): string | undefined {
  return view.index[answerId(q.sql, q.params)];
}

/**
 * A runner that answers the queries of `view`, then those its index names a file for (the file
 * fetched by `load` on the first such query, once; a file that fails to load answers nothing),
 * and sends every other query to `engine`, telling `missed` first. Each answer is decoded once,
 * on first use; callers only read the rows.
 */
export function answeringRunner(
  view: FirstView, engine: QueryRunner, load: (file: string) => Promise<readonly Answer[]>, missed: () => void = () => {},
): QueryRunner {
  const known = new Map(view.answers.map((a) => [answerKey(a.sql, a.params), a.rows]));
  const decoded = new Map<string, unknown[]>();
  const loading = new Map<string, Promise<void>>();
  const loadFile = (file: string) => {
    let done = loading.get(file);
    if (!done) {
      done = load(file).then((answers) => answers.forEach((a) => known.set(answerKey(a.sql, a.params), a.rows)), () => undefined);
      loading.set(file, done);
    }
    return done;
  };
  const rowsOf = (key: string) => {
    const encoded = known.get(key);
    if (!encoded) return undefined;
    let rows = decoded.get(key);
    if (!rows) decoded.set(key, (rows = decodeRows(encoded)));
    return rows;
  };
  return {
    async run<Row>(q: Query<Row>): Promise<Row[]> {
      const key = answerKey(q.sql, q.params);
      const file = known.has(key) ? undefined : answerFile(view, q);
      if (file !== undefined) await loadFile(file);
      const rows = rowsOf(key);
      if (rows) return rows as Row[];
      missed();
      return engine.run(q);
    },
  };
}

/** Whether a parsed file is a first view this page can read (its format). */
export function isFirstView(value: unknown): value is FirstView {
  const v = value as Partial<FirstView> | null;
  return isAnswerFile(value) && Array.isArray(v?.split) && typeof v?.catalog === 'object' && typeof v?.index === 'object' && v.index !== null && Array.isArray(v.prefetch);
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
