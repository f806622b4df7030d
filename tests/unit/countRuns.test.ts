/** A cell's counting runs and their raw output, on the fixture, and their table in the cell panel. */
import { beforeAll, describe, expect, it } from 'vitest';
import { countRunsTable } from '../../src/model/statusGrid';
import { cellCountRunsQuery, countRunOutputQuery, type CountRunRow } from '../../src/sql/countRuns';
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
  it('gives mode, repeat, status, tests, Valgrind version, duration, machine and start per run', () => {
    const run: CountRunRow = {
      run_id: 'c-1', mode: 'pipe', repeat: 2, status: 'ok', ok_tests: 8, failed_tests: 0, unsupported_tests: 2,
      valgrind_version: 'valgrind-3.19.0', duration_seconds: 612.4, machine_id: 'm-1', started_at: '2026-11-21 10:00',
    };
    expect(countRunsTable([run]).rows).toEqual([['pipe', '2', 'ok', '8 / 0 / 2', 'valgrind-3.19.0', '612 s', 'm-1', '2026-11-21 10:00']]);
  });
});
