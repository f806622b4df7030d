import { beforeAll, describe, expect, it } from 'vitest';
import { configBarsQuery, versionBarsQuery, type VersionRow } from '../../src/sql/charts';
import { compilersQuery, countProtocolQuery, coverageQuery, datesQuery, machinesQuery, protocolQuery } from '../../src/sql/meta';
import { query } from '../../src/sql/query';
import { openFixtureDb, rewrittenFixture, type FixtureDb } from '../support/fixture-db';

let fx: FixtureDb;
let bars: VersionRow[];
const bar = (mode: string, test: string, version: string) =>
  bars.find((b) => b.mode === mode && b.test === test && b.version === version);
const configs = async (mode: string, test: string, version: string) =>
  (await fx.runner.run(configBarsQuery(mode, test))).filter((r) => r.version === version);

beforeAll(async () => {
  fx = await openFixtureDb();
  bars = await fx.runner.run(versionBarsQuery(null));
});

describe('prepareTables', () => {
  it('puts the fixture versions in release order', () => {
    expect(fx.versions).toEqual(['2.6.17', '2.8.24', '3.0.7', '5.0.14', '6.2.16', '7.2.6', '7.4.1']);
  });

  it('lists the versions with a counted figure, in release order (5.0.14 has no counts; a plan without counts, none)', async () => {
    expect(fx.catalog.countedVersions).toEqual(['2.6.17', '2.8.24', '3.0.7', '6.2.16', '7.2.6', '7.4.1']);
    expect((await openFixtureDb(['plan', 'builds', 'runs', 'results'])).catalog.countedVersions).toEqual([]);
    // 5.0.14 was not collected on the default class: no reference run.
    expect(fx.catalog.measuredVersions).toEqual(['2.6.17', '2.8.24', '3.0.7', '6.2.16', '7.2.6', '7.4.1']);
  });

  it('creates empty tables for files the collector has not written yet', async () => {
    const partial = await openFixtureDb(['plan']);
    const [coverage] = await partial.runner.run(coverageQuery());
    expect(coverage).toMatchObject({ planned_cells: 84, collected_cells: 0, finished_runs: 0, tests: 0 });
    expect(await partial.runner.run(versionBarsQuery(null))).toEqual([]);
  });

  it('orders versions by release even when plan.version_index disagrees', async () => {
    const shuffled = await openFixtureDb(undefined, { plan: await rewrittenFixture('plan', 'SELECT * REPLACE (6 - version_index AS version_index) FROM fixture') });
    expect(shuffled.versions).toEqual(fx.versions);
    const rows = await shuffled.runner.run(versionBarsQuery(null));
    expect(rows.slice(0, 7).map((r) => r.version)).toEqual(fx.versions);
  });

  it('rejects a file that lacks a documented column, naming file and column', async () => {
    const broken = await rewrittenFixture('results', 'SELECT * EXCLUDE (rps) FROM fixture');
    await expect(openFixtureDb(undefined, { results: broken })).rejects.toThrow(/results\.parquet does not match the published schema.*rps/);
  });
});

describe('versionBarsQuery', () => {
  it('returns one bar per test, mode and version, in test order then release order', () => {
    // Two reference and two precision modes.
    expect(bars).toHaveLength(10 * 4 * 7);
    expect(bars.slice(0, 7).map((b) => `${b.mode} ${b.test} ${b.version}`)).toEqual(
      fx.versions.map((v) => `data PING_INLINE ${v}`),
    );
    expect(bars.at(-1)).toMatchObject({ test: 'XADD', mode: 'pipe-long', version: '7.4.1' });
  });

  it('takes the best repeat of the best configuration as the version bar', async () => {
    const [expected] = await fx.runner.run(
      query<{ rps: number; compiler: string; flag_set: string; worst: number }>(
        `WITH per_cell AS (SELECT compiler, flag_set, max(rps) AS best, min(rps) AS worst FROM results
                          WHERE mode = 'data' AND test = 'SET' AND version = '7.4.1' GROUP BY ALL)
         SELECT best AS rps, compiler, flag_set, worst FROM per_cell ORDER BY best DESC LIMIT 1`,
      ),
    );
    expect(bar('data', 'SET', '7.4.1')).toMatchObject({
      status: 'ok', best_value: expected?.rps, worst_value: expected?.worst,
      compiler: expected?.compiler, flag_set: expected?.flag_set,
      planned_cells: 12, ok_cells: 10, build_failed_cells: 2,
    });
  });

  it('marks a version with no collected cell as not collected, with no figure', () => {
    expect(bar('data', 'SET', '5.0.14')).toMatchObject({ status: 'not_collected', best_value: null, not_collected_cells: 12 });
  });

  it('marks tests the old server lacks as unsupported, with the server error as reason', () => {
    expect(bar('pipe', 'XADD', '2.6.17')).toMatchObject({
      status: 'unsupported', best_value: null, reason: "ERR unknown command 'XADD'",
    });
    expect(bar('pipe', 'XADD', '6.2.16')?.status).toBe('ok');
  });

  it('restricts bars to the version range by release order', async () => {
    const ranged = await fx.runner.run(versionBarsQuery({ from: 1, to: 2 }));
    expect(new Set(ranged.map((b) => b.version))).toEqual(new Set(['2.8.24', '3.0.7']));
  });

  it('reports the winner p50 latency and repeat counts', () => {
    const b = bar('data', 'GET', '6.2.16');
    expect(b?.p50_ms).toBeGreaterThan(0);
    expect(b).toMatchObject({ ok_repeats: 3, planned_repeats: 3 });
  });
});

