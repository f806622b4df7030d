/**
 * One hardware class at a time: the fixture's second machine ('Fixture Intel CPU', 2 cores)
 * measured three cells once per mode, 30% faster than the default class's machine. Whatever
 * class is shown, its figures come from its own runs only.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultHardware, type HardwareClass, hardwareOptionText, hardwareSlug, pickHardware } from '../../src/model/hardware';
import { versionBarsQuery, type VersionRow } from '../../src/sql/charts';
import { coverageQuery, machinesQuery } from '../../src/sql/meta';
import { query } from '../../src/sql/query';
import { statusGridQuery } from '../../src/sql/status';
import { openFixtureDb, rewrittenFixture, type FixtureDb } from '../support/fixture-db';

const AMD = 'fixture-cpu-2-00ghz-2-cores';
const INTEL = 'fixture-intel-cpu-family-6-model-85-2-cores';

let amd: FixtureDb;
let intel: FixtureDb;

beforeAll(async () => {
  amd = await openFixtureDb();
  intel = await openFixtureDb(undefined, undefined, INTEL);
});

interface CellRow { status: string; best_value: number | null; worst_value: number | null; ok_repeats: number; reason: string | null }
const cell = async (fx: FixtureDb, cellId: string, mode: string, test: string) =>
  (await fx.runner.run(query<CellRow>(
    'SELECT status, best_value, worst_value, ok_repeats, reason FROM cell_status WHERE cell_id = ? AND mode = ? AND test = ?', [cellId, mode, test],
  )))[0];
/** max(rps) of a cell's results on one machine, straight from every machine's results. */
const bestOn = async (fx: FixtureDb, machine: string, cellId: string, mode: string, test: string) =>
  (await fx.runner.run(query<{ best: number }>(
    `SELECT max(x.rps) AS best FROM all_results x JOIN all_runs r USING (run_id)
     WHERE r.machine_id = ? AND x.cell_id = ? AND x.mode = ? AND x.test = ?`, [machine, cellId, mode, test],
  )))[0]?.best;
const bar = (rows: VersionRow[], mode: string, test: string, version: string) =>
  rows.find((r) => r.mode === mode && r.test === test && r.version === version);

describe('hardwareSlug', () => {
  it('lowercases the label and turns every run of other characters into one dash, trimmed', () => {
    expect(hardwareSlug('AMD EPYC, 2 cores')).toBe('amd-epyc-2-cores');
    expect(hardwareSlug('Intel(R) Xeon(R) Processor, 2 cores')).toBe('intel-r-xeon-r-processor-2-cores');
    expect(hardwareSlug('  (Fixture CPU @ 2.00GHz), 2 cores!')).toBe('fixture-cpu-2-00ghz-2-cores');
  });
});

describe('defaultHardware and pickHardware', () => {
  const make = (label: string, firstRunMs: number | null, firstMeasuredMs: number | null, doneRuns = 0): HardwareClass => ({
    label, slug: hardwareSlug(label), runs: 0, measuredCells: 0, plannedCells: 132, doneRuns, plannedRuns: 792, firstRunMs, firstMeasuredMs,
  });
  const amdClass = make('AMD EPYC, 2 cores', 1000, 5000);
  const intelClass = make('Intel(R) Xeon(R) Processor, 2 cores', 9000, 2000);

  it('default to the class of the earliest run among classes that did as much of the plan', () => {
    expect(defaultHardware([intelClass, amdClass])).toBe(amdClass);
    expect(defaultHardware([{ ...intelClass, doneRuns: 400 }, { ...amdClass, doneRuns: 400 }])?.label).toBe(amdClass.label);
  });

  it('default to the class that has done most of the plan, however late it started', () => {
    const complete = make('AMD EPYC (family 26 model 2), 2 cores', 20000, 20000, 792);
    expect(defaultHardware([{ ...amdClass, doneRuns: 545 }, { ...intelClass, doneRuns: 432 }, complete])).toBe(complete);
    expect(defaultHardware([{ ...amdClass, doneRuns: 545 }, { ...intelClass, doneRuns: 546 }])?.label).toBe(intelClass.label);
  });

  it('default to the earliest measured machine when there is no run, and to nothing without classes', () => {
    expect(defaultHardware([make('B, 2 cores', null, 3000), make('A, 2 cores', null, 4000)])?.label).toBe('B, 2 cores');
    expect(defaultHardware([make('B, 2 cores', null, 3000), make('A, 2 cores', 9999, 4000)])?.label).toBe('A, 2 cores');
    expect(defaultHardware([])).toBeNull();
  });

  it('pick the class a slug names, else the default', () => {
    expect(pickHardware([amdClass, intelClass], 'intel-r-xeon-r-processor-2-cores')).toBe(intelClass);
    expect(pickHardware([amdClass, intelClass], 'sparc-2-cores')).toBe(amdClass);
    expect(pickHardware([amdClass, intelClass], null)).toBe(amdClass);
  });

  it('describe a class as the select offers it, with how much of the plan it has done', () => {
    expect(hardwareOptionText({ ...amdClass, runs: 545, measuredCells: 132, doneRuns: 545 }))
      .toBe('AMD EPYC, 2 cores — 545 runs, 132 of 132 cells measured, 68% of the plan done');
    expect(hardwareOptionText({ ...amdClass, runs: 791, measuredCells: 132, doneRuns: 791 }))
      .toBe('AMD EPYC, 2 cores — 791 runs, 132 of 132 cells measured, 99% of the plan done');
    expect(hardwareOptionText({ ...amdClass, runs: 1, measuredCells: 1, doneRuns: 792 }))
      .toBe('AMD EPYC, 2 cores — 1 run, 1 of 132 cells measured, the plan complete');
    expect(hardwareOptionText({ ...amdClass, runs: 0, measuredCells: 0, doneRuns: 0 }))
      .toBe('AMD EPYC, 2 cores — no requests/second measured, 0 of 132 cells');
    expect(hardwareOptionText({ ...amdClass, runs: 1152, measuredCells: 132, plannedCells: 1896, doneRuns: 792, plannedRuns: 4320 }))
      .toBe('AMD EPYC, 2 cores — 1,152 runs, 132 of 1,896 cells measured, 18% of the plan done');
    expect(hardwareOptionText({ ...amdClass, runs: 11371, measuredCells: 132, doneRuns: 792 }))
      .toBe('AMD EPYC, 2 cores — 11,371 runs, 132 of 132 cells measured, the plan complete');
  });
});

