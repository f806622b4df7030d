/**
 * Turns the registered Parquet files into the tables the queries read. Shared by the browser
 * (behind DuckDB-WASM) and the tests (behind a Node DuckDB), so both run the same statements.
 */
import { sortVersions } from '../model/versions';
import { createTableSql, CELL_STATUS_SQL, versionNamesQuery, versionsTableSql } from '../sql/load';
import { query, type QueryRunner } from '../sql/query';
import { TABLES, tableFile, type TableName } from './schema';

/** A data file that exists but cannot be used (not Parquet, or without the documented columns). */
export class DataFileError extends Error {
  override name = 'DataFileError';
}

/**
 * Creates every table (from its file when `present` has it, else empty, with the documented
 * columns) and builds the derived tables. Returns the versions in release order.
 */
export async function prepareTables(runner: QueryRunner, present: ReadonlySet<TableName>): Promise<string[]> {
  for (const table of TABLES) {
    try {
      await runner.run(query(createTableSql(table, present.has(table))));
    } catch (err) {
      const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
      throw new DataFileError(`${tableFile(table)} does not match the published schema: ${reason}`);
    }
  }

  performance.mark('tables:views');
  const versions = sortVersions((await runner.run(versionNamesQuery())).map((row) => row.version));
  await runner.run(versionsTableSql(versions));
  await runner.run(query(CELL_STATUS_SQL));
  return versions;
}