describe('configBarsQuery', () => {
  it('returns every version of the chart, each with its 12 configurations', async () => {
    const rows = await fx.runner.run(configBarsQuery('pipe', 'SET'));
    expect(rows).toHaveLength(7 * 12);
    for (const version of fx.versions) {
      const winners = rows.filter((r) => r.version === version && r.winner);
      expect(winners.length).toBe(version === '5.0.14' ? 0 : 1);
    }
  });

  it('returns the 12 configurations grouped by compiler and ordered by flag set, one winner', async () => {
    const rows = await configs('data', 'SET', '7.4.1');
    expect(rows.map((r) => `${r.compiler} ${r.flag_set}`)).toEqual([
      'gcc -O2', 'gcc -Os', 'gcc -Ofast', 'gcc -O2 -flto', 'gcc -Os -flto', 'gcc -Ofast -flto',
      'clang -O2', 'clang -Os', 'clang -Ofast', 'clang -O2 -flto', 'clang -Os -flto', 'clang -Ofast -flto',
    ]);
    expect(rows.filter((r) => r.winner)).toHaveLength(1);
    const winner = rows.find((r) => r.winner);
    expect(winner?.best_value).toBe(Math.max(...rows.map((r) => r.best_value ?? 0)));
    expect(winner?.best_value).toBe(bar('data', 'SET', '7.4.1')?.best_value);
  });

  it('shows failed builds with their reason and no figure', async () => {
    const rows = await configs('pipe', 'GET', '7.4.1');
    const failed = rows.filter((r) => r.status === 'build_failed');
    expect(failed.map((r) => r.flag_set)).toEqual(['-Ofast', '-Ofast -flto']);
    expect(failed[0]?.reason).toContain('-Wdeprecated-ofast');
    expect(failed.every((r) => r.best_value === null)).toBe(true);
  });

  it('tells a pending cell, a failed test and a server failure apart', async () => {
    const pending = await configs('data', 'SET', '6.2.16');
    expect(pending.find((r) => r.cell_id === '6.2.16|gcc|-Os')?.status).toBe('not_collected');
    const failedTest = await configs('data', 'LRANGE_100 (first 100 elements)', '2.8.24');
    expect(failedTest.find((r) => r.cell_id === '2.8.24|gcc|-O2')).toMatchObject({
      status: 'failed', reason: 'Error: Server closed the connection',
    });
    const serverFailed = await configs('pipe', 'SET', '3.0.7');
    // Repeat 2 failed to start, repeats 1 and 3 measured: the cell is ok with 2 of 3 repeats.
    expect(serverFailed.find((r) => r.cell_id === '3.0.7|gcc|-Os')).toMatchObject({ status: 'ok', ok_repeats: 2 });
  });

  it("gives each cell the most CPU other processes used during its runs in the mode, NULL when not recorded", async () => {
    // The fixture's 6.2.16 first data runs shared the machine ("others:85,node:60"); every other run "others:3".
    const data = await configs('data', 'SET', '6.2.16');
    expect(new Set(data.filter((r) => r.status === 'ok').map((r) => r.busy_pct))).toEqual(new Set([85]));
    expect(new Set((await configs('pipe', 'SET', '6.2.16')).filter((r) => r.status === 'ok').map((r) => r.busy_pct))).toEqual(new Set([3]));
    expect(bar('data', 'SET', '6.2.16')?.busy_pct).toBe(85);
    expect(bar('data', 'SET', '7.4.1')?.busy_pct).toBe(3);
    const unrecorded = await openFixtureDb(undefined, { runs: await rewrittenFixture('runs', "SELECT * REPLACE ('' AS other_cpu) FROM fixture") });
    const rows = (await unrecorded.runner.run(configBarsQuery('data', 'SET'))).filter((r) => r.status === 'ok');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.busy_pct === null)).toBe(true);
  });

  it("gives each cell the most CPU the VM's host took (steal) during its runs in the mode, NULL before collector 0.1.6", async () => {
    // The fixture records steal from 7.2.6 on (0.5% per repeat number); 7.2.6 gcc -O2's pipe run 2 lost 24.5%.
    const pipe = await configs('pipe', 'SET', '7.2.6');
    expect(pipe.find((r) => r.cell_id === '7.2.6|gcc|-O2')?.steal_pct).toBe(24.5);
    expect(new Set(pipe.filter((r) => r.status === 'ok' && r.cell_id !== '7.2.6|gcc|-O2').map((r) => r.steal_pct))).toEqual(new Set([1.5]));
    expect((await configs('data', 'SET', '7.2.6')).find((r) => r.cell_id === '7.2.6|gcc|-O2')?.steal_pct).toBe(1.5);
    expect(new Set((await configs('data', 'SET', '6.2.16')).map((r) => r.steal_pct))).toEqual(new Set([null]));
    expect(bar('data', 'SET', '6.2.16')?.steal_pct).toBeNull();
    expect(bar('data', 'SET', '7.4.1')?.steal_pct).toBe(1.5);
  });

  it('counts only the repeats collected so far', async () => {
    const rows = await configs('data', 'SET', '7.4.1');
    expect(rows.find((r) => r.cell_id === '7.4.1|gcc|-Os -flto')).toMatchObject({ ok_repeats: 1, planned_repeats: 3 });
  });
});

