/**
 * Across hardware: the fixture's second class ('Fixture Intel CPU', 2 cores) measured three cells
 * (7.4.1 gcc -O2, 7.4.1 clang -O2, 6.2.16 gcc -Os) once per mode, 30% faster than the default
 * class's machine, on which 6.2.16 gcc -Os is still pending. The section pairs each (cell, mode,
 * test) measured on both, and nothing else.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS, decodeState, encodeState, reconcileState } from '../../src/model/state';
import { ranks, spearman } from '../../src/model/ranking';
import { hardwareSlug, type HardwareClass } from '../../src/model/hardware';
import { hardwareRankingQuery, hardwareRatiosQuery, type HardwareRankingRow, type HardwareRatioRow } from '../../src/sql/acrossHardware';
import { query } from '../../src/sql/query';
import {
  ALL, comparedClasses, hardwareHeadlines, hardwareStatusText, hardwareTable, hardwareTestsTable, headlineText, rankingText, rankMode, rankText,
  ratioModes, shortLabel,
} from '../../src/model/acrossHardware';
import { openFixtureDb, type FixtureDb } from '../support/fixture-db';

const AMD = 'Fixture CPU @ 2.00GHz, 2 cores';
const INTEL = 'Fixture Intel CPU (family 6 model 85), 2 cores';
const MACHINE = { [AMD]: 'm-fixture', [INTEL]: 'm-fixture-intel' } as const;
const GCC_O2 = { compiler: 'gcc', flag_set: '-O2' };

let fx: FixtureDb;
beforeAll(async () => {
  fx = await openFixtureDb();
});

/**
 * Best rps per test of one cell and mode on one machine over its `repeats` lowest-numbered runs,
 * straight from every machine's results.
 */
async function bestByTest(label: keyof typeof MACHINE, cellId: string, mode: string, repeats = 1): Promise<Map<string, number>> {
  const rows = await fx.runner.run(query<{ test: string; best: number }>(
    `SELECT x.test, max(x.rps)::DOUBLE AS best FROM all_results x
     JOIN (SELECT run_id FROM all_runs WHERE machine_id = ? AND cell_id = ? AND mode = ? AND status <> 'server_failed' ORDER BY repeat LIMIT ?) r USING (run_id)
     WHERE x.status = 'ok' GROUP BY x.test`,
    [MACHINE[label], cellId, mode, repeats],
  ));
  return new Map(rows.map((r) => [r.test, r.best]));
}

const geomean = (values: readonly number[]) => Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length);

/** The per-test ratios B / A of one cell and mode, over the tests both measured (one repeat each: the second class has one). */
async function cellRatios(a: keyof typeof MACHINE, b: keyof typeof MACHINE, cellId: string, mode: string): Promise<number[]> {
  const [ra, rb] = await Promise.all([bestByTest(a, cellId, mode), bestByTest(b, cellId, mode)]);
  return [...ra].flatMap(([test, best]) => (rb.has(test) ? [rb.get(test)! / best] : []));
}

const find = (rows: HardwareRatioRow[], mode: string, config: string | null, version: string | null) =>
  rows.find((r) => r.mode === mode && r.version === version && r.test === null
    && (config === null ? r.compiler === null : `${r.compiler}|${r.flag_set}` === config));

