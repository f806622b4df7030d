/**
 * Where in the SQL an error is. DuckDB 0.9 gives no position field: it appends the line with a
 * caret under the spot ("LINE 2:   compiler, rps +" then "^"), showing at most ~40 characters
 * either side of it, with "..." where the line is cut. This reads that back into an offset.
 */

/** A spot in a SQL text: 1-based line and column, and the 0-based offset into the text. */
export interface SqlPosition {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/** DuckDB's message split into the error itself and the position it marks in `sql`. */
export interface ParsedError {
  /** The message without DuckDB's "LINE n: ..." and caret lines. */
  readonly message: string;
  /** Null when DuckDB gave no position (or it cannot be found in `sql`). */
  readonly position: SqlPosition | null;
}

const CONTEXT = /\nLINE (\d+): (\.\.\.)?(.*)\n( *)\^\s*$/;

/** Reads the position from DuckDB's `message` about `sql` (the exact text DuckDB was given). */
export function parseSqlError(message: string, sql: string): ParsedError {
  const match = CONTEXT.exec(message);
  if (!match) return { message: message.trim(), position: null };
  const text = message.slice(0, match.index).trim();
  const line = Number(match[1]);
  const cutStart = match[2] !== undefined;
  const shown = match[3] ?? '';
  // The caret is indented past "LINE n: " and the leading "...".
  const caret = (match[4] ?? '').length - `LINE ${line}: `.length - (cutStart ? 3 : 0);
  // DuckDB counts each \r and each \n as a line break.
  const lines = sql.split(/[\r\n]/);
  const lineText = lines[line - 1];
  if (lineText === undefined || caret < 0) return { message: text, position: null };
  const snippet = shown.endsWith('...') && !lineText.endsWith(shown) ? shown.slice(0, -3) : shown;
  const start = cutStart ? lineText.indexOf(snippet) : 0;
  if (start < 0) return { message: text, position: null };
  const column = Math.min(start + caret, lineText.length);
  const offset = lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0) + column;
  return { message: text, position: { line, column: column + 1, offset } };
}
