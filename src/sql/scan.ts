/**
 * Reading SQL text the way DuckDB's tokenizer does at the level that matters here: where string
 * literals, quoted identifiers and comments are, so that a `;` or `?` inside them is left alone.
 * Serves splitting a console script into statements and inlining a query's parameters.
 */
import type { SqlParam } from './query';

/** One statement of a script: its text (up to, not including, its `;`) and where it starts. */
export interface Statement {
  readonly sql: string;
  /** Offset of `sql` in the whole script, in UTF-16 code units. */
  readonly offset: number;
}

/**
 * Calls `onCode` with the offset of every character that is SQL code: outside '...' strings
 * (with '' escapes, E'...' backslash escapes), "..." identifiers, $tag$...$tag$ strings,
 * -- line comments and nested block comments.
 */
function scanCode(text: string, onCode: (at: number) => void): void {
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "'" || c === '"') {
      const backslash = c === "'" && /[eE]/.test(text[i - 1] ?? '') && !/\w/.test(text[i - 2] ?? '');
      i++;
      while (i < text.length) {
        if (backslash && text[i] === '\\') i += 2;
        else if (text[i] === c && text[i + 1] === c) i += 2;
        else if (text[i] === c) break;
        else i++;
      }
      i++;
    } else if (c === '-' && next === '-') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (c === '/' && next === '*') {
      let depth = 0;
      do {
        if (text.startsWith('/*', i)) (depth++, (i += 2));
        else if (text.startsWith('*/', i)) (depth--, (i += 2));
        else i++;
      } while (depth > 0 && i < text.length);
    } else if (c === '$' && !/\w/.test(text[i - 1] ?? '') && /^\$\w*\$/.test(text.slice(i))) {
      const tag = /^\$\w*\$/.exec(text.slice(i))?.[0] ?? '$$';
      const end = text.indexOf(tag, i + tag.length);
      i = end < 0 ? text.length : end + tag.length;
    } else {
      onCode(i);
      i++;
    }
  }
}

/** True when `sql` holds no code, only white space and comments. */
function isBlank(sql: string): boolean {
  let blank = true;
  scanCode(sql, (at) => (blank &&= /\s/.test(sql[at] ?? '')));
  return blank;
}

/** The statement's first word in upper case (after white space and comments), or '' when it has none. */
export function firstKeyword(sql: string): string {
  let first = -1;
  scanCode(sql, (at) => first < 0 && /\S/.test(sql[at] ?? '') && (first = at));
  return first < 0 ? '' : (/^\w+/.exec(sql.slice(first))?.[0] ?? '').toUpperCase();
}

/**
 * Splits a script at the `;` that end statements. Statements keep their leading white space and
 * comments, so that positions DuckDB reports within one map back onto the script; statements
 * that hold nothing but white space and comments are dropped.
 */
export function splitStatements(script: string): Statement[] {
  const ends: number[] = [];
  scanCode(script, (at) => script[at] === ';' && ends.push(at));
  ends.push(script.length);
  const statements: Statement[] = [];
  let start = 0;
  for (const end of ends) {
    const sql = script.slice(start, end);
    if (!isBlank(sql)) statements.push({ sql, offset: start });
    start = end + 1;
  }
  return statements;
}

/**
 * A value written as a SQL literal: 'it''s', 42, 0.5::DOUBLE, TRUE, NULL. A fraction is cast to
 * DOUBLE, as a bound parameter would be: DuckDB reads a bare 0.5 as a DECIMAL.
 */
export function sqlLiteral(value: SqlParam): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : `'${value}'::DOUBLE`;
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * The query with every `?` placeholder replaced by its parameter as a literal, so the text runs
 * on its own (in the console). Throws when the count of placeholders and parameters differ.
 */
export function inlineParams(sql: string, params: readonly SqlParam[]): string {
  const marks: number[] = [];
  scanCode(sql, (at) => sql[at] === '?' && marks.push(at));
  if (marks.length !== params.length) {
    throw new Error(`The query has ${marks.length} placeholders but ${params.length} parameters.`);
  }
  let out = '';
  let from = 0;
  marks.forEach((at, i) => {
    out += sql.slice(from, at) + sqlLiteral(params[i] ?? null);
    from = at + 1;
  });
  return out + sql.slice(from);
}
