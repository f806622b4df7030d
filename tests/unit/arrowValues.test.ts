import { beforeAll, describe, expect, it } from 'vitest';
import { type ArrowType, duckdbTypeName, isNumericType, plainValue } from '../../src/data/arrowValues';
import { openNodeDuckDB } from '../support/node-duckdb.mjs';

interface ArrowTable {
  schema: { fields: { name: string; type: ArrowType }[] };
  getChildAt(i: number): { get(row: number): unknown } | null;
}

let conn: { query(sql: string): ArrowTable };
beforeAll(async () => {
  const { db } = await openNodeDuckDB();
  conn = (db as unknown as { connect(): typeof conn }).connect();
});

/** Column name -> [DuckDB type name, plain value of the first row] for a query on the site's engine. */
async function convert(sql: string): Promise<Record<string, [string, unknown]>> {
  const table = conn.query(sql);
  return Object.fromEntries(table.schema.fields.map((f, i) => [f.name, [duckdbTypeName(f.type), plainValue(table.getChildAt(i)?.get(0), f.type)]]));
}

describe('plainValue and duckdbTypeName', () => {
  it('turn numbers of every width into numbers, and integers beyond 2^53 into exact text', async () => {
    expect(await convert(`SELECT 1::TINYINT AS t, 2::UINTEGER AS u, 3::BIGINT AS b, 9007199254740993::BIGINT AS huge,
      0.5::FLOAT AS f, 0.25::DOUBLE AS d, -12.345::DECIMAL(10,3) AS dec, 0.05::DECIMAL(4,2) AS small,
      170141183460469231731687303715884105727::HUGEINT AS h`)).toEqual({
      t: ['TINYINT', 1], u: ['UINTEGER', 2], b: ['BIGINT', 3], huge: ['BIGINT', '9007199254740993'],
      f: ['FLOAT', 0.5], d: ['DOUBLE', 0.25], dec: ['DECIMAL(10,3)', -12.345], small: ['DECIMAL(4,2)', 0.05],
      h: ['DECIMAL(38,0)', '170141183460469231731687303715884105727'],
    });
  });

  it('writes dates, timestamps and times as DuckDB prints them', async () => {
    expect(await convert(`SELECT DATE '2026-11-20' AS d, TIMESTAMP '2026-11-20 10:10:00' AS ts,
      TIMESTAMP '2026-11-20 10:10:00.125' AS ms, TIME '07:05:09' AS t, TIME '07:05:09.5' AS tf`)).toEqual({
      d: ['DATE', '2026-11-20'], ts: ['TIMESTAMP', '2026-11-20 10:10:00'], ms: ['TIMESTAMP', '2026-11-20 10:10:00.125'],
      t: ['TIME', '07:05:09'], tf: ['TIME', '07:05:09.500000'],
    });
  });

  it('keeps text, booleans, nulls, lists and structs, and escapes blobs', async () => {
    expect(await convert(`SELECT 'x' AS s, true AS b, NULL AS n, [1, 2] AS l, {'a': 1, 'b': ['y']} AS st, 'AB'::BLOB AS bl`)).toEqual({
      s: ['VARCHAR', 'x'], b: ['BOOLEAN', true], n: ['INTEGER', null], l: ['INTEGER[]', [1, 2]],
      st: ['STRUCT', { a: 1, b: ['y'] }], bl: ['BLOB', '\\x41\\x42'],
    });
  });

  it('counts integers, floats and decimals as numeric, nothing else', () => {
    expect([2, 3, 7, 5, 10].map((typeId) => isNumericType({ typeId }))).toEqual([true, true, true, false, false]);
  });
});
