/**
 * The summary, build-factor, verdict, compare and status queries on the fixture (whose planted
 * effects are listed in tests/fixtures/make-fixtures.mjs), checked against figures computed
 * independently from results.parquet.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TABLES } from '../../src/sql/schema';
import { configBarsQuery } from '../../src/sql/charts';
import { compareQuery } from '../../src/sql/compare';
import { effectsQuery, type EffectRow } from '../../src/sql/effects';
import { query } from '../../src/sql/query';
import { cellBuildsQuery, cellRedoneQuery, cellRunsQuery, redoneSummaryQuery, statusGridQuery } from '../../src/sql/status';
import { summaryItemsQuery, summaryQuery, type SummaryRow } from '../../src/sql/summary';
import { versionVerdictsQuery, type VersionVerdictRow } from '../../src/sql/verdicts';
import { openFixtureDb, type FixtureDb } from '../support/fixture-db';

let fx: FixtureDb;
const gccO2 = { compiler: 'gcc', flag_set: '-O2' };

beforeAll(async () => {
  fx = await openFixtureDb();
});

/** Best repeat of one cell for one test and mode, straight from results. */
async function best(cell: string, mode: string, test: string): Promise<number> {
  const [row] = await fx.runner.run(query<{ rps: number }>(
    'SELECT max(rps) AS rps FROM results WHERE cell_id = ? AND mode = ? AND test = ?', [cell, mode, test]));
  return row?.rps ?? NaN;
}

describe('summaryQuery', () => {
  let rows: SummaryRow[];
  const row = (config: string, mode: string, version: string | null) =>
    rows.find((r) => `${r.compiler} ${r.flag_set}` === config && r.mode === mode && r.version === version);

  beforeAll(async () => {
    rows = await fx.runner.run(summaryQuery(gccO2));
  });

  it('scores the baseline at exactly 1, a tie with itself', () => {
    expect(row('gcc -O2', 'data', null)).toMatchObject({ ratio: 1, verdict: 'tie', tests: 10, faster: 0, slower: 0 });
  });

  it('is the geometric mean of per-test ratios on one version', async () => {
    const tests = ['PING_INLINE', 'PING_MBULK', 'SET', 'GET', 'INCR', 'LPUSH', 'ZPOPMIN', 'LRANGE_100 (first 100 elements)', 'MSET (10 keys)', 'XADD'];
    let logSum = 0;
    for (const test of tests) logSum += Math.log((await best('7.4.1|clang|-O2 -flto', 'pipe', test)) / (await best('7.4.1|gcc|-O2', 'pipe', test)));
    const r = row('clang -O2 -flto', 'pipe', '7.4.1');
    expect(r?.ratio).toBeCloseTo(Math.exp(logSum / tests.length), 10);
    expect(r?.tests).toBe(10);
    expect((r?.faster ?? 0) + (r?.slower ?? 0) + (r?.tie ?? 0) + (r?.unknown ?? 0)).toBe(10);
  });

  it('over all versions, averages each test over its versions first, so each test weighs the same', async () => {
    const items = await fx.runner.run(summaryItemsQuery(gccO2, null));
    const mine = items.filter((i) => i.compiler === 'clang' && i.flag_set === '-O2 -flto' && i.mode === 'data');
    expect(mine).toHaveLength(10);
    // XADD exists from 5.0 on: 3 measured versions (6.2.16, 7.2.6, 7.4.1); SET on all 6 collected ones.
    expect(mine.find((i) => i.test === 'XADD')?.versions).toBe(3);
    expect(mine.find((i) => i.test === 'SET')?.versions).toBe(6);
    const gm = Math.exp(mine.reduce((sum, i) => sum + Math.log(i.ratio), 0) / mine.length);
    expect(row('clang -O2 -flto', 'data', null)?.ratio).toBeCloseTo(gm, 10);
  });

  it('finds the planted build effects beyond noise: -Os slower, LTO faster', () => {
    expect(row('gcc -Os', 'data', null)).toMatchObject({ verdict: 'slower', slower: 10 });
    expect(row('gcc -O2 -flto', 'pipe', null)?.verdict).toBe('faster');
    expect(row('clang -Ofast -flto', 'data', '7.2.6')?.verdict).toBe('faster');
  });

  it('has no score where the configuration or the baseline was not measured', async () => {
    expect(row('clang -Ofast', 'data', '7.4.1')).toBeUndefined();
    expect(row('gcc -O2', 'data', '5.0.14')).toBeUndefined();
    const againstFailed = await fx.runner.run(summaryQuery({ compiler: 'clang', flag_set: '-Ofast' }));
    expect(againstFailed.some((r) => r.version === '7.4.1')).toBe(false);
  });

  it('names the tests with the largest loss and gain', () => {
    const r = row('clang -O2 -flto', 'data', '6.2.16');
    // INCR is 8% faster with clang -O2 -flto on 6.2.16 (planted).
    expect(r?.best_test).toBe('INCR');
    expect(r?.best_ratio).toBeGreaterThan(r?.worst_ratio ?? Infinity);
  });
});