describe('prepareTables with two hardware classes', () => {
  it('lists both classes with their counts over every machine, the earliest first', () => {
    // Done runs, as the collector's plan counts them: the default class's 404 runs (a server
    // failure among them) and the 3 failed cells' 6 planned runs each; 84 cells x 2 modes x 3.
    // Its runs count the 234 precision runs too (one of them server failed), which no plan counts.
    expect(amd.catalog.hardware.map((c) => [c.label, c.slug, c.runs, c.measuredCells, c.plannedCells, c.doneRuns, c.plannedRuns])).toEqual([
      ['Fixture CPU @ 2.00GHz, 2 cores', AMD, 403 + 233, 68, 84, 404 + 3 * 6, 504],
      ['Fixture Intel CPU (family 6 model 85), 2 cores', INTEL, 6, 3, 84, 6, 504],
    ]);
    expect(amd.catalog.selectedHardware?.slug).toBe(AMD);
    expect(intel.catalog.selectedHardware?.slug).toBe(INTEL);
    expect(intel.catalog.hardware).toEqual(amd.catalog.hardware);
  });

  it('takes a machine\'s recorded class over its CPU name, and the CPU name and cores without one', async () => {
    // The same CPU name on both machines (VMs call every AMD server CPU "AMD EPYC"): the recorded
    // class still keeps them apart; without it (machines described before collector 0.1.8) they
    // are one class.
    const sameName = `SELECT * REPLACE ('Fixture CPU @ 2.00GHz' AS cpu_model) FROM fixture`;
    const recorded = await openFixtureDb(undefined, { machines: await rewrittenFixture('machines', sameName) });
    expect(recorded.catalog.hardware.map((c) => [c.label, c.runs])).toEqual([
      ['Fixture CPU @ 2.00GHz, 2 cores', 403 + 233],
      ['Fixture Intel CPU (family 6 model 85), 2 cores', 6],
    ]);
    const legacy = await openFixtureDb(undefined, {
      machines: await rewrittenFixture('machines', `SELECT * REPLACE ('Fixture CPU @ 2.00GHz' AS cpu_model, NULL::VARCHAR AS hardware_class) FROM fixture`),
    });
    expect(legacy.catalog.hardware.map((c) => [c.label, c.runs])).toEqual([['Fixture CPU @ 2.00GHz, 2 cores', 409 + 233]]);
  });

  it('shows the default class for an unknown slug', async () => {
    const unknown = await openFixtureDb(undefined, undefined, 'no-such-cpu');
    expect(unknown.catalog.selectedHardware?.slug).toBe(AMD);
  });

  it('restricts runs, results and builds to the selected class, all_* keeping every machine', async () => {
    const counts = (fx: FixtureDb) => fx.runner.run(query<Record<string, number>>(
      `SELECT (SELECT count(*) FROM runs)::INTEGER AS runs, (SELECT count(*) FROM results)::INTEGER AS results,
              (SELECT count(*) FROM builds)::INTEGER AS builds, (SELECT count(*) FROM all_runs)::INTEGER AS all_runs,
              (SELECT count(*) FROM all_results)::INTEGER AS all_results, (SELECT count(*) FROM all_builds)::INTEGER AS all_builds`));
    // With the default class's 234 precision runs and their 2,330 results; all_builds with the 8
    // extended cells' builds, which builds leaves out as it shows the reference configurations.
    const all = { all_runs: 410 + 234, all_results: 4090 + 2330, all_builds: 74 + 8 };
    expect(await counts(amd)).toEqual([{ runs: 404 + 234, results: 4030 + 2330, builds: 71, ...all }]);
    expect(await counts(intel)).toEqual([{ runs: 6, results: 60, builds: 3, ...all }]);
  });

  it('keeps the default class best repeat of a cell the other class also measured', async () => {
    const best = await bestOn(amd, 'm-fixture', '7.4.1|gcc|-O2', 'data', 'SET');
    const mixed = (await amd.runner.run(query<{ best: number }>(
      `SELECT max(rps) AS best FROM all_results WHERE cell_id = '7.4.1|gcc|-O2' AND mode = 'data' AND test = 'SET'`)))[0]?.best;
    expect(mixed).toBeGreaterThan((best ?? 0) * 1.2);
    expect(await cell(amd, '7.4.1|gcc|-O2', 'data', 'SET')).toMatchObject({ status: 'ok', best_value: best, ok_repeats: 3 });
  });

  it('takes the other class figures from its own runs only', async () => {
    for (const mode of ['data', 'pipe']) {
      const own = await bestOn(intel, 'm-fixture-intel', '7.4.1|gcc|-O2', mode, 'SET');
      expect(await cell(intel, '7.4.1|gcc|-O2', mode, 'SET')).toMatchObject({ status: 'ok', best_value: own, worst_value: own, ok_repeats: 1 });
    }
  });

  it('shows a cell measured on the other class only as not collected, never failed', async () => {
    // 6.2.16 gcc -Os: pending on the default class, measured on the other.
    expect(await cell(amd, '6.2.16|gcc|-Os', 'data', 'SET')).toMatchObject({ status: 'not_collected', best_value: null });
    expect((await cell(intel, '6.2.16|gcc|-Os', 'data', 'SET'))?.status).toBe('ok');
    // 7.4.1 clang -Ofast failed to build on the default class; the other class has no build of it.
    expect((await cell(amd, '7.4.1|clang|-Ofast', 'data', 'SET'))?.status).toBe('build_failed');
    expect(await cell(intel, '7.4.1|clang|-Ofast', 'data', 'SET')).toMatchObject({ status: 'not_collected', reason: null });
    const grid = await intel.runner.run(statusGridQuery());
    expect(grid.find((g) => g.cell_id === '7.4.1|clang|-Ofast')).toMatchObject({ status: 'not_collected', build_attempts: 0 });
  });

  it('changes a version bar with the class and keeps the same charts', async () => {
    const amdBars = await amd.runner.run(versionBarsQuery(null));
    const intelBars = await intel.runner.run(versionBarsQuery(null));
    const amdSet = bar(amdBars, 'data', 'SET', '7.4.1');
    const intelSet = bar(intelBars, 'data', 'SET', '7.4.1');
    expect(intelSet?.best_value).toBe(Math.max(
      (await bestOn(intel, 'm-fixture-intel', '7.4.1|gcc|-O2', 'data', 'SET')) ?? 0,
      (await bestOn(intel, 'm-fixture-intel', '7.4.1|clang|-O2', 'data', 'SET')) ?? 0,
    ));
    expect(intelSet?.best_value).not.toBe(amdSet?.best_value);
    expect(bar(intelBars, 'data', 'SET', '2.6.17')).toMatchObject({ status: 'not_collected', best_value: null });
    expect(intel.catalog.charts).toEqual(amd.catalog.charts);
  });

  it('describes the selected class in the header: its machines and coverage', async () => {
    expect((await intel.runner.run(machinesQuery())).map((m) => [m.machine_id, m.cpu_model, m.cpu_id, m.runs])).toEqual([['m-fixture-intel', 'Fixture Intel CPU', 'family 6 model 85 stepping 7', 6]]);
    expect((await amd.runner.run(machinesQuery())).map((m) => m.machine_id)).toEqual(['m-fixture']);
    const [coverage] = await intel.runner.run(coverageQuery());
    expect(coverage).toMatchObject({ planned_cells: 84, collected_cells: 3, failed_builds: 0, measured_cells: 3, finished_runs: 6, tests: 10 });
  });
});
