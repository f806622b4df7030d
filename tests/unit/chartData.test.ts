import { beforeAll, describe, expect, it } from 'vitest';
import { createChartData } from '../../src/app/chartData';
import { allConfigBarsQuery, configBarsQuery, versionBarsQuery } from '../../src/sql/charts';
import type { Query, QueryRunner } from '../../src/sql/query';
import { openFixtureDb, type FixtureDb } from '../support/fixture-db';

let fx: FixtureDb;
let charts: { mode: string; test: string }[];

beforeAll(async () => {
  fx = await openFixtureDb();
  const bars = await fx.runner.run(versionBarsQuery(null));
  const keys = new Map(bars.map((b) => [`${b.mode}|${b.test}`, { mode: b.mode, test: b.test }]));
  charts = [...keys.values()];
});

/** The fixture's runner, recording every statement it runs; `failAll` makes the all-charts query fail. */
function countingRunner(failAll = false): QueryRunner & { sql: string[] } {
  const sql: string[] = [];
  const allSql = allConfigBarsQuery().sql;
  return {
    sql,
    run<Row>(q: Query<Row>): Promise<Row[]> {
      sql.push(q.sql);
      if (failAll && q.sql === allSql) return Promise.reject(new Error('fixture: the all-charts query fails'));
      return fx.runner.run(q);
    },
  };
}

describe('allConfigBarsQuery', () => {
  it("gives every chart exactly its own drilldown query's rows, in the same order", async () => {
    const all = await fx.runner.run(allConfigBarsQuery());
    expect(new Set(all.map((r) => `${r.mode}|${r.test}`)).size).toBe(charts.length);
    let total = 0;
    for (const { mode, test } of charts) {
      const own = await fx.runner.run(configBarsQuery(mode, test));
      const mine = all.filter((r) => r.mode === mode && r.test === test).map(({ mode: _m, test: _t, ...rest }) => rest);
      expect(mine, `${mode} ${test}`).toEqual(own);
      total += own.length;
    }
    expect(all).toHaveLength(total);
  });
});

describe('createChartData drilldowns', () => {
  it('serves every chart from one prefetch query, with no query at click time', async () => {
    const runner = countingRunner();
    const data = createChartData(runner, fx.versions);
    await data.prefetchAllConfigRows();
    expect(runner.sql).toHaveLength(1);
    for (const { mode, test } of charts) {
      const byVersion = await data.configRows(mode, test);
      const own = await fx.runner.run(configBarsQuery(mode, test));
      expect([...byVersion.values()].flat().length).toBe(own.length);
      expect(byVersion.get('7.4.1')?.map((r) => r.flag_set)).toEqual(own.filter((r) => r.version === '7.4.1').map((r) => r.flag_set));
    }
    expect(runner.sql).toHaveLength(1);
  });

  it('answers a click during the prefetch with its own query rather than wait behind background work', async () => {
    const runner = countingRunner();
    const data = createChartData(runner, fx.versions);
    const prefetch = data.prefetchAllConfigRows();
    const clicked = await data.configRows('pipe', 'SET');
    await prefetch;
    expect(runner.sql).toEqual([allConfigBarsQuery().sql, configBarsQuery('pipe', 'SET').sql]);
    expect(clicked.get('7.4.1')).toHaveLength(12);
    // The prefetch kept the chart's own rows and filled in the others.
    expect(await data.configRows('pipe', 'SET')).toBe(clicked);
    await data.configRows('data', 'GET');
    expect(runner.sql).toHaveLength(2);
  });

  it('lets charts query on their own when the prefetch fails', async () => {
    const runner = countingRunner(true);
    const data = createChartData(runner, fx.versions);
    await expect(data.prefetchAllConfigRows()).rejects.toThrow('fixture');
    expect((await data.configRows('data', 'GET')).get('7.4.1')).toHaveLength(12);
    expect(runner.sql).toHaveLength(2);
  });
});