describe('effectsQuery', () => {
  let rows: EffectRow[];
  const effect = (factor: string, level: string, mode: string, version: string | null) =>
    rows.find((r) => r.factor === factor && r.level === level && r.mode === mode && r.version === version);

  beforeAll(async () => {
    rows = await fx.runner.run(effectsQuery());
  });

  it('measures each factor against the plan\'s first compiler and level, in factor order', () => {
    const labels = [...new Set(rows.filter((r) => r.mode === 'data').map((r) => `${r.level} vs ${r.base}`))];
    expect(labels).toEqual(['clang vs gcc', '-Os vs -O2', '-Ofast vs -O2', 'on vs off']);
  });

  it('pairs builds that differ in that factor only', () => {
    // LTO on 7.4.1: gcc -O2/-Os/-Ofast and clang -O2/-Os have both builds (clang -Ofast* failed): 5 x 10 tests.
    expect(effect('lto', 'on', 'data', '7.4.1')?.pairs).toBe(50);
    // clang vs gcc on 7.4.1: 6 flag sets minus the 2 clang failures, x 10 tests.
    expect(effect('compiler', 'clang', 'data', '7.4.1')?.pairs).toBe(40);
  });

  it('recovers the planted effects: LTO +4%, -Os -5%, clang +2%, -Ofast +1% within noise', () => {
    expect(effect('lto', 'on', 'pipe', null)?.ratio).toBeCloseTo(1.04, 2);
    expect(effect('lto', 'on', 'pipe', null)?.verdict).toBe('faster');
    expect(effect('level', '-Os', 'data', null)?.ratio).toBeCloseTo(0.95, 2);
    expect(effect('level', '-Os', 'data', null)?.verdict).toBe('slower');
    expect(effect('compiler', 'clang', 'data', null)?.ratio).toBeCloseTo(1.02, 2);
    expect(effect('level', '-Ofast', 'data', null)?.verdict).toBe('tie');
  });

  it('gives one row per version with data plus one over all versions', () => {
    const versions = rows.filter((r) => r.factor === 'lto' && r.mode === 'data').map((r) => r.version);
    expect(versions).toEqual(['2.6.17', '2.8.24', '3.0.7', '6.2.16', '7.2.6', '7.4.1', null]);
  });
});

describe('versionVerdictsQuery', () => {
  let rows: VersionVerdictRow[];
  const at = (mode: string, test: string, version: string) => rows.find((r) => r.mode === mode && r.test === test && r.version === version);

  beforeAll(async () => {
    rows = await fx.runner.run(versionVerdictsQuery());
  });

  it('marks the planted regression and improvement against the previous release', () => {
    for (const mode of ['data', 'pipe']) {
      expect(at(mode, 'GET', '7.2.6')).toMatchObject({ prev_version: '6.2.16', change_verdict: 'slower' });
      expect(at(mode, 'LPUSH', '7.4.1')).toMatchObject({ prev_version: '7.2.6', change_verdict: 'faster' });
    }
    expect(at('data', 'GET', '7.2.6')?.change).toBeLessThan(-0.05);
  });

  it('compares with the nearest earlier release that has a figure', () => {
    expect(at('data', 'SET', '6.2.16')?.prev_version).toBe('3.0.7');
    expect(at('data', 'SET', '2.6.17')).toMatchObject({ prev_version: null, change: null, change_verdict: null });
    expect(at('data', 'SET', '5.0.14')).toBeUndefined();
  });

  it('calls a clear winner only when it beats the others beyond noise', async () => {
    const clear = at('data', 'INCR', '6.2.16');
    expect(clear).toMatchObject({ winner_call: 'clear', ties: 0, runner_compiler: 'clang', runner_flag_set: '-Ofast -flto' });
    const tied = rows.find((r) => r.winner_call === 'tie');
    expect(tied?.ties).toBeGreaterThan(0);
    // The runner-up of a tie is within the larger spread of the two.
    const winner = await fx.runner.run(query<{ best_value: number }>(
      "SELECT max(best_value) AS best_value FROM cell_status WHERE mode = ? AND test = ? AND version = ?", [tied?.mode ?? '', tied?.test ?? '', tied?.version ?? '']));
    const gap = (winner[0]?.best_value ?? 0) / (tied?.runner_best ?? 1) - 1;
    expect(gap).toBeLessThanOrEqual(Math.max(tied?.spread ?? 0, tied?.runner_spread ?? 0));
  });
});

