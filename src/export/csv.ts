/**
 * CSV as RFC 4180 writes it: a header line, CRLF line ends, and a field quoted (with its quotes
 * doubled) only when it holds a comma, a quote or a line break. Values are written verbatim: no
 * prefix against spreadsheet formulas, since flag sets such as "-O2" start with a minus.
 */

/** One CSV field for a value: null/undefined -> empty, numbers in JavaScript's shortest exact form, objects as JSON. */
export function csvField(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
  else text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole CSV text: `columns` as the header, then one line per row (values in column order). */
export function toCsv(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const line = (values: readonly unknown[]) => `${values.map(csvField).join(',')}\r\n`;
  return line(columns) + rows.map(line).join('');
}