describe('hardwareRatiosQuery', () => {
  let rows: HardwareRatioRow[];
  beforeAll(async () => {
    rows = await fx.runner.run(hardwareRatiosQuery(AMD, INTEL));
  });

  it('pairs only the cells measured on both classes', () => {
    const cells = new Set(rows.filter((r) => r.compiler !== null && r.version !== null).map((r) => `${r.version}|${r.compiler}|${r.flag_set}`));
    // 6.2.16 gcc -Os was measured on the second class only.
    expect([...cells].sort()).toEqual(['7.4.1|clang|-O2', '7.4.1|gcc|-O2']);
    for (const mode of ['data', 'pipe']) expect(find(rows, mode, null, null)?.cells).toBe(2);
    expect(rows.some((r) => r.version === '6.2.16' || r.flag_set === '-Os')).toBe(false);
  });

  it('give each cell B / A as the geometric mean of its tests, over as many repeats on each side as the class with fewer has', async () => {
    for (const [version, config] of [['7.4.1', 'gcc|-O2'], ['7.4.1', 'clang|-O2']] as const) {
      const expected = await cellRatios(AMD, INTEL, `${version}|${config}`, 'data');
      expect(expected.length).toBeGreaterThan(5);
      const row = find(rows, 'data', config, version)!;
      expect(row.items).toBe(expected.length);
      expect(row.ratio).toBeCloseTo(geomean(expected), 10);
      // The second class ran 30% faster; one repeat against one repeat (the first class has three).
      expect(row.ratio).toBeGreaterThan(1.25);
      expect(row.ratio).toBeLessThan(1.35);
      expect(row.min_used).toBe(1);
      expect(row.max_used).toBe(1);
    }
  });

  it('weigh every test of every cell the same in the overall mean, with its middle 80%', async () => {
    const gcc = await cellRatios(AMD, INTEL, '7.4.1|gcc|-O2', 'pipe');
    const all = [...gcc, ...await cellRatios(AMD, INTEL, '7.4.1|clang|-O2', 'pipe')];
    const overall = find(rows, 'pipe', null, null)!;
    expect(overall.items).toBe(all.length);
    expect(overall.ratio).toBeCloseTo(geomean(all), 10);
    expect(overall.p10).toBeLessThanOrEqual(overall.ratio);
    expect(overall.p90).toBeGreaterThanOrEqual(overall.ratio);
    // Per version over all configurations, and per configuration over all versions.
    expect(find(rows, 'pipe', null, '7.4.1')?.ratio).toBeCloseTo(geomean(all), 10);
    expect(find(rows, 'pipe', 'gcc|-O2', null)?.ratio).toBeCloseTo(geomean(gcc), 10);
    expect(find(rows, 'pipe', 'gcc|-O2', null)?.items).toBe(gcc.length);
  });

  it('give each test over every cell measured on both, in test order', async () => {
    const [gcc, clang] = await Promise.all([
      Promise.all([bestByTest(AMD, '7.4.1|gcc|-O2', 'data'), bestByTest(INTEL, '7.4.1|gcc|-O2', 'data')]),
      Promise.all([bestByTest(AMD, '7.4.1|clang|-O2', 'data'), bestByTest(INTEL, '7.4.1|clang|-O2', 'data')]),
    ]);
    const set = rows.find((r) => r.mode === 'data' && r.test === 'SET')!;
    expect(set.compiler).toBeNull();
    expect(set.version).toBeNull();
    expect(set.cells).toBe(2);
    expect(set.items).toBe(2);
    expect(set.ratio).toBeCloseTo(geomean([gcc[1].get('SET')! / gcc[0].get('SET')!, clang[1].get('SET')! / clang[0].get('SET')!]), 10);
    const order = rows.filter((r) => r.mode === 'data' && r.test !== null).map((r) => r.test_index);
    expect(order).toEqual([...order].sort((x, y) => (x ?? 0) - (y ?? 0)));
    expect(order.length).toBe(gcc[0].size);
  });

  it('leave the noise unjudged while a class has one repeat, and read the other way round as the reciprocal', async () => {
    const overall = find(rows, 'data', null, null)!;
    expect(overall.verdict).toBe('unknown');
    expect(overall.unknown).toBe(overall.items);
    expect(overall.band).toBeNull();
    const back = await fx.runner.run(hardwareRatiosQuery(INTEL, AMD));
    expect(find(back, 'data', null, null)?.ratio).toBeCloseTo(1 / overall.ratio, 10);
  });

  it('use every repeat when both sides have them all, as the charts do, and judge the noise then', async () => {
    const same = await fx.runner.run(hardwareRatiosQuery(AMD, AMD));
    const row = find(same, 'data', 'gcc|-O2', '7.4.1')!;
    expect(row.ratio).toBeCloseTo(1, 12);
    expect(row.min_used).toBe(3);
    expect(row.verdict).toBe('tie');
    expect(row.tie).toBe(row.items);
    const all = await bestByTest(AMD, '7.4.1|gcc|-O2', 'data', 3);
    const charted = await fx.runner.run(query<{ test: string; best_value: number }>(
      "SELECT test, best_value FROM cell_status WHERE cell_id = '7.4.1|gcc|-O2' AND mode = 'data' AND status = 'ok'"));
    expect(charted.length).toBe(all.size);
    for (const r of charted) expect(all.get(r.test)).toBe(r.best_value);
  });

  it('are empty against a class with no machine', async () => {
    expect(await fx.runner.run(hardwareRatiosQuery(AMD, 'No such CPU, 2 cores'))).toEqual([]);
  });
});

