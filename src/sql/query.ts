/** A SQL statement with positional parameters, typed by the rows it returns. */

/** A value bound to a `?` placeholder. */
export type SqlParam = string | number | boolean | null;

/** SQL text, its parameters, and (for the type checker only) the shape of one result row. */
export interface Query<Row> {
  readonly sql: string;
  readonly params: readonly SqlParam[];
  /** Never set: carries the row type from builder to caller. */
  readonly row?: Row;
}

/** Builds a Query; `params` fill the `?` placeholders in order. */
export function query<Row>(sql: string, params: readonly SqlParam[] = []): Query<Row> {
  return { sql, params };
}

/** Runs Queries: the site's DuckDB-WASM module in the browser, a Node DuckDB in tests. */
export interface QueryRunner {
  /** Rows as plain objects; rejects with an error whose message includes the SQL. */
  run<Row>(q: Query<Row>): Promise<Row[]>;
}