describe('configBarsQuery noise columns', () => {
  it('judge every configuration against the winner as the version verdicts do', async () => {
    const verdicts = await fx.runner.run(versionVerdictsQuery());
    for (const [mode, test] of [['data', 'INCR'], ['pipe', 'SET'], ['data', 'GET']] as const) {
      const configs = await fx.runner.run(configBarsQuery(mode, test));
      for (const v of verdicts.filter((r) => r.mode === mode && r.test === test)) {
        const rows = configs.filter((c) => c.version === v.version);
        expect(rows.filter((c) => c.vs_winner_verdict === 'tie')).toHaveLength(v.ties);
        expect(rows.find((c) => c.winner)?.vs_winner_verdict).toBeNull();
      }
    }
    const incr = (await fx.runner.run(configBarsQuery('data', 'INCR'))).filter((c) => c.version === '6.2.16' && c.best_value !== null);
    expect(incr.filter((c) => !c.winner).every((c) => c.vs_winner_verdict === 'slower')).toBe(true);
    expect(incr.find((c) => c.winner)?.cell_id).toBe('6.2.16|clang|-O2 -flto');
  });

  it('give the spread of each configuration\'s repeats, none for a single repeat', async () => {
    const rows = (await fx.runner.run(configBarsQuery('data', 'SET'))).filter((c) => c.version === '7.4.1');
    const one = rows.find((c) => c.cell_id === '7.4.1|gcc|-Os -flto');
    expect(one).toMatchObject({ ok_repeats: 1, spread: null });
    const three = rows.find((c) => c.cell_id === '7.4.1|gcc|-O2');
    expect(three?.spread).toBeCloseTo(((three?.best_value ?? 0) - (three?.worst_value ?? 0)) / (three?.best_value ?? 1), 12);
  });
});

