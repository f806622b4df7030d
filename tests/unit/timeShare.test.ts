/**
 * The compiler-visible share (src/model/timeShare.ts) on hand-computed figures.
 */
import { describe, expect, it } from 'vitest';
import { compilerVisibleShare, expectedSpeedRatio, modeTimeShares, modeTimeShareText, type TimeShareRow } from '../../src/model/timeShare';
import { timeShareQuery } from '../../src/sql/timeShare';
import { openFixtureDb, rewrittenFixture } from '../support/fixture-db';

const row = (mode: string, test: string, test_index: number, user: number, sys: number, busy: number): TimeShareRow => ({
  mode, test, test_index, server_user_s: user, server_sys_s: sys, server_busy: busy, client_busy: 0.5, results: 3,
});

describe('compilerVisibleShare', () => {
  it('is user time over user + kernel time, unknown without CPU time', () => {
    expect(compilerVisibleShare(0.25, 0.75)).toBe(0.25);
    expect(compilerVisibleShare(0, 0)).toBeNull();
  });
});

describe('expectedSpeedRatio', () => {
  it('scales the counted change by the share: 5% fewer instructions at share 0.25 is at most 1.27% faster', () => {
    expect(expectedSpeedRatio(0.95, 0.25)).toBeCloseTo(1 / 0.9875, 12);
    expect(expectedSpeedRatio(0.95, 1)).toBeCloseTo(1 / 0.95, 12);
    expect(expectedSpeedRatio(1.1, 0)).toBe(1);
  });
});

describe('modeTimeShares', () => {
  it('sums each mode\'s CPU seconds before dividing, and lists its tests in the client\'s order', () => {
    const modes = modeTimeShares([
      row('data', 'GET', 3, 1, 3, 0.8), row('pipe', 'SET', 2, 9, 1, 0.98), row('data', 'SET', 2, 1, 1, 0.9),
    ]);
    expect(modes.map((m) => m.mode)).toEqual(['data', 'pipe']);
    const [data, pipe] = modes;
    expect(data?.share).toBeCloseTo(2 / 6, 12);
    expect(data?.serverBusy).toBeCloseTo(0.85, 12);
    expect(data?.tests.map((t) => [t.test, t.share])).toEqual([['SET', 0.5], ['GET', 0.25]]);
    expect(pipe?.share).toBe(0.9);
  });
});

describe('modeTimeShareText', () => {
  it('says the busy fraction, the share and the bound it puts on a 5% count change', () => {
    const [pipe] = modeTimeShares([row('pipe-long', 'SET', 2, 9, 1, 0.98)]);
    expect(pipe && modeTimeShareText(pipe)).toBe(
      'pipe-long: server busy 98.0% of the wall time (client 50.0%), 90.0% of its CPU time in its own code (compiler-visible), 10.0% in the kernel; ' +
      '5% fewer instructions per request: at most +4.7% requests/second');
  });
});

describe('timeShareQuery', () => {
  it('sums the fixture\'s CPU figures per mode and test: 25% compiler-visible in the data modes, 90% in the pipe modes', async () => {
    const { runner } = await openFixtureDb();
    const modes = modeTimeShares(await runner.run(timeShareQuery()));
    expect(modes.map((m) => m.mode)).toEqual(['data', 'data-long', 'pipe', 'pipe-long']);
    for (const m of modes) {
      expect(m.share).toBeCloseTo(m.mode.startsWith('pipe') ? 0.9 : 0.25, 2);
      expect(m.serverBusy).toBeGreaterThan(m.mode.startsWith('pipe') ? 0.97 : 0.85);
      expect(m.tests.length).toBe(10); // the fixture's tests
    }
  });

  it('finds nothing in results written before the CPU columns', async () => {
    const old = await rewrittenFixture('results', 'SELECT * EXCLUDE (server_user_s, server_sys_s, server_busy, client_user_s, client_sys_s, client_busy) FROM fixture');
    const { runner } = await openFixtureDb(undefined, { results: old });
    expect(await runner.run(timeShareQuery())).toEqual([]);
  });
});
