/**
 * The extended configurations (plan.extended: -O3 and -O3 -flto in the fixture, on 7.2.6 and 7.4.1
 * only): every table shows the reference configurations alone by default, and with them the
 * extended ones when asked (the page's ext=1); a plan written before the column loads as before.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { factorTable } from '../../src/model/factors';
import { effectsQuery } from '../../src/sql/effects';
import { query } from '../../src/sql/query';
import { releaseChangesQuery } from '../../src/sql/releaseChanges';
import { METRICS } from '../../src/vocabulary';
import { type FixtureDb, openFixtureDb, rewrittenFixture } from '../support/fixture-db';

const REFERENCE_FLAGS = ['-O2', '-Os', '-Ofast', '-O2 -flto', '-Os -flto', '-Ofast -flto'];
const EXTENDED = ['gcc', 'clang'].flatMap((compiler) => ['-O3', '-O3 -flto'].map((flag_set) => ({ compiler, flag_set })));

let reference: FixtureDb;
let extended: FixtureDb;

beforeAll(async () => {
  reference = await openFixtureDb();
  extended = await openFixtureDb(undefined, {}, null, true);
});

/** The number of rows of each table that belong to an extended cell. */
const extendedRows = (fx: FixtureDb) => fx.runner.run(query<Record<string, number>>(
  `WITH x AS (SELECT cell_id FROM all_plan WHERE extended)
   SELECT ${['plan', 'builds', 'runs', 'counts', 'count_runs', 'cell_status', 'ir_status'].map((t) => `(SELECT count(*) FROM ${t} WHERE cell_id IN (SELECT cell_id FROM x))::INTEGER AS ${t}`).join(', ')}`));

describe('extended configurations', () => {
  it('are left out of every table by default, and listed in the catalog as available', async () => {
    expect(reference.catalog.configs.map((c) => c.flag_set)).toEqual([...REFERENCE_FLAGS, ...REFERENCE_FLAGS]);
    expect(reference.catalog.extendedConfigs).toEqual(EXTENDED);
    expect(reference.catalog.extended).toBe(false);
    expect(await extendedRows(reference)).toEqual([{ plan: 0, builds: 0, runs: 0, counts: 0, count_runs: 0, cell_status: 0, ir_status: 0 }]);
  });

  it('join the reference ones in plan order when shown, counted but not measured', async () => {
    expect(extended.catalog.configs).toEqual(['gcc', 'clang'].flatMap((compiler) => [...REFERENCE_FLAGS, '-O3', '-O3 -flto'].map((flag_set) => ({ compiler, flag_set }))));
    expect(extended.catalog.extended).toBe(true);
    // 2 versions x 4 configurations; 20 tests x 2 modes (10 tests, 2 modes, 2 repeats in counts).
    expect(await extendedRows(extended)).toEqual([{ plan: 8, builds: 8, runs: 0, counts: 8 * 10 * 2 * 2, count_runs: 8 * 2 * 2, cell_status: expect.any(Number), ir_status: 8 * 10 * 2 }]);
    const [o3] = await extended.runner.run(query<{ status: string; best_value: number | null }>(
      `SELECT status, best_value FROM ir_status WHERE cell_id = '7.4.1|gcc|-O3' AND mode = 'data' AND test = 'SET'`));
    expect(o3?.status).toBe('ok');
    const [rps] = await extended.runner.run(query<{ status: string }>(
      `SELECT status FROM cell_status WHERE cell_id = '7.4.1|gcc|-O3' AND mode = 'data' AND test = 'SET'`));
    expect(rps?.status).toBe('not_collected');
  });

  it('leave the reference figures as they are', async () => {
    const figures = `SELECT cell_id, mode, test, best_value, status FROM ir_status WHERE cell_id IN (SELECT cell_id FROM all_plan WHERE NOT extended) ORDER BY ALL`;
    expect(await extended.runner.run(query(figures))).toEqual(await reference.runner.run(query(figures)));
  });

  it('give the build factors an -O3 level on the versions that have it, and leave the others not compared', async () => {
    const rows = await extended.runner.run(effectsQuery(METRICS.ir));
    const o3 = rows.filter((r) => r.factor === 'level' && r.level === '-O3' && r.mode === 'data');
    expect(o3.map((r) => r.version)).toEqual(expect.arrayContaining(['7.2.6', '7.4.1', null]));
    expect(o3).toHaveLength(3);
    // -O3 counts 1.5% fewer instructions than -O2 (the fixture's factor), beyond its tiny noise.
    expect(o3.find((r) => r.version === null)?.ratio).toBeCloseTo(0.985, 3);
    const table = factorTable('data', rows, extended.versions, METRICS.ir);
    const row = table.rows.find((r) => r.label === '-O3 vs -O2');
    // A column per version measured, then all versions: only 7.2.6, 7.4.1 and all have a pair.
    expect(row?.cells.map((c) => c.ratio !== null)).toEqual(table.columns.map((c, i) => ['7.2.6', '7.4.1'].includes(c.key) || i === table.columns.length - 1));
  });

  it('compare between releases where both have them', async () => {
    const rows = await extended.runner.run(releaseChangesQuery([['7.2.6', '7.4.1']], METRICS.ir));
    expect(rows[0]?.configs).toBe(12 + 4);
    const without = await reference.runner.run(releaseChangesQuery([['7.2.6', '7.4.1']], METRICS.ir));
    expect(without[0]?.configs).toBe(12);
  });

  it('are none in a plan written before the column, which loads as before', async () => {
    const plan = await rewrittenFixture('plan', 'SELECT * EXCLUDE (extended) FROM fixture WHERE NOT extended');
    for (const ext of [false, true]) {
      const old = await openFixtureDb(undefined, { plan }, null, ext);
      expect(old.catalog.configs).toEqual(reference.catalog.configs);
      expect(old.catalog.extendedConfigs).toEqual([]);
    }
  });
});
