/** Saving every row of a query (a console script, a chart's SQL) as CSV or Parquet. */
import type { Database } from '../data/duckdb';
import type { Statement } from '../sql/scan';
import { toCsv } from './csv';
import { MIME, saveFile } from './download';

/** A file format for rows. */
export type RowFormat = 'csv' | 'parquet';

/**
 * Runs `statements` again without a row limit and saves the last one's rows as `<base>.csv`
 * (encoded here) or `<base>.parquet` (written by DuckDB's COPY ... TO, with its column types).
 */
export async function saveRows(db: Database, statements: readonly Statement[], format: RowFormat, base: string): Promise<void> {
  if (format === 'csv') {
    const result = await db.runScript(statements, Infinity);
    saveFile(`${base}.csv`, new Blob([toCsv(result.columns.map((c) => c.name), result.rows)], { type: MIME.csv }));
  } else {
    const bytes = await db.scriptToParquet(statements);
    saveFile(`${base}.parquet`, new Blob([bytes as Uint8Array<ArrayBuffer>], { type: MIME.parquet }));
  }
}
