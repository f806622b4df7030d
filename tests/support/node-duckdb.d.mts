/** Types for node-duckdb.mjs. */
export function openNodeDuckDB(): Promise<{
  db: { registerFileBuffer(name: string, bytes: Uint8Array): void };
  run: (sql: string, params?: unknown[]) => Record<string, unknown>[];
}>;
