/**
 * The latency metrics (p50, p95, p99: src/vocabulary.ts): measured figures, lower is better, read
 * from their own column of results with cell_status's rows, judged by requests/second's noise rule
 * (the repeats' spread, no rebuild band), and a latency the client did not print is "not
 * measured", never zero. Run on the site's DuckDB against the fixture.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { statusText, versionBar } from '../../src/model/bars';
import { decodeState } from '../../src/model/state';
import { configBarsQuery, versionBarsQuery } from '../../src/sql/charts';
import { compareQuery } from '../../src/sql/compare';
import { effectsQuery } from '../../src/sql/effects';
import { LATENCY_STATUS_SQL, lazyReaders } from '../../src/sql/load';
import { query, type Query } from '../../src/sql/query';
import { statusGridQuery } from '../../src/sql/status';
import { summaryQuery } from '../../src/sql/summary';
import { versionVerdictsQuery } from '../../src/sql/verdicts';
import { INSTRUMENT_IDS, LATENCY_METRICS, METRIC_IDS, METRICS } from '../../src/vocabulary';
import { type FixtureDb, openFixtureDb, rewrittenFixture } from '../support/fixture-db';

const P50 = METRICS.p50;
let fx: FixtureDb;

beforeAll(async () => {
  fx = await openFixtureDb();
});

describe('the latency metrics', () => {
  it('are measured in ms, lower is better, each with its own view and column of results', () => {
    expect(LATENCY_METRICS.map((m) => [m.id, m.table, m.latencyColumn, m.unit, m.lower, m.kind, m.countColumn])).toEqual([
      ['p50', 'p50_status', 'p50_latency_ms', 'ms', true, 'measured', null],
      ['p95', 'p95_status', 'p95_latency_ms', 'ms', true, 'measured', null],
      ['p99', 'p99_status', 'p99_latency_ms', 'ms', true, 'measured', null],
    ]);
    expect(LATENCY_METRICS.every((m) => m.direction === 'lower is better' && m.note?.includes('Little\'s law'))).toBe(true);
    expect(METRIC_IDS.slice(0, 4)).toEqual(['rps', 'p50', 'p95', 'p99']);
    // The summary compares the instruments: the latencies restate requests/second, so they stay out.
    expect(INSTRUMENT_IDS).toEqual(['rps', 'ir', 'cycles', 'l1', 'll', 'branch']);
    expect(LATENCY_STATUS_SQL).toContain('CREATE OR REPLACE VIEW p99_status AS');
  });

  it('read each repeat\'s own column: the best is the lowest repeat, the whisker end the highest, on cell_status\'s reference rows', async () => {
    for (const m of LATENCY_METRICS) {
      const [mismatch] = await fx.runner.run(query<{ n: number; rows: number; figures: number; reference: number }>(`
        SELECT count(*) FILTER (WHERE s.best_value IS DISTINCT FROM r.best OR s.worst_value IS DISTINCT FROM r.worst
                                 OR (s.best_value IS NOT NULL AND s.status <> c.status) OR s.band_floor <> 0)::INTEGER AS n,
               count(*)::INTEGER AS rows, count(s.best_value)::INTEGER AS figures,
               (SELECT count(*) FROM cell_status WHERE protocol = 'reference')::INTEGER AS reference
        FROM ${m.table} s
        JOIN cell_status c USING (cell_id, mode, test)
        LEFT JOIN (SELECT cell_id, mode, test, min(${m.latencyColumn}) AS best, max(${m.latencyColumn}) AS worst FROM results GROUP BY ALL) r USING (cell_id, mode, test)`));
      expect(mismatch?.n, m.id).toBe(0);
      expect(mismatch?.rows, m.id).toBe(mismatch?.reference);
      expect(mismatch?.figures, m.id).toBeGreaterThan(0);
    }
  });

  it('give each version the lowest-latency configuration as its bar', async () => {
    const versions = await fx.runner.run(versionBarsQuery(null, P50));
    const configs = await fx.runner.run(configBarsQuery('data', 'SET', P50));
    const v741 = versions.find((r) => r.mode === 'data' && r.test === 'SET' && r.version === '7.4.1');
    const measured = configs.filter((c) => c.version === '7.4.1' && c.best_value !== null);
    expect(measured.length).toBeGreaterThan(1);
    expect(v741?.best_value).toBe(Math.min(...measured.map((c) => c.best_value ?? Infinity)));
    expect(configs.find((c) => c.version === '7.4.1' && c.winner)?.best_value).toBe(v741?.best_value);
    expect(v741?.worst_value).toBeGreaterThanOrEqual(v741?.best_value ?? Infinity);
  });

  it('judge a configuration against the lowest by requests/second\'s rule: the larger spread of the repeats, no floor', async () => {
    const configs = await fx.runner.run(configBarsQuery('data', 'SET', P50));
    const judged = configs.filter((c) => c.vs_winner_verdict !== null);
    expect(judged.length).toBeGreaterThan(0);
    for (const c of judged) {
      const top = configs.find((t) => t.version === c.version && t.winner);
      const ratio = (c.best_value ?? 0) / (top?.best_value ?? 1);
      const topSpread = top?.spread ?? null;
      const band = c.spread === null || topSpread === null ? null : Math.max(c.spread, topSpread);
      // A higher latency is worse: 'slower' beyond the band, never 'faster' against the lowest.
      const expected = band === null ? 'unknown' : ratio - 1 > band ? 'slower' : 'tie';
      expect(c.vs_winner_verdict, c.cell_id).toBe(expected);
      expect(c.vs_winner, c.cell_id).toBeCloseTo(ratio - 1, 12);
    }
  });

  it('say "not measured" where the client printed no latency, never zero', async () => {
    const results = await rewrittenFixture('results', "SELECT * REPLACE (CASE WHEN version = '7.4.1' THEN NULL ELSE p50_latency_ms END AS p50_latency_ms) FROM fixture");
    const db = await openFixtureDb(undefined, { results });
    const [rps] = (await db.runner.run(versionBarsQuery(null))).filter((r) => r.mode === 'data' && r.test === 'SET' && r.version === '7.4.1');
    const [p50] = (await db.runner.run(versionBarsQuery(null, P50))).filter((r) => r.mode === 'data' && r.test === 'SET' && r.version === '7.4.1');
    expect(rps?.status).toBe('ok');
    expect(p50).toMatchObject({ status: 'not_collected', best_value: null, worst_value: null, reason: 'not measured: this client prints no latency' });
    const configs = (await db.runner.run(configBarsQuery('data', 'SET', P50))).filter((c) => c.version === '7.4.1');
    expect(configs.every((c) => c.best_value === null && c.status !== 'ok')).toBe(true);
    const bar = versionBar(p50!, () => 'blue', undefined, P50);
    expect(bar.value).toBeNull();
    expect(bar.tooltip).toContain('Not measured: this client prints no latency');
    expect(bar.missingLabel).toBe('not measured');
    expect(versionBar({ ...p50!, reason: null }, () => 'blue', undefined, METRICS.rps).missingLabel).toBeUndefined();
    // Other versions keep their figures.
    const [p50Of726] = (await db.runner.run(versionBarsQuery(null, P50))).filter((r) => r.mode === 'data' && r.test === 'SET' && r.version === '7.2.6');
    expect(p50Of726?.best_value).toBeGreaterThan(0);
  });

  it('answer every section\'s queries, with the lowest latency as the best', async () => {
    const [older, newer] = fx.versions.slice(-2);
    const base = fx.catalog.configs[0];
    expect(base && older && newer).toBeTruthy();
    if (!base || !older || !newer) return;
    for (const m of LATENCY_METRICS) {
      const queries: Query<unknown>[] = [summaryQuery(base, m), effectsQuery(m), versionVerdictsQuery(m), statusGridQuery(m),
        compareQuery({ version: older, config: null }, { version: newer, config: null }, m)];
      for (const q of queries) expect((await fx.runner.run(q)).length, `${m.id}: ${q.sql.slice(0, 60)}`).toBeGreaterThan(0);
    }
    // The status grid is the throughput runs' under any measured metric.
    expect(await fx.runner.run(statusGridQuery(P50))).toEqual(await fx.runner.run(statusGridQuery(METRICS.rps)));
  });

  it('keep requests/second\'s words for a cell not collected at all', () => {
    expect(statusText('not_collected', null)).toBe('not collected yet');
    expect(statusText('not_collected', 'not measured yet')).toBe('not measured yet');
  });

  it('fetch results\' lazy file for p95 and p99, whose columns are lazy, and not for p50', () => {
    expect(lazyReaders('results')).toEqual(expect.arrayContaining(['p95_latency_ms', 'p95_status', 'p99_status']));
    expect(lazyReaders('results')).not.toContain('p50_status');
  });

  it('are named in the URL', () => {
    expect(decodeState('?metric=p95')).toMatchObject({ state: { metric: 'p95' }, problems: [] });
  });
});
