/**
 * The precision modes: the SQL that pairs rounds (src/sql/precision.ts) run on the fixture and
 * checked against figures computed here from results.parquet, and the site's verdicts from the
 * bootstrap (src/model/precision.ts) on hand-computed cases. The bootstrap itself is checked
 * against the collector's hand-worked cases in stats.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  durationLines, formatSeconds, judge, perTest, precisionReleaseChanges, precisionSummary, precisionVersionVerdicts, siteVerdict,
} from '../../src/model/precision';
import { coefficientOfVariation } from '../../src/model/stats';
import { compareQuery } from '../../src/sql/compare';
import {
  precisionCompareQuery, precisionSummaryQuery, precisionVerdictsQuery, type ReleaseRoundRow, testDurationQuery, type TestDurationRow,
  type VerdictRoundRow,
} from '../../src/sql/precision';
import { query } from '../../src/sql/query';
import { TABLES } from '../../src/sql/schema';
import { openFixtureDb, rewrittenFixture, type FixtureDb } from '../support/fixture-db';

const gccO2 = { compiler: 'gcc', flag_set: '-O2' };
const close = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(want)));

/** One configuration's figures round by round (repeat number, rps), straight from the fixture's results. */
async function roundsOf(fx: FixtureDb, cell: string, mode: string, test: string): Promise<{ repeat: number; rps: number }[]> {
  return fx.runner.run(query<{ repeat: number; rps: number }>(
    `SELECT repeat, rps FROM results WHERE cell_id = ? AND mode = ? AND test = ? AND status = 'ok' ORDER BY repeat`, [cell, mode, test]));
}

