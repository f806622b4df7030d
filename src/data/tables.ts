/**
 * Turns the registered Parquet files into the tables the queries read. Shared by the browser
 * (behind DuckDB-WASM) and the tests (behind a Node DuckDB), so both run the same statements.
 */
import { sortVersions } from '../model/versions';
import { columnsQuery, createTableSql, DERIVED_TABLES_SQL, versionNamesQuery, versionsTableSql } from '../sql/load';
import { query, type QueryRunner } from '../sql/query';
import { missingColumns, TABLES, type TableName } from './schema';

/** A data file that exists but cannot be used (not Parquet, or without the documented columns). */
export class DataFileError extends Error {
  override name = 'DataFileError';
}

/**
 * Creates every table (from its file when `present` has it, else empty), checks the columns,
 * and builds the derived tables. Returns the versions in release order.
 */
export async function prepareTables(runner: QueryRunner, present: ReadonlySet<TableName>): Promise<string[]> {
  for (const table of TABLES) await runner.run(query(createTableSql(table, present.has(table))));
  const columns = new Map<string, Set<string>>();
  for (const { table_name, column_name } of await runner.run(columnsQuery())) {
    if (!present.has(table_name as TableName)) continue;
    const set = columns.get(table_name) ?? new Set<string>();
    set.add(column_name);
    columns.set(table_name, set);
  }
  const problems = missingColumns(columns);
  if (problems.length) throw new DataFileError(`The data does not match its schema: ${problems.join('; ')}.`);

  const versions = sortVersions((await runner.run(versionNamesQuery())).map((row) => row.version));
  await runner.run(versionsTableSql(versions));
  for (const sql of DERIVED_TABLES_SQL) await runner.run(query(sql));
  return versions;
}
