/**
 * Query rows stored column by column, for a file that is parsed before the first paint: each
 * column's name once, and a column of strings as indexes into its own list of distinct values.
 * At every release x every chart the first view holds thousands of rows of a few dozen values,
 * mostly the same few strings (mode, test, version, compiler, status): this is several times
 * smaller, and faster to parse, than an array of objects. Decoding gives the rows back exactly.
 */

/** A JSON value as a row holds it. */
type Value = string | number | boolean | null | readonly unknown[] | { readonly [key: string]: unknown };

/** One column: its values, or (every value a string or null) indexes into `strings` (null for null). */
type Column =
  | { readonly name: string; readonly values: readonly Value[] }
  | { readonly name: string; readonly strings: readonly string[]; readonly codes: readonly (number | null)[] };

/** Rows, column by column. */
export interface EncodedRows {
  readonly length: number;
  readonly columns: readonly Column[];
}

/** Encodes `rows` (objects with the same keys, as a query returns them). */
export function encodeRows(rows: readonly Readonly<Record<string, unknown>>[]): EncodedRows {
  const names = Object.keys(rows[0] ?? {});
  const columns = names.map((name): Column => {
    const values = rows.map((row) => (row[name] ?? null) as Value);
    if (!values.every((v) => v === null || typeof v === 'string')) return { name, values };
    const strings = [...new Set(values.filter((v): v is string => v !== null))];
    const index = new Map(strings.map((s, i) => [s, i]));
    return { name, strings, codes: values.map((v) => (v === null ? null : (index.get(v as string) ?? null))) };
  });
  return { length: rows.length, columns };
}

/** The rows `encoded` holds, as objects. */
export function decodeRows<Row>(encoded: EncodedRows): Row[] {
  const rows: Record<string, unknown>[] = Array.from({ length: encoded.length }, () => ({}));
  for (const column of encoded.columns) {
    if ('values' in column) {
      column.values.forEach((v, i) => ((rows[i] as Record<string, unknown>)[column.name] = v));
    } else {
      column.codes.forEach((c, i) => ((rows[i] as Record<string, unknown>)[column.name] = c === null ? null : column.strings[c]));
    }
  }
  return rows as Row[];
}