describe('the SQL that pairs rounds', () => {
  let fx: FixtureDb;
  beforeAll(async () => {
    fx = await openFixtureDb();
  });

  it('pairs a configuration with the baseline measured in the same round', async () => {
    const rows = await fx.runner.run(precisionSummaryQuery(gccO2));
    const mine = rows.filter((r) => r.mode === 'data-long' && r.version === '7.4.1' && r.compiler === 'clang' && r.flag_set === '-O2 -flto' && r.test === 'SET');
    const config = await roundsOf(fx, '7.4.1|clang|-O2 -flto', 'data-long', 'SET');
    const base = await roundsOf(fx, '7.4.1|gcc|-O2', 'data-long', 'SET');
    expect(mine.map((r) => r.round)).toEqual([1, 2, 3, 4, 5]);
    mine.forEach((r, i) => close(r.lr, Math.log((config[i]?.rps ?? NaN) / (base[i]?.rps ?? NaN))));
    // The baseline against itself: ln 1 in every round.
    expect(rows.filter((r) => r.compiler === 'gcc' && r.flag_set === '-O2').every((r) => r.lr === 0)).toBe(true);
  });

  it("leaves out a round whose server failed, and only that configuration's", async () => {
    const rows = await fx.runner.run(precisionSummaryQuery(gccO2));
    const rounds = (config: string) => [...new Set(rows.filter((r) => r.mode === 'pipe-long' && r.version === '7.4.1' && `${r.compiler} ${r.flag_set}` === config).map((r) => r.round))];
    expect(rounds('gcc -O2 -flto')).toEqual([1, 2, 4, 5]);
    expect(rounds('gcc -Os')).toEqual([1, 2, 3, 4, 5]);
  });

  it("numbers rounds by the class's repeats, whatever their numbers", async () => {
    // 7.4.1's precision repeats renumbered 11..15 (another machine took 1..10): still rounds 1..5, paired alike.
    const shift = (table: 'runs' | 'results') => rewrittenFixture(table,
      `SELECT * REPLACE (CASE WHEN version = '7.4.1' AND mode LIKE '%-long' THEN repeat + 10 ELSE repeat END AS repeat) FROM fixture`);
    const shifted = await openFixtureDb(TABLES, { runs: await shift('runs'), results: await shift('results') });
    const key = (r: { mode: string; version: string; compiler: string; flag_set: string; test: string; round: number; lr: number }) =>
      `${r.mode} ${r.version} ${r.compiler} ${r.flag_set} ${r.test} ${r.round} ${r.lr}`;
    expect((await shifted.runner.run(precisionSummaryQuery(gccO2))).map(key)).toEqual((await fx.runner.run(precisionSummaryQuery(gccO2))).map(key));
  });

  it('reads the class shown only: the other class measured no precision round', async () => {
    const intel = await openFixtureDb(TABLES, {}, 'fixture-intel-cpu-family-6-model-85-2-cores');
    expect(await intel.runner.run(precisionSummaryQuery(gccO2))).toEqual([]);
    expect(intel.catalog.rounds).toEqual([]);
    // The charts stay: each class gets the same, its missing figures marked.
    expect(intel.catalog.precisionModes).toEqual(['data-long', 'pipe-long']);
  });

  it('pairs two versions round by number, as many rounds as both have', async () => {
    const newer = { version: '7.4.1', config: gccO2 };
    const both = await fx.runner.run(precisionCompareQuery({ version: '6.2.16', config: gccO2 }, newer));
    const one = await fx.runner.run(precisionCompareQuery({ version: '2.8.24', config: gccO2 }, newer));
    const rounds = (rows: typeof both) => [...new Set(rows.filter((r) => r.mode === 'data-long' && r.test === 'GET').map((r) => r.round))];
    expect(rounds(both)).toEqual([1, 2, 3, 4, 5]);
    expect(rounds(one)).toEqual([1]);
    const older = await roundsOf(fx, '2.8.24|gcc|-O2', 'data-long', 'GET');
    const later = await roundsOf(fx, '7.4.1|gcc|-O2', 'data-long', 'GET');
    close(one.find((r) => r.mode === 'data-long' && r.test === 'GET')?.lr ?? NaN, Math.log((later[0]?.rps ?? NaN) / (older[0]?.rps ?? NaN)));
  });

  it("takes a version's fastest per test by its geometric mean over the rounds, as its chart's bar", async () => {
    const [figure] = await fx.runner.run(compareQuery({ version: '6.2.16', config: null }, { version: '7.4.1', config: null }, undefined, 'precision'));
    expect(figure).toMatchObject({ mode: 'data-long', test: 'PING_INLINE', a_spread: null, b_spread: null });
    const [fastest] = await fx.runner.run(query<{ cell_id: string }>(
      `SELECT cell_id FROM results WHERE version = '6.2.16' AND mode = 'data-long' AND test = 'PING_INLINE' AND status = 'ok'
       GROUP BY cell_id ORDER BY avg(ln(rps)) DESC LIMIT 1`));
    expect(figure?.a_config).toBe(fastest?.cell_id.split('|').slice(1).join(' '));
    const rounds = await roundsOf(fx, fastest?.cell_id ?? '', 'data-long', 'PING_INLINE');
    close(figure?.a_best ?? NaN, Math.exp(rounds.reduce((s, r) => s + Math.log(r.rps), 0) / rounds.length));
    close(figure?.a_cv ?? NaN, coefficientOfVariation(rounds.map((r) => r.rps)));
  });

  it("pairs each rival with the version's fastest, and the fastest with the previous release's", async () => {
    const rows = await fx.runner.run(precisionVerdictsQuery({ only: [{ mode: 'data-long', test: 'INCR' }] }));
    expect(new Set(rows.map((r) => `${r.mode}:${r.test}`))).toEqual(new Set(['data-long:INCR']));
    const previous = rows.filter((r) => r.kind === 'previous');
    expect([...new Set(previous.map((r) => `${r.version}<${r.other}`))]).toEqual(['6.2.16<2.8.24', '7.4.1<6.2.16']);
    expect(previous.filter((r) => r.version === '6.2.16').map((r) => r.round)).toEqual([1]);
    // 6.2.16's fastest on INCR is the planted clang -O2 -flto: every other configuration measured is its rival.
    const rivals = rows.filter((r) => r.kind === 'rival' && r.version === '6.2.16');
    expect(new Set(rivals.map((r) => r.other)).size).toBe(10);
    expect(rivals.some((r) => r.other === '6.2.16|clang|-O2 -flto')).toBe(false);
    expect(rivals.every((r) => r.lr < 0)).toBe(true);
  });

  it("gives a precision figure as the geometric mean of its rounds and their coefficient of variation", async () => {
    const [row] = await fx.runner.run(query<{ best_value: number; worst_value: number; cv: number; ok_repeats: number; planned_repeats: number; protocol: string }>(
      `SELECT best_value, worst_value, cv, ok_repeats, planned_repeats, protocol FROM cell_status WHERE cell_id = '7.4.1|gcc|-Os -flto' AND mode = 'pipe-long' AND test = 'SET'`));
    const rounds = (await roundsOf(fx, '7.4.1|gcc|-Os -flto', 'pipe-long', 'SET')).map((r) => r.rps);
    close(row?.best_value ?? NaN, Math.exp(rounds.reduce((s, x) => s + Math.log(x), 0) / rounds.length));
    close(row?.cv ?? NaN, coefficientOfVariation(rounds));
    expect(row).toMatchObject({ worst_value: Math.min(...rounds), ok_repeats: 5, planned_repeats: 5, protocol: 'precision' });
    // The fixture's unstable figure: its rounds swing 0.7-1.2.
    expect(row?.cv).toBeGreaterThan(0.1);
  });

  it('says how long each test lasted: the request count over the rate, and one millisecond as a share of it', async () => {
    const rows = await fx.runner.run(testDurationQuery());
    const byMode = (mode: string) => rows.find((r) => r.mode === mode && r.test === 'SET');
    const medianOf = async (sql: string) => (await fx.runner.run(query<{ s: number }>(sql)))[0]?.s ?? NaN;
    const reference = await medianOf(`SELECT median(120000 / rps) AS s FROM results WHERE mode = 'pipe' AND test = 'SET' AND status = 'ok'`);
    const precision = await medianOf(`SELECT median(requests / rps) AS s FROM results WHERE mode = 'pipe-long' AND test = 'SET' AND status = 'ok'`);
    expect(byMode('pipe')).toMatchObject({ protocol: 'reference', min_requests: 120000, max_requests: 120000 });
    close(byMode('pipe')?.median_seconds ?? NaN, reference);
    close(byMode('pipe')?.median_resolution ?? NaN, 0.001 / reference);
    expect(byMode('pipe-long')?.protocol).toBe('precision');
    close(byMode('pipe-long')?.median_seconds ?? NaN, precision);
    // The calibration's promise (docs/method.md): one millisecond at most 0.1% of a test, for a
    // configuration up to a third faster than the one calibrated; the reference pipe mode's SET is 1 ms in a few hundred.
    expect(rows.filter((r) => r.protocol === 'precision').every((r) => r.worst_resolution <= 0.001)).toBe(true);
    expect(byMode('pipe')?.worst_resolution).toBeGreaterThan(0.003);
  });
});