describe('hardwareRankingQuery', () => {
  it('score each configuration against the baseline on each class over the same tests', async () => {
    const rows = await fx.runner.run(hardwareRankingQuery(AMD, INTEL, GCC_O2));
    const data = rows.filter((r) => r.mode === 'data');
    // Only 7.4.1 has the baseline and another configuration measured on both classes.
    expect(data.map((r) => `${r.compiler}|${r.flag_set}`)).toEqual(['gcc|-O2', 'clang|-O2']);
    const base = data[0]!;
    expect(base.a_ratio).toBeCloseTo(1, 12);
    expect(base.b_ratio).toBeCloseTo(1, 12);
    const clang = data[1]!;
    const [ga, ca, gb, cb] = await Promise.all([
      bestByTest(AMD, '7.4.1|gcc|-O2', 'data'), bestByTest(AMD, '7.4.1|clang|-O2', 'data'),
      bestByTest(INTEL, '7.4.1|gcc|-O2', 'data'), bestByTest(INTEL, '7.4.1|clang|-O2', 'data'),
    ]);
    const tests = [...ga.keys()].filter((t) => ca.has(t) && gb.has(t) && cb.has(t));
    expect(clang.items).toBe(tests.length);
    expect(clang.versions).toBe(1);
    expect(clang.a_ratio).toBeCloseTo(geomean(tests.map((t) => ca.get(t)! / ga.get(t)!)), 10);
    expect(clang.b_ratio).toBeCloseTo(geomean(tests.map((t) => cb.get(t)! / gb.get(t)!)), 10);
    // B has one repeat, so each side's figure is one run: no noise judged.
    expect(clang.a_verdict).toBe('unknown');
    expect(clang.b_verdict).toBe('unknown');
  });
});

describe('ranks and spearman', () => {
  it('rank the largest first, ties sharing their mean rank', () => {
    expect(ranks([1.0, 1.2, 0.9, 1.2])).toEqual([3, 1.5, 4, 1.5]);
    expect(ranks([])).toEqual([]);
  });

  it('give 1 for the same order, -1 for the reverse, and null when they cannot tell', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 12);
    expect(spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])).toBeCloseTo(0.8, 12);
    expect(spearman([1, 2], [1, 2])).toBeNull();
    expect(spearman([1, 2, 3], [5, 5, 5])).toBeNull();
    expect(() => spearman([1, 2, 3], [1, 2])).toThrow();
  });
});

describe('the section\'s words', () => {
  const make = (label: string): HardwareClass => ({ label, slug: hardwareSlug(label), runs: 1, measuredCells: 1, plannedCells: 84, doneRuns: 1, plannedRuns: 504, firstRunMs: 1, firstMeasuredMs: 1 });
  const amd = make(AMD);
  const intel = make(INTEL);
  const third = make('Third CPU, 4 cores');

  it('set the shown class against the one asked for, else the first other, and nothing with one class', () => {
    expect(comparedClasses([amd, intel, third], amd, null)).toEqual({ a: amd, b: intel });
    expect(comparedClasses([amd, intel, third], amd, third.slug)).toEqual({ a: amd, b: third });
    expect(comparedClasses([amd, intel, third], intel, intel.slug)).toEqual({ a: intel, b: amd });
    expect(comparedClasses([amd], amd, null)).toBeNull();
    expect(comparedClasses([], null, null)).toBeNull();
  });

  it('drop a core count both labels share', () => {
    expect(shortLabel('AMD EPYC, 2 cores', 'Intel(R) Xeon(R) Processor, 2 cores')).toBe('AMD EPYC');
    expect(shortLabel('AMD EPYC, 2 cores', 'AMD EPYC, 4 cores')).toBe('AMD EPYC, 2 cores');
  });

  it('say the overall change with its spread and verdicts, and which configuration wins on each class', () => {
    const row: HardwareRatioRow = { mode: 'data', compiler: null, flag_set: null, version: null, test: null, test_index: null, ratio: 1.185, band: null, verdict: 'unknown', items: 741, cells: 39, p10: 0.87, p90: 1.52, min_used: 1, max_used: 1, faster: 0, slower: 0, tie: 0, unknown: 741 };
    expect(headlineText('data', row, 'AMD EPYC', 'Intel Xeon')).toBe(
      'data mode: Intel Xeon ? +18.5% against AMD EPYC (geometric mean of 741 tests in 39 cells measured on both, best of 1 repeat on each side; middle 80% of the per-test changes −13.0% to +52.0%; '
      + 'per test: 0 faster and 0 slower beyond noise, 0 within noise, 741 without a spread)',
    );
    expect(headlineText('pipe', { ...row, min_used: 1, max_used: 3 }, 'A', 'B')).toContain('best of 1–3 repeats on each side');
    const score = (compiler: string, flag_set: string, a_ratio: number, b_ratio: number): HardwareRankingRow => ({
      mode: 'data', compiler, flag_set, compiler_index: 0, flag_index: 0, a_ratio, a_band: null, a_verdict: 'unknown', b_ratio, b_band: null, b_verdict: 'unknown', items: 20, versions: 2,
    });
    const ranked = rankMode([score('gcc', '-O2', 1, 1), score('gcc', '-O2 -flto', 1.04, 1.01), score('clang', '-O2', 0.98, 1.03), score('clang', '-O2 -flto', 1.02, 1.05)]);
    expect(ranked.rows.map((r) => [r.a_rank, r.b_rank])).toEqual([[3, 4], [1, 3], [4, 2], [2, 1]]);
    expect(rankingText(ranked, 'AMD EPYC', 'Intel Xeon')).toBe(
      'Fastest on AMD EPYC: gcc -O2 -flto (+4.0%); on Intel Xeon: clang -O2 -flto (+5.0%); rank correlation (Spearman) 0.00 over 4 configurations.'
      + ' One repeat per cell on each side so far (as many as the class with fewer has): no spread is known, and the rankings are as noisy as single runs.',
    );
    const judged = rankMode(ranked.rows.map((r) => ({ ...r, a_verdict: 'tie' as const, b_verdict: 'tie' as const })));
    expect(rankingText(judged, 'AMD EPYC', 'Intel Xeon')).not.toContain('one repeat');
  });
});

