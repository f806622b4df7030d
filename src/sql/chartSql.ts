/**
 * The SQL behind one chart or section as drawn, as text that runs on its own in the console: the query the
 * site runs (for all charts at once) with its parameters inlined, filtered to this chart's rows.
 */
import type { Query } from './query';
import { inlineParams, sqlLiteral } from './scan';

/** Text from the data made safe for a `--` comment: one line. */
const commentText = (text: string) => text.replace(/[\r\n]+/g, ' ');

/**
 * `title` becomes a comment line; `filter` (column -> value) picks this chart's rows out of the
 * site's query, keeping its order.
 */
export function chartSql(q: Query<unknown>, title: string, filter: Readonly<Record<string, string>>): string {
  const where = Object.entries(filter).map(([column, value]) => `${column} = ${sqlLiteral(value)}`).join(' AND ');
  return [
    `-- ${commentText(title)}`,
    '-- The query the site runs for its charts (parameters inlined), filtered to this chart.',
    '-- It reads cell_status and versions, which the page builds from the published tables at load.',
    'SELECT * FROM (',
    inlineParams(q.sql, q.params).replace(/^\s*\n|\s+$/g, ''),
    `) AS chart${where ? `\nWHERE ${where}` : ''}`,
  ].join('\n');
}

/** The query behind a section (all its rows), as text that runs on its own: `title` becomes a comment line. */
export function sectionSql(q: Query<unknown>, title: string): string {
  return [
    `-- ${commentText(title)}`,
    '-- The query the site runs for this section, parameters inlined.',
    '-- It reads cell_status and versions, which the page builds from the published tables at load.',
    inlineParams(q.sql, q.params).replace(/^\s*\n|\s+$/g, ''),
  ].join('\n');
}