/** Paired rounds of one item: ln of each round's ratio. */
const rounds = (...ratios: number[]) => ratios.map((ratio, i) => ({ round: i + 1, lr: Math.log(ratio) }));

describe('the verdict of a bootstrap interval', () => {
  it('is faster when the whole interval lies above a ratio of 1: three rounds 2%, 3%, 4% faster give the interval 1.02 to 1.04', () => {
    // A resample draws all three rounds alike with probability 1/27 each way, well above 2.5%: the
    // 2.5% and 97.5% nearest ranks are the smallest and the largest round.
    const j = judge(rounds(1.02, 1.03, 1.04));
    close(j.ratio, Math.cbrt(1.02 * 1.03 * 1.04));
    close(j.interval.lo ?? NaN, 1.02);
    close(j.interval.hi ?? NaN, 1.04);
    expect([j.verdict, j.interval.rounds, j.items]).toEqual(['faster', 3, 1]);
  });

  it('is no change within noise (tie) when the interval holds 1, and slower when it lies below', () => {
    const straddling = judge(rounds(0.99, 1.01, 1.03));
    expect([straddling.interval.lo, straddling.verdict]).toEqual([0.99, 'tie']);
    close(straddling.interval.hi ?? NaN, 1.03);
    expect(judge(rounds(0.97, 0.98, 0.99)).verdict).toBe('slower');
  });

  it('gives no interval and no verdict from one round', () => {
    const one = judge(rounds(1.5));
    expect(one).toMatchObject({ ratio: 1.5, interval: { lo: null, hi: null, rounds: 1 }, verdict: 'unknown' });
    expect(siteVerdict({ lo: null, hi: null, rounds: 1 })).toBe('unknown');
  });

  it('judges tests as items: a round missing one test leaves out that pair only', () => {
    const rows = [
      { round: 1, test: 'SET', lr: Math.log(1.02) }, { round: 1, test: 'GET', lr: Math.log(1.04) },
      { round: 2, test: 'SET', lr: Math.log(1.02) }, { round: 2, test: 'GET', lr: null },
    ];
    const j = judge(rows, (r) => r.test);
    close(j.ratio, Math.exp((2 * Math.log(1.02) + Math.log(1.04)) / 3));
    expect([j.interval.rounds, j.items]).toEqual([2, 2]);
  });

  it("averages a test's ratio in a round over its versions first, so each test weighs the same", () => {
    const rows = [
      { round: 1, test: 'SET', version: 'a', lr: Math.log(1.02) }, { round: 1, test: 'SET', version: 'b', lr: Math.log(1.04) },
      { round: 2, test: 'SET', version: 'a', lr: Math.log(1.04) }, { round: 2, test: 'SET', version: 'b', lr: Math.log(1.06) },
      { round: 2, test: 'GET', version: 'a', lr: Math.log(1.1) },
    ];
    const averaged = perTest(rows);
    close(averaged.find((r) => r.round === 1 && r.test === 'SET')?.lr ?? NaN, (Math.log(1.02) + Math.log(1.04)) / 2);
    expect(averaged).toHaveLength(3);
    // Two rounds of SET: the interval runs from the first round's mean to the second's.
    const set = judge(averaged.filter((r) => r.test === 'SET'));
    close(set.interval.lo ?? NaN, Math.sqrt(1.02 * 1.04));
    close(set.interval.hi ?? NaN, Math.sqrt(1.04 * 1.06));
  });
});