describe('the section\'s tables, from hand-made rows', () => {
  const GCC_OS = { compiler: 'gcc', flag_set: '-Os' };
  const CLANG_O2 = { compiler: 'clang', flag_set: '-O2' };
  const ratio = (fields: Partial<HardwareRatioRow>): HardwareRatioRow => ({
    mode: 'data', compiler: null, flag_set: null, version: null, test: null, test_index: null, ratio: 1.3, band: 0.02, verdict: 'faster',
    items: 20, cells: 2, p10: 1.2, p90: 1.4, min_used: 1, max_used: 3, faster: 18, slower: 0, tie: 2, unknown: 0, ...fields,
  });
  const ratios = [
    ratio({ mode: 'pipe', compiler: 'gcc', flag_set: '-O2', version: '7.4.1', ratio: 1.1 }),
    ratio({ compiler: 'gcc', flag_set: '-O2', version: '7.4.1', ratio: 1.25 }),
    ratio({ compiler: 'gcc', flag_set: '-O2', version: null, ratio: 1.26 }),
    ratio({ compiler: null, flag_set: null, version: '7.4.1', ratio: 1.27 }),
    ratio({ ratio: 1.28 }),
    ratio({ test: 'SET', test_index: 2, ratio: 1.31, cells: 1 }),
    ratio({ test: 'GET', test_index: 1, ratio: 1.32 }),
    ratio({ mode: 'pipe', test: 'SET', test_index: 2, ratio: 1.33, verdict: 'tie' }),
  ];

  it('list the modes in the order of the rows, and head only those with an overall row', () => {
    expect(ratioModes(ratios)).toEqual(['pipe', 'data']);
    const headlines = hardwareHeadlines(ratios, 'AMD', 'Intel');
    expect(headlines.map((x) => x.mode)).toEqual(['data']);
    expect(headlines[0]?.text).toBe(headlineText('data', ratios[4]!, 'AMD', 'Intel'));
  });

  it('give a mode a row per configuration measured on both and one for all, a column per version measured on both and one for all', () => {
    const table = hardwareTable('data', ratios, ['7.2.6', '7.4.1'], [GCC_O2, GCC_OS, CLANG_O2], 'AMD', 'Intel');
    expect(table.caption).toBe('data mode: Intel / AMD, per configuration and version');
    expect(table.columns).toEqual([{ key: '7.4.1', label: '7.4.1' }, { key: ALL, label: 'all' }]);
    expect(table.rows.map((r) => [r.key, r.label, ...r.cells.map((c) => c.ratio)])).toEqual([
      ['gcc|-O2', 'gcc -O2', 1.25, 1.26],
      [ALL, 'all configurations', 1.27, 1.28],
    ]);
    expect(table.rows[1]?.cells[1]?.title).toBe(
      'all configurations, all versions, data mode: Intel +28.0%, faster beyond the ±2.0% noise band against AMD; 20 tests: 18 faster and 0 slower beyond noise, 2 within noise (▲18 ≈2 ▼0)');
  });

  it('leave a cell not measured on both empty, saying so', () => {
    const table = hardwareTable('pipe', ratios, ['7.4.1'], [GCC_O2], 'AMD', 'Intel');
    expect(table.rows.map((r) => r.cells.map((c) => c.ratio))).toEqual([[1.1, null], [null, null]]);
    expect(table.rows[0]?.cells[1]?.title).toBe('gcc -O2, all versions, pipe mode: not measured on both classes');
  });

  it('give a row per test in the client\'s order and a column per mode', () => {
    const table = hardwareTestsTable(ratios, ['pipe', 'data'], 'AMD', 'Intel');
    expect(table.columns).toEqual([{ key: 'pipe', label: 'pipe mode' }, { key: 'data', label: 'data mode' }]);
    expect(table.rows.map((r) => [r.key, ...r.cells.map((c) => c.ratio)])).toEqual([['GET', null, 1.32], ['SET', 1.33, 1.31]]);
    expect(table.rows[1]?.cells[1]?.title).toBe(
      'SET, data mode: Intel +31.0%, faster beyond the ±2.0% noise band against AMD, over 1 cell (middle 80% +20.0% to +40.0%); per cell: 18 faster and 0 slower beyond noise, 2 within noise');
    expect(table.rows[0]?.cells[0]?.title).toBe('GET, pipe mode: not measured on both classes');
  });

  it('say what each class measured, or that no cell was measured on both', () => {
    const make = (label: string, measuredCells: number): HardwareClass => ({ label, slug: hardwareSlug(label), runs: 1, measuredCells, plannedCells: 84, doneRuns: 1, plannedRuns: 504, firstRunMs: 1, firstMeasuredMs: 1 });
    const [amd, intel] = [make('AMD', 84), make('Intel', 3)];
    expect(hardwareStatusText(amd, intel, ['data'])).toBe('B: Intel (3 of 84 cells measured) against A: AMD (84 of 84)');
    expect(hardwareStatusText(amd, intel, [])).toBe('No cell measured on both AMD and Intel yet.');
    expect(hardwareStatusText({ ...amd, measuredCells: 132, plannedCells: 1896 }, intel, ['data'])).toBe('B: Intel (3 of 84 cells measured) against A: AMD (132 of 1,896)');
  });

  it('write a shared rank with "="', () => {
    expect([1, 2, 1.5, 3.5].map(rankText)).toEqual(['1', '2', '1=', '3=']);
  });
});