describe('compareQuery', () => {
  it('compares two versions at their fastest configurations, with a geometric mean per mode', async () => {
    const rows = await fx.runner.run(compareQuery({ version: '7.2.6', config: null }, { version: '7.4.1', config: null }));
    const tests = rows.filter((r) => r.mode === 'data' && r.test !== null);
    expect(tests).toHaveLength(10);
    expect(tests.find((r) => r.test === 'LPUSH')?.verdict).toBe('faster');
    expect(tests.find((r) => r.test === 'GET')?.verdict).toBe('faster');
    const mean = rows.find((r) => r.mode === 'data' && r.test === null);
    expect(mean?.tests).toBe(10);
    expect(mean?.ratio).toBeCloseTo(Math.exp(tests.reduce((s, r) => s + Math.log(r.ratio ?? 1), 0) / 10), 10);
    expect((mean?.faster ?? 0) + (mean?.tie ?? 0) + (mean?.slower ?? 0)).toBe(10);
    const get = tests.find((r) => r.test === 'GET');
    expect(get?.a_best).toBe(await best(`7.2.6|${get?.a_config?.replace(' ', '|')}`, 'data', 'GET'));
  });

  it('compares two configurations and keeps a side without figures as such, out of the mean', async () => {
    const rows = await fx.runner.run(compareQuery(
      { version: '7.4.1', config: gccO2 }, { version: '7.4.1', config: { compiler: 'clang', flag_set: '-Ofast' } }));
    const set = rows.find((r) => r.mode === 'pipe' && r.test === 'SET');
    expect(set).toMatchObject({ a_status: 'ok', a_config: 'gcc -O2', b_status: 'build_failed', b_best: null, ratio: null, verdict: null });
    expect(set?.b_reason).toContain('-Wdeprecated-ofast');
    expect(set?.a_reason).toBeNull();
    expect(rows.find((r) => r.mode === 'pipe' && r.test === null)).toMatchObject({ tests: 0, ratio: null });
  });

  it('judges nothing against a configuration with one repeat: its spread, so the band, is unknown', async () => {
    const rows = await fx.runner.run(compareQuery(
      { version: '7.4.1', config: gccO2 }, { version: '7.4.1', config: { compiler: 'gcc', flag_set: '-Os -flto' } }));
    const tests = rows.filter((r) => r.test !== null);
    expect(tests).toHaveLength(20);
    for (const r of tests) {
      expect(r.a_spread).not.toBeNull();
      expect(r).toMatchObject({ b_spread: null, band: null, verdict: 'unknown' });
      expect(r.ratio).not.toBeNull();
    }
    expect(rows.filter((r) => r.test === null)).toMatchObject([
      { band: null, verdict: 'unknown', unknown: 10, faster: 0, slower: 0, tie: 0 },
      { band: null, verdict: 'unknown', unknown: 10, faster: 0, slower: 0, tie: 0 },
    ]);
    // In the drilldowns, against the version's fastest: unknown, never slower or a tie.
    const judged = [];
    for (const test of ['SET', 'GET', 'INCR']) {
      const one = (await fx.runner.run(configBarsQuery('pipe', test))).find((c) => c.cell_id === '7.4.1|gcc|-Os -flto');
      if (one && !one.winner) judged.push(one.vs_winner_verdict);
    }
    expect(judged.length).toBeGreaterThan(0);
    expect(judged.every((v) => v === 'unknown')).toBe(true);
  });

  it('shows an unsupported test with its reason on the side that lacks it', async () => {
    const rows = await fx.runner.run(compareQuery({ version: '2.8.24', config: null }, { version: '7.4.1', config: null }));
    expect(rows.find((r) => r.mode === 'data' && r.test === 'XADD')).toMatchObject({ a_status: 'unsupported', ratio: null });
    expect(rows.find((r) => r.mode === 'data' && r.test === null)?.tests).toBe(8);
  });
});

