/**
 * The noise rule (src/sql/noise.ts) against tests/fixtures/fixture-noise.json, the cases the
 * collector's headline (collector/internal/headline/noise_rule_test.go) passes too: one rule,
 * written in SQL for the site and in Go for the README, checked on one set of cases.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bandSql, geomeanBandSql, geomeanSql, ratioSql, spreadSql, verdictSql } from '../../src/sql/noise';
import { openNodeDuckDB } from '../support/node-duckdb.mjs';

interface Pair {
  name: string; lower: boolean; a: number[]; b: number[];
  spread_a: number | null; spread_b: number | null; band: number | null; ratio: number | null; verdict: string;
  /** The least band (a counted metric's rebuild band); 0 when absent. */
  floor?: number;
}
interface Geomean {
  name: string; items: { ratio: number; band: number | null }[]; ratio: number; band: number | null; verdict: string;
}
interface Fixture { tolerance: number; pairs: Pair[]; geomeans: Geomean[] }

const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/fixture-noise.json'), 'utf8')) as Fixture;

let run: (sql: string) => Record<string, unknown>[];

beforeAll(async () => {
  ({ run } = await openNodeDuckDB());
});

/** A configuration's best, worst and repeat count, as cell_status has them (a cost's best is its lowest). */
const repeatsSql = (values: number[], lower: boolean) =>
  `SELECT ${lower ? 'min' : 'max'}(v) AS best, ${lower ? 'max' : 'min'}(v) AS worst, count(*) AS n
   FROM (VALUES ${values.map((v) => `(${v}::DOUBLE)`).join(', ')}) t(v)`;

const near = (got: unknown, want: number | null) =>
  want === null ? got === null : typeof got === 'number' && Math.abs(got - want) <= fixture.tolerance;

describe('the noise rule on the shared fixture', () => {
  it('holds cases of both kinds', () => {
    expect(fixture.pairs.length).toBeGreaterThan(0);
    expect(fixture.geomeans.length).toBeGreaterThan(0);
  });

  it.each(fixture.pairs.map((c) => [c.name, c] as const))('pair: %s', (_name, c) => {
    const spreadA = spreadSql('a.best', 'a.worst', 'a.n');
    const spreadB = spreadSql('b.best', 'b.worst', 'b.n');
    const ratio = ratioSql('b.best', 'a.best');
    const band = bandSql(spreadA, spreadB, `${c.floor ?? 0}::DOUBLE`);
    const [row] = run(`WITH a AS (${repeatsSql(c.a, c.lower)}), b AS (${repeatsSql(c.b, c.lower)})
      SELECT ${spreadA} AS spread_a, ${spreadB} AS spread_b, ${band} AS band, ${ratio} AS ratio,
        ${verdictSql(ratio, band, c.lower)} AS verdict FROM a, b`);
    expect({ ...row, ok: ['spread_a', 'spread_b', 'band', 'ratio'].every((k) => near(row?.[k], c[k as keyof Pair] as number | null)) })
      .toEqual({ ...row, verdict: c.verdict, ok: true });
  });

  it.each(fixture.geomeans.map((c) => [c.name, c] as const))('geometric mean: %s', (_name, c) => {
    const values = c.items.map((it) => `(${it.ratio}::DOUBLE, ${it.band === null ? 'NULL' : it.band}::DOUBLE)`).join(', ');
    const [row] = run(`WITH g AS (SELECT ${geomeanSql('r')} AS ratio, ${geomeanBandSql('band')} AS band
      FROM (VALUES ${values}) t(r, band)) SELECT ratio, band, ${verdictSql('ratio', 'band')} AS verdict FROM g`);
    expect({ ...row, ok: near(row?.ratio, c.ratio) && near(row?.band, c.band) }).toEqual({ ...row, verdict: c.verdict, ok: true });
  });
});