describe('the vs parameter', () => {
  const catalog = {
    versions: ['7.4.1'], charts: new Set(['data:SET']), modes: ['data'], precisionModes: [], configs: new Set(['gcc|-O2']),
    hardware: [{ slug: 'amd-epyc-2-cores', label: 'AMD EPYC, 2 cores' }, { slug: 'intel-xeon-2-cores', label: 'Intel Xeon, 2 cores' }],
    defaultHardware: 'amd-epyc-2-cores', hasExtended: false,
  };

  it('round-trips after the compared builds', () => {
    const state = { ...DEFAULTS, hw: 'amd-epyc-2-cores', b: '7.4.1', vs: 'intel-xeon-2-cores', section: 'hardware' as const };
    const url = encodeState(state);
    expect(url).toBe('?hw=amd-epyc-2-cores&b=7.4.1&vs=intel-xeon-2-cores&section=hardware');
    expect(decodeState(url)).toEqual({ state, problems: [] });
    expect(reconcileState(state, catalog)).toEqual({ state, problems: [] });
  });

  it('falls back to the first other class, with a notice, when unknown or the class shown', () => {
    const unknown = reconcileState({ ...DEFAULTS, vs: 'pentium-1-core' }, catalog);
    expect(unknown.state.vs).toBeNull();
    expect(unknown.problems).toEqual(['The hardware "pentium-1-core" to compare with is not in the data; comparing with the default instead.']);
    const itself = reconcileState({ ...DEFAULTS, vs: 'amd-epyc-2-cores' }, catalog);
    expect(itself.state.vs).toBeNull();
    expect(itself.problems).toEqual(['AMD EPYC, 2 cores is the hardware shown; it is compared with another class instead.']);
  });
});
