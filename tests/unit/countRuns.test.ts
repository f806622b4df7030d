/** A cell's counting runs and their raw output, on the fixture, and their table in the cell panel. */
import { beforeAll, describe, expect, it } from 'vitest';
import { countRunsTable, supersededCountRunsTable } from '../../src/model/statusGrid';
import { cellCountRunsQuery, cellSupersededCountRunsQuery, countRunOutputQuery, type CountRunRow } from '../../src/sql/countRuns';
import { openFixtureDb, type FixtureDb } from '../support/fixture-db';

let fx: FixtureDb;
beforeAll(async () => {
  fx = await openFixtureDb();
});

describe('cellCountRunsQuery', () => {
  it('lists each counting run by mode and repeat, with its tests counted, failed and unsupported', async () => {
    const runs = await fx.runner.run(cellCountRunsQuery('2.8.24|gcc|-O2'));
    expect(runs.map((r) => `${r.mode}#${r.repeat}`)).toEqual(['data#1', 'data#2', 'pipe#1', 'pipe#2']);
    // LRANGE_100 crashes under Valgrind in data mode; ZPOPMIN and XADD are unsupported before 5.0.
    expect(runs[0]).toMatchObject({ status: 'partial', ok_tests: 7, failed_tests: 1, unsupported_tests: 2, valgrind_version: 'valgrind-3.19.0', machine_id: 'm-fixture' });
    expect(runs[2]).toMatchObject({ ok_tests: 8, failed_tests: 0, unsupported_tests: 2 });
  });

  it('has no row for a cell not counted', async () => {
    expect(await fx.runner.run(cellCountRunsQuery('6.2.16|clang|-O2'))).toEqual([]);
  });

  it('gives a run\'s raw output on demand', async () => {
    const [run] = await fx.runner.run(cellCountRunsQuery('7.4.1|gcc|-O2'));
    const [row] = await fx.runner.run(countRunOutputQuery(run?.run_id ?? ''));
    expect(row?.raw_output).toMatch(/^totals: /);
  });
});

describe('countRunsTable', () => {
  it('gives mode, repeat, status, tests, Valgrind version, duration, machine, start and whether it is to be counted again per run', () => {
    const run: CountRunRow = {
      run_id: 'c-1', mode: 'pipe', repeat: 2, status: 'ok', ok_tests: 8, failed_tests: 0, unsupported_tests: 2,
      valgrind_version: 'valgrind-3.19.0', duration_seconds: 612.4, machine_id: 'm-1', started_at: '2026-11-21 10:00', redone: null,
    };
    const marked = { ...run, repeat: 1, redone: 'counted on build b1, recorded without a code hash' };
    expect(countRunsTable([run, marked]).rows).toEqual([
      ['pipe', '2', 'ok', '8 / 0 / 2', 'valgrind-3.19.0', '612 s', 'm-1', '2026-11-21 10:00', 'no'],
      ['pipe', '1', 'ok', '8 / 0 / 2', 'valgrind-3.19.0', '612 s', 'm-1', '2026-11-21 10:00', 'yes: counted on build b1, recorded without a code hash'],
    ]);
  });
});

describe('cellSupersededCountRunsQuery', () => {
  it('lists the runs counted again with why, and an earlier protocol\'s run with none', async () => {
    const again = await fx.runner.run(cellSupersededCountRunsQuery('7.4.1|gcc|-O2'));
    expect(again.map((r) => `${r.mode}#${r.repeat} p${r.protocol} ${r.redone}`)).toEqual([
      'data#1 p2 repeats differed: INCR 0.0412% apart', 'data#2 p2 repeats differed: INCR 0.0412% apart']);
    const earlier = await fx.runner.run(cellSupersededCountRunsQuery('2.8.24|gcc|-O2'));
    expect(earlier).toMatchObject([{ mode: 'pipe', repeat: 1, protocol: 1, redone: null }]);
    expect(await fx.runner.run(cellSupersededCountRunsQuery('7.4.1|clang|-O2'))).toEqual([]);
  });

  it('gives a set-aside run\'s raw output from its own table, not from count_runs', async () => {
    const [run] = await fx.runner.run(cellSupersededCountRunsQuery('7.4.1|gcc|-O2'));
    const id = run?.run_id ?? '';
    expect((await fx.runner.run(countRunOutputQuery(id, 'count_runs_superseded')))[0]?.raw_output).toMatch(/run set aside/);
    expect(await fx.runner.run(countRunOutputQuery(id))).toEqual([]);
  });

  it('says why each run was set aside', () => {
    const base = { run_id: 'x', mode: 'data', repeat: 1, status: 'ok', machine_id: 'm-1', started_at: '2026-11-26 21:10' };
    expect(supersededCountRunsTable([
      { ...base, protocol: 7, redone: 'repeats differed: INCR 0.4134% apart' },
      { ...base, repeat: 2, protocol: null, redone: null },
    ]).rows).toEqual([
      ['data', '1', 'ok', 'counted again: repeats differed: INCR 0.4134% apart', '7', 'm-1', '2026-11-26 21:10'],
      ['data', '2', 'ok', 'an earlier counting protocol', '1', 'm-1', '2026-11-26 21:10'],
    ]);
  });
});
