import { beforeAll, describe, expect, it } from 'vitest';
import { chartParts, createChartData, FIRST_CHUNK, verdictKey } from '../../src/views/chartData';
import { METRICS } from '../../src/vocabulary';
import { type AppState, chartKey, DEFAULTS } from '../../src/model/state';
import { configBarsQuery, versionBarsQuery } from '../../src/sql/charts';
import type { Query, QueryRunner } from '../../src/sql/query';
import { versionVerdictsQuery } from '../../src/sql/verdicts';
import { openFixtureDb, type FixtureDb } from '../support/fixture-db';

let fx: FixtureDb;

beforeAll(async () => {
  fx = await openFixtureDb();
});

/** The fixture's runner, recording every statement it runs with its parameters. */
function countingRunner(): QueryRunner & { asked: Query<unknown>[] } {
  const asked: Query<unknown>[] = [];
  return {
    asked,
    run<Row>(q: Query<Row>): Promise<Row[]> {
      asked.push(q);
      return fx.runner.run(q);
    },
  };
}

/** Rows by chart key, each chart's in their order. */
function byChart<Row extends { mode: string; test: string }>(rows: readonly Row[]): Record<string, Row[]> {
  const charts: Record<string, Row[]> = {};
  for (const row of rows) (charts[chartKey(row.mode, row.test)] ??= []).push(row);
  return charts;
}

describe('chartParts', () => {
  it('asks for the first charts of the page first, then every other chart', () => {
    const charts = fx.catalog.charts;
    expect(charts.length).toBeGreaterThan(FIRST_CHUNK);
    const [first, rest, ...more] = chartParts(charts);
    expect(more).toEqual([]);
    expect(first).toEqual({ only: charts.slice(0, FIRST_CHUNK) });
    expect(rest).toEqual({ except: charts.slice(0, FIRST_CHUNK) });
  });

  it('makes one part of every chart when there are no more than the first', () => {
    expect(chartParts(fx.catalog.charts.slice(0, FIRST_CHUNK))).toEqual([null]);
  });

  it("gives each chart exactly the rows of the all-charts queries, bars and verdicts, whatever part asks, in every metric", async () => {
    for (const metric of [METRICS.rps, METRICS.ir]) {
      const allBars = await fx.runner.run(versionBarsQuery(null, metric));
      const allVerdicts = await fx.runner.run(versionVerdictsQuery(metric));
      const parts = chartParts(fx.catalog.charts);
      const bars = await Promise.all(parts.map((part) => fx.runner.run(versionBarsQuery(null, metric, false, part))));
      const verdicts = await Promise.all(parts.map((part) => fx.runner.run(versionVerdictsQuery(metric, false, part))));
      expect(Object.keys(byChart(bars[0] ?? []))).toHaveLength(FIRST_CHUNK);
      expect(byChart(bars.flat())).toEqual(byChart(allBars));
      expect(bars.flat()).toHaveLength(allBars.length);
      expect(byChart(verdicts.flat())).toEqual(byChart(allVerdicts));
      expect(verdicts.flat()).toHaveLength(allVerdicts.length);
      // A range keeps the parts apart too.
      const ranged = await Promise.all(parts.map((part) => fx.runner.run(versionBarsQuery({ from: 1, to: 3 }, metric, false, part))));
      expect(byChart(ranged.flat())).toEqual(byChart(await fx.runner.run(versionBarsQuery({ from: 1, to: 3 }, metric))));
    }
  });
});

const RPS_STATE: AppState = { ...DEFAULTS, metric: 'rps' };

describe('createChartData', () => {
  it("draws a first chart from its part's two queries alone, and every chart from both parts", async () => {
    // In requests/second, whose charts include the precision modes' (a counted metric has the reference modes' alone).
    const runner = countingRunner();
    const data = createChartData(runner, fx.versions, fx.catalog.charts);
    const [first] = fx.catalog.charts;
    const key = chartKey(first?.mode ?? '', first?.test ?? '');
    const [own] = chartParts(fx.catalog.charts);
    expect(await data.chartRows(RPS_STATE, key)).toHaveLength(fx.versions.length);
    expect((await data.chartVerdicts(RPS_STATE, key)).get(verdictKey(key, '7.4.1'))).toBeDefined();
    expect(runner.asked).toEqual([versionBarsQuery(null, METRICS.rps, false, own), versionVerdictsQuery(METRICS.rps, false, own)]);
    expect(data.verdictsIfReady(RPS_STATE, key)).not.toBeNull();
    const last = fx.catalog.charts.at(-1);
    expect(data.verdictsIfReady(RPS_STATE, chartKey(last?.mode ?? '', last?.test ?? ''))).toBeNull();

    const all = await data.versionRows(RPS_STATE);
    expect([...all.keys()]).toEqual(fx.catalog.charts.map((c) => chartKey(c.mode, c.test)));
    expect(await data.verdicts(RPS_STATE)).toEqual(new Map((await fx.runner.run(versionVerdictsQuery(METRICS.rps))).map((r) => [verdictKey(chartKey(r.mode, r.test), r.version), r])));
    expect(runner.asked).toHaveLength(4);
  });

  it("queries a chart's drilldowns once, for that chart only", async () => {
    const runner = countingRunner();
    const data = createChartData(runner, fx.versions, fx.catalog.charts);
    const clicked = await data.configRows('pipe', 'SET');
    expect(clicked.get('7.4.1')).toHaveLength(12);
    expect(await data.configRows('pipe', 'SET')).toBe(clicked);
    expect(runner.asked).toEqual([configBarsQuery('pipe', 'SET')]);
  });
});
