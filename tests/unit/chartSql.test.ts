import { beforeAll, describe, expect, it } from 'vitest';
import { configBarsQuery, versionBarsQuery } from '../../src/sql/charts';
import { chartSql, sectionSql } from '../../src/sql/chartSql';
import { compareQuery } from '../../src/sql/compare';
import { summaryItemsQuery } from '../../src/sql/summary';
import { type Query, query } from '../../src/sql/query';
import { splitStatements } from '../../src/sql/scan';
import { openFixtureDb, type FixtureDb } from '../support/fixture-db';

let fx: FixtureDb;
beforeAll(async () => {
  fx = await openFixtureDb();
});

describe('chartSql', () => {
  it('returns exactly the rows of one chart that the site query returns, in its order', async () => {
    const site = versionBarsQuery({ from: 1, to: 5 });
    const expected = (await fx.runner.run(site)).filter((r) => r.mode === 'pipe' && r.test === 'LRANGE_100 (first 100 elements)');
    const sql = chartSql(site, 'LRANGE_100 (first 100 elements), pipe mode', { mode: 'pipe', test: 'LRANGE_100 (first 100 elements)' });
    expect(expected).toHaveLength(5);
    expect(await fx.runner.run(query(sql))).toEqual(expected);
  });

  it('filters a drilldown query to one version, keeping compiler and flag-set order', async () => {
    const site = configBarsQuery('data', 'SET');
    const expected = (await fx.runner.run(site)).filter((r) => r.version === '7.4.1');
    const rows = await fx.runner.run(query<{ cell_id: string }>(chartSql(site, 'SET', { version: '7.4.1' })));
    expect(rows).toEqual(expected);
    expect(rows.map((r) => r.cell_id.split('|')[1])).toEqual([...Array(6).fill('gcc'), ...Array(6).fill('clang')]);
  });

  it('keeps text from the data inside its comment and its literal: one statement that runs', async () => {
    const sql = chartSql(versionBarsQuery(null), "evil\nDROP VIEW results; --", { test: "x'; DROP VIEW results; --" });
    expect(splitStatements(sql)).toHaveLength(1);
    expect(await fx.runner.run(query(sql))).toEqual([]);
  });
});

describe('sectionSql', () => {
  it("runs on its own and returns exactly the section query's rows, parameters inlined", async () => {
    const base = { compiler: 'clang', flag_set: "-O2 -flto" };
    const queries: Query<unknown>[] = [summaryItemsQuery(base, '7.4.1'), compareQuery({ version: '7.2.6', config: null }, { version: '7.4.1', config: base })];
    for (const q of queries) {
      const expected = await fx.runner.run(q);
      expect(q.params.length).toBeGreaterThan(0);
      expect(expected.length).toBeGreaterThan(10);
      const sql = sectionSql(q, 'Summary: per-test changes');
      expect(sql.startsWith('-- Summary: per-test changes\n')).toBe(true);
      expect(splitStatements(sql)).toHaveLength(1);
      expect(await fx.runner.run(query(sql))).toEqual(expected);
    }
  });

  it('keeps a title from the data inside its comment line', async () => {
    const sql = sectionSql(summaryItemsQuery({ compiler: "x'", flag_set: 'y' }, null), "evil\nDROP VIEW results; --");
    expect(sql.split('\n')[0]).toBe('-- evil DROP VIEW results; --');
    expect(splitStatements(sql)).toHaveLength(1);
    expect(await fx.runner.run(query(sql))).toEqual([]);
  });
});