describe('statusGridQuery', () => {
  it('has one row per planned cell with how far it got', async () => {
    const rows = await fx.runner.run(statusGridQuery());
    expect(rows).toHaveLength(84);
    const of = (id: string) => rows.find((r) => r.cell_id === id);
    expect(of('7.4.1|clang|-Ofast')).toMatchObject({ status: 'build_failed', build_attempts: 1 });
    expect(of('7.4.1|clang|-Ofast')?.build_error).toContain('-Wdeprecated-ofast');
    expect(of('5.0.14|gcc|-O2')).toMatchObject({ status: 'not_collected', build_attempts: 0, min_repeats: 0 });
    expect(of('3.0.7|gcc|-Os')).toMatchObject({ status: 'server_failed', server_failed_runs: 1, min_repeats: 2, measured_runs: 5 });
    expect(of('7.4.1|gcc|-Os -flto')).toMatchObject({ status: 'partial', min_repeats: 1, planned_repeats: 3 });
    expect(of('2.8.24|gcc|-O2')).toMatchObject({ status: 'ok', failed_tests: 1, unsupported_tests: 4 });
    const counts: Record<string, number> = {};
    for (const r of rows) counts[r.status] = (counts[r.status] ?? 0) + 1;
    expect(counts).toEqual({ ok: 66, partial: 1, server_failed: 1, build_failed: 3, not_collected: 13 });
  });

  it('gives a cell\'s build with its log tail and flags, and its runs', async () => {
    const [build] = await fx.runner.run(cellBuildsQuery('7.4.1|clang|-Ofast'));
    expect(build).toMatchObject({ status: 'failed', cc: 'clang-19', cflags: '-Ofast' });
    expect(build?.log_tail.split('\n')).toHaveLength(3);
    expect(build?.make_args).toContain('OPTIMIZATION="-Ofast"');
    const runs = await fx.runner.run(cellRunsQuery('3.0.7|gcc|-Os'));
    expect(runs.map((r) => `${r.mode} ${r.repeat} ${r.status}`)).toEqual([
      'data 1 partial', 'data 2 partial', 'data 3 partial', 'pipe 1 partial', 'pipe 2 server_failed', 'pipe 3 partial',
    ]);
    expect(runs[0]).toMatchObject({ ok_tests: 8, unsupported_tests: 2, failed_tests: 0, machine_id: 'm-fixture', busy_pct: 3 });
    expect(runs[4]).toMatchObject({ ok_tests: 0 });
    expect(build?.machine_id).toBe('m-fixture');
    // The fixture's busy spell: 6.2.16's first data run shared the machine (others:85).
    const busy = await fx.runner.run(cellRunsQuery('6.2.16|gcc|-O2'));
    const reference = busy.filter((r) => r.mode === 'data' || r.mode === 'pipe');
    expect(reference.map((r) => `${r.mode} ${r.repeat} ${r.busy_pct}`)).toEqual(['data 1 85', 'data 2 3', 'data 3 3', 'pipe 1 3', 'pipe 2 3', 'pipe 3 3']);
    // Its precision runs are listed with them: five rounds in each precision mode.
    expect(busy.filter((r) => !reference.includes(r)).map((r) => `${r.mode} ${r.repeat}`)).toEqual(
      ['data-long', 'pipe-long'].flatMap((mode) => [1, 2, 3, 4, 5].map((n) => `${mode} ${n}`)),
    );
    // The host-speed probe: recorded from 6.2.16 on in the fixture, null before (older collectors).
    expect(reference[1]).toMatchObject({ mem_write_before: 4.4e10, mem_write_after: 3.8e10 });
    expect(runs[0]).toMatchObject({ mem_write_before: null, mem_write_after: null });
    // The host's steal: recorded from 7.2.6 on in the fixture, null before (older collectors).
    expect(runs[0]).toMatchObject({ steal_pct: null });
    const stolen = await fx.runner.run(cellRunsQuery('7.2.6|gcc|-O2'));
    // 7.2.6 has no precision runs in the fixture.
    expect(stolen.map((r) => `${r.mode} ${r.repeat} ${r.steal_pct}`)).toEqual([
      'data 1 0.5', 'data 2 1', 'data 3 1.5', 'pipe 1 0.5', 'pipe 2 24.5', 'pipe 3 1.5',
    ]);
  });

  it('lists the runs measured again with why and their speed against the run that replaced them', async () => {
    // The fixture's 7.4.1 gcc -O2 data repeat 2 was measured three times: 0.9x, then 0.8x, then the run in runs.
    const redone = await fx.runner.run(cellRedoneQuery('7.4.1|gcc|-O2'));
    expect(redone.map((r) => `${r.mode} ${r.repeat} ${r.busy_pct} ${r.steal_pct}`)).toEqual(['data 2 12 null', 'data 2 2 31']);
    expect(redone[0]?.redo_reason).toBe('other processes 12% of a CPU > 5% (recovered from an earlier version of the dataset)');
    expect(redone[1]?.redo_reason).toBe('host steal 31.0% > 10%');
    // Each against its own successor: the second discarded run, then the run the charts use.
    expect(redone[0]?.speed).toBeCloseTo(0.9 / 0.8, 3);
    expect(redone[1]?.speed).toBeCloseTo(0.8, 3);
    expect(redone[0]?.replaced_at).toBe(redone[1]?.started_at);
    const [current] = (await fx.runner.run(cellRunsQuery('7.4.1|gcc|-O2'))).filter((r) => r.mode === 'data' && r.repeat === 2);
    expect(redone[1]?.replaced_at).toBe(current?.started_at);
    expect(await fx.runner.run(cellRedoneQuery('7.2.6|gcc|-O2'))).toEqual([]);
    expect(await fx.runner.run(redoneSummaryQuery())).toEqual([{ mode: 'data', runs: 2, compared: 2, median_speed: expect.closeTo((0.9 / 0.8 + 0.8) / 2, 3) }]);
    // The redone runs stay out of the charts: the cell's best repeat is the runs table's.
    const [best] = await fx.runner.run(query<{ n: number }>(
      `SELECT count(*)::INTEGER AS n FROM cell_status s WHERE s.cell_id = '7.4.1|gcc|-O2' AND s.protocol = 'reference' AND s.ok_repeats <> 3 AND s.status = 'ok'`));
    expect(best?.n).toBe(0);
  });

  it('shows no redone runs of another hardware class', async () => {
    const intel = await openFixtureDb(TABLES, {}, 'fixture-intel-cpu-family-6-model-85-2-cores');
    expect(intel.catalog.selectedHardware?.slug).toBe('fixture-intel-cpu-family-6-model-85-2-cores');
    expect(await intel.runner.run(redoneSummaryQuery())).toEqual([]);
  });
});