describe('the precision summary', () => {
  it('scores a configuration per version and over all versions, with its per-test verdicts', async () => {
    const fx = await openFixtureDb();
    const { scores, items } = precisionSummary(await fx.runner.run(precisionSummaryQuery(gccO2)), null);
    const score = (config: string, version: string | null) => scores.find((s) => s.mode === 'data-long' && `${s.compiler} ${s.flag_set}` === config && s.version === version);
    // The fixture's builds: LTO 4% faster, -Os 5% slower, -Ofast exactly as fast as -O2, each round's host drift cancelled by pairing.
    expect(score('gcc -O2 -flto', '7.4.1')).toMatchObject({ verdict: 'faster', tests: 10, faster: 10 });
    expect(score('gcc -O2 -flto', '7.4.1')?.ratio).toBeCloseTo(1.04, 2);
    expect(score('gcc -Os', null)).toMatchObject({ verdict: 'slower', slower: 10 });
    expect(score('gcc -Ofast', null)?.verdict).toBe('tie');
    // 2.8.24 has one round: a ratio, but no interval and no verdict.
    expect(score('gcc -O2 -flto', '2.8.24')).toMatchObject({ verdict: 'unknown', interval: { lo: null, hi: null, rounds: 1 }, unknown: 8 });
    expect(items.filter((i) => i.mode === 'data-long' && i.compiler === 'gcc' && i.flag_set === '-O2 -flto')).toHaveLength(10);
    expect(items.find((i) => i.mode === 'data-long' && i.test === 'XADD')?.versions).toBe(2);
  });
});

const rival = (version: string, other: string, ...ratios: number[]): VerdictRoundRow[] => rounds(...ratios).map((r) => ({
  ...r, kind: 'rival', mode: 'data-long', test: 'SET', version, other, compiler: 'gcc', flag_set: other, figure: 100 * ratios[0]!,
}));
const previous = (version: string, other: string, ...ratios: number[]): VerdictRoundRow[] => rounds(...ratios).map((r) => ({
  ...r, kind: 'previous', mode: 'data-long', test: 'SET', version, other, compiler: null, flag_set: null, figure: null,
}));