describe('header queries', () => {
  it('counts coverage of the planned matrix', async () => {
    const [c] = await fx.runner.run(coverageQuery());
    expect(c).toEqual({
      planned_cells: 84, collected_cells: 71, counted_cells: 67, failed_builds: 3, measured_cells: 68,
      planned_runs: 84 * 2 * 3, finished_runs: 403, server_failed_runs: 1, versions: 7, tests: 10, planned_repeats: 3, min_planned_repeats: 3, next_planned_repeats: 0, most_repeats_cells: 84,
    });
  });

  it('describes machines, compilers, protocol and dates from the data', async () => {
    const [machine] = await fx.runner.run(machinesQuery());
    expect(machine).toMatchObject({ cpu_model: 'Fixture CPU @ 2.00GHz', cores: 2, memory_bytes: 25769803776, measured_at: '2026-11-20' });
    const compilers = await fx.runner.run(compilersQuery());
    expect(compilers.map((c) => c.compiler)).toEqual(['gcc', 'clang']);
    const protocol = await fx.runner.run(protocolQuery());
    expect(protocol.map((p) => [p.mode, p.client_args])).toEqual([
      ['data', '-n 120000 --csv -d 64 -r 9999999999'],
      ['data-long', '--csv -d 64 -r 9999999999'],
      ['pipe', '-n 120000 --csv -d 64 -r 9999999999 -P 1000'],
      ['pipe-long', '--csv -d 64 -r 9999999999 -P 1000'],
    ]);
    // The counting runs' protocol per mode, without the paths that differ from run to run.
    const counted = await fx.runner.run(countProtocolQuery());
    expect(counted.map((r) => [r.mode, r.protocol, r.client_args, r.runs])).toEqual([
      ['data', 2, '-c 1 -n 20000 -d 64 -r 9999999999 --seed 42', 134],
      ['pipe', 2, '-c 1 -n 20000 -d 64 -r 9999999999 --seed 42 -P 1000', 134],
    ]);
    expect(counted[0]?.command).toBe('setarch -R /usr/bin/valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64');
    expect(counted.map((r) => r.env)).toEqual([
      'LD_PRELOAD=freezeclock.so LD_BIND_NOW=1 JE_MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1 FREEZECLOCK_SETTLE_READS=no',
      'LD_PRELOAD=freezeclock.so LD_BIND_NOW=1 JE_MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1',
    ]);
    const [dates] = await fx.runner.run(datesQuery());
    expect(dates?.first).toBe('2026-11-20 10:10');
    expect(dates?.collector_versions).toBe('0.1.0-fixture');
  });
});

describe('catalog', () => {
  it('lists every chart in test order with data before pipe, and compilers in plan order', () => {
    expect(fx.catalog.charts).toHaveLength(40);
    expect(fx.catalog.charts.slice(0, 3).map((c) => `${c.mode}:${c.test}`)).toEqual(['data:PING_INLINE', 'pipe:PING_INLINE', 'data:PING_MBULK']);
    expect(fx.catalog.compilers).toEqual(['gcc', 'clang']);
  });

  it("lists the precision modes' charts after every reference chart, and each version's rounds in them", () => {
    expect(fx.catalog.charts.slice(18, 22).map((c) => `${c.mode}:${c.test}`)).toEqual(['data:XADD', 'pipe:XADD', 'data-long:PING_INLINE', 'pipe-long:PING_INLINE']);
    expect(fx.catalog.precisionModes).toEqual(['data-long', 'pipe-long']);
    expect([...fx.catalog.rounds].sort((a, b) => `${a.mode}${a.version}`.localeCompare(`${b.mode}${b.version}`))).toEqual(
      ['data-long', 'pipe-long'].flatMap((mode) => [{ mode, version: '2.8.24', rounds: 1 }, { mode, version: '6.2.16', rounds: 5 }, { mode, version: '7.4.1', rounds: 5 }]),
    );
  });
});
