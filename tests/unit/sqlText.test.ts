import { beforeAll, describe, expect, it } from 'vitest';
import { parseSqlError } from '../../src/console/errorPosition';
import { configBarsQuery, versionBarsQuery } from '../../src/sql/charts';
import { type Query, query } from '../../src/sql/query';
import { inlineParams, splitStatements, sqlLiteral } from '../../src/sql/scan';
import { openFixtureDb, type FixtureDb } from '../support/fixture-db';

let fx: FixtureDb;
beforeAll(async () => {
  fx = await openFixtureDb();
});

/** DuckDB's own message for `sql` (which must fail). */
async function engineError(sql: string): Promise<string> {
  try {
    await fx.runner.run(query(sql));
  } catch (err) {
    // The Node runner appends "\nSQL: ..." after DuckDB's message.
    return String((err as Error).message).replace(/\nSQL: [\s\S]*$/, '');
  }
  throw new Error(`expected "${sql}" to fail`);
}

describe('splitStatements', () => {
  it('splits at semicolons outside strings, identifiers and comments, keeping offsets into the script', () => {
    const script = `SELECT ';' AS "a;b"; -- x; y\nSELECT 2 /* ; */;\n\n  ;-- only a comment`;
    const parts = splitStatements(script);
    expect(parts.map((p) => p.sql)).toEqual([`SELECT ';' AS "a;b"`, ` -- x; y\nSELECT 2 /* ; */`]);
    for (const part of parts) expect(script.slice(part.offset, part.offset + part.sql.length)).toBe(part.sql);
  });

  it('keeps doubled quotes, backslash strings, dollar quotes and nested comments whole', () => {
    const script = `SELECT 'it''s;'; SELECT E'a\\';b'; SELECT $tag$;$tag$; SELECT /* a /* ; */ ; */ 1`;
    expect(splitStatements(script).map((p) => p.sql.trim())).toEqual([
      `SELECT 'it''s;'`, `SELECT E'a\\';b'`, 'SELECT $tag$;$tag$', 'SELECT /* a /* ; */ ; */ 1',
    ]);
  });

  it('returns nothing for a script of white space and comments', () => {
    expect(splitStatements('  -- nothing\n /* here */ ;  ')).toEqual([]);
  });
});

describe('inlineParams', () => {
  it('writes strings, numbers, booleans and NULL as literals that DuckDB reads back unchanged', async () => {
    const values = ["it's a \"test\" ? -- not a comment", 42.5, -3, true, null] as const;
    const sql = inlineParams('SELECT ? AS s, ? AS x, ? AS i, ? AS b, ? AS n', values);
    const [row] = await fx.runner.run(query<Record<string, unknown>>(sql));
    expect(row).toEqual({ s: values[0], x: 42.5, i: -3, b: true, n: null });
  });

  it('leaves question marks inside strings, identifiers and comments alone', () => {
    expect(inlineParams(`SELECT '?' AS "?", ? -- ?\n/* ? */`, ['x'])).toBe(`SELECT '?' AS "?", 'x' -- ?\n/* ? */`);
  });

  it('refuses a count of parameters that does not match the placeholders', () => {
    expect(() => inlineParams('SELECT ?', [])).toThrow(/1 placeholders but 0 parameters/);
  });

  it('gives the site chart queries text that returns exactly what the parameterised query returns', async () => {
    const queries: Query<unknown>[] = [versionBarsQuery({ from: 1, to: 5 }), configBarsQuery('pipe', 'LRANGE_100 (first 100 elements)')];
    for (const q of queries) {
      const inlined = await fx.runner.run(query(inlineParams(q.sql, q.params)));
      expect(inlined.length).toBeGreaterThan(0);
      expect(inlined).toEqual(await fx.runner.run(q));
    }
  });

  it('writes fractions and non-finite numbers as DOUBLE casts, integers bare', () => {
    expect([7, 0.25, Number.NaN].map(sqlLiteral)).toEqual(['7', "'0.25'::DOUBLE", "'NaN'::DOUBLE"]);
  });
});

describe('parseSqlError', () => {
  it('finds a parser error on the first line', async () => {
    const sql = 'SELECT * FORM results';
    const parsed = parseSqlError(await engineError(sql), sql);
    expect(parsed.message).toBe('Parser Error: syntax error at or near "results"');
    expect(parsed.position).toEqual({ line: 1, column: 15, offset: 14 });
  });

  it('finds a binder error on a later line', async () => {
    const sql = "SELECT version,\n  compiler, rps +\n 'x' FROM results";
    const parsed = parseSqlError(await engineError(sql), sql);
    expect(parsed.message).toMatch(/^Binder Error: No function matches/);
    expect(parsed.message).not.toMatch(/LINE 2/);
    expect(parsed.position?.line).toBe(2);
    expect(sql.slice(parsed.position?.offset)).toMatch(/^\+\n 'x'/);
  });

  it('finds the spot in a long line that DuckDB shows cut short at both ends', async () => {
    const sql = `SELECT ${Array.from({ length: 30 }, (_, i) => `rps AS c${i}`).join(', ')}, nope_column, ${'version, '.repeat(10)}1 FROM results`;
    const parsed = parseSqlError(await engineError(sql), sql);
    expect(sql.slice(parsed.position?.offset)).toMatch(/^nope_column/);
    expect(parsed.position?.column).toBe(sql.indexOf('nope_column') + 1);
  });

  it('returns the message alone when DuckDB names no position', () => {
    expect(parseSqlError('Catalog Error: Table with name nope does not exist!', 'x')).toEqual({
      message: 'Catalog Error: Table with name nope does not exist!', position: null,
    });
  });
});