describe('the winner calls of a precision chart', () => {
  it('calls a clear winner when every rival lies below it, a tie when one holds 1, no call with one round', () => {
    const [clear, tie, unknown] = precisionVersionVerdicts([
      ...rival('7.4.1', '-Os', 0.95, 0.96, 0.94), ...rival('7.4.1', '-O2', 0.98, 0.99, 0.97),
      ...rival('7.2.6', '-Os', 0.95, 0.96, 0.94), ...rival('7.2.6', '-O2', 0.99, 1.01, 1.0),
      ...rival('7.0.15', '-O2', 0.9),
    ]);
    expect(clear).toMatchObject({ version: '7.4.1', winner_call: 'clear', ties: 0, runner_flag_set: '-O2', runner_best: 98, spread: null });
    expect(clear?.standings?.['-O2']).toMatchObject({ verdict: 'slower', interval: { lo: 0.97, hi: 0.99, rounds: 3 } });
    expect(tie).toMatchObject({ version: '7.2.6', winner_call: 'tie', ties: 1 });
    expect(tie?.standings?.['-O2']?.verdict).toBe('tie');
    expect(unknown).toMatchObject({ version: '7.0.15', winner_call: 'unknown' });
  });

  it('judges the change against the previous release over their rounds paired by number', () => {
    const [row] = precisionVersionVerdicts([...previous('7.4.1', '7.2.6', 1.05, 1.06, 1.04)]);
    expect(row).toMatchObject({ winner_call: 'alone', prev_version: '7.2.6', change_verdict: 'faster', change_interval: { lo: 1.04, hi: 1.06, rounds: 3 } });
    close((row?.change ?? NaN) + 1, Math.cbrt(1.05 * 1.06 * 1.04));
  });
});

describe('the changes between releases in the precision modes', () => {
  const config = (compiler: string, missing: string | null, ...ratios: number[]): ReleaseRoundRow[] =>
    (missing ? [{ round: null, lr: null }] : rounds(...ratios)).map((r) => ({
      ...r, pair_index: 0, from_version: '7.2.6', to_version: '7.4.1', mode: 'pipe-long', test: 'GET', test_index: 3,
      compiler, flag_set: '-O2', compiler_index: compiler === 'gcc' ? 0 : 1, flag_index: 0, missing,
    }));

  it('counts each configuration faster, slower, within its interval or without one, and the figures missing', () => {
    const [row] = precisionReleaseChanges([
      ...config('gcc', null, 1.05, 1.06, 1.04), ...config('clang', null, 0.98, 1.01, 1.0), ...config('icc', null, 1.1),
      ...config('tcc', 'build_failed'),
    ]);
    expect(row).toMatchObject({
      configs: 4, compared: 3, cheaper: 1, costlier: 0, within: 1, unknown: 1, build_failed: 1, not_collected: 0,
      cheaper_configs: 'gcc -O2', band: null,
    });
    close(row?.cheaper_ratio ?? NaN, Math.cbrt(1.05 * 1.06 * 1.04));
  });
});

describe('test durations in words', () => {
  it("says a pipe test of 120,000 requests at 1,967,213 requests/s lasts 61 ms, one millisecond 1.6% of it", () => {
    const row: TestDurationRow = {
      mode: 'pipe', protocol: 'reference', test: 'SET', test_index: 2, results: 3, min_requests: 120000, max_requests: 120000,
      median_seconds: 120000 / 1967213, min_seconds: 0.06, median_resolution: 1967213 / 120000 / 1000, worst_resolution: 1 / 60,
    };
    expect(formatSeconds(row.median_seconds)).toBe('61 ms');
    expect(formatSeconds(1.7697)).toBe('1.77 s');
    expect(durationLines([row])).toEqual([{
      mode: 'pipe', protocol: 'reference',
      text: 'pipe mode (reference, 120,000 requests per test): a test lasted 61 ms to 61 ms (each test\'s median), so one millisecond, the client\'s clock, is 1.6% to 1.6% of it (up to 1.7% in its shortest run)',
    }]);
  });
});
