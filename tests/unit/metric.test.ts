/**
 * The page's metric (src/model/metric.ts) through every layer that depends on its direction: the
 * verdict rule, the counted tables, winners, geometric means and the summary's sentences, run on
 * the site's DuckDB against the fixture (whose counts have a 0.05% repeat spread, -Os costing 9%
 * more instructions than -O2, LTO 3% less, clang 2% less, and 6.2.16 clang -O2 uncounted).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { changeText, countsNote, formatChange, verdictGlyphs } from '../../src/model/changeText';
import { METRICS, RPS } from '../../src/vocabulary';
import { changeGlyph } from '../../src/model/metric';
import { bestConfig, bestConfigText, bestPerMetricText, correlationText, costThroughputCorrelation, countCoverageText, winnerTallyText } from '../../src/model/metricSummary';
import { configBarsQuery, versionBarsQuery } from '../../src/sql/charts';
import { compareQuery } from '../../src/sql/compare';
import { countCoverageQuery, spreadQuery, winnerTallyQuery } from '../../src/sql/counted';
import { effectsQuery } from '../../src/sql/effects';
import { verdictSql } from '../../src/sql/noise';
import { statusGridQuery } from '../../src/sql/status';
import { summaryQuery, type SummaryRow } from '../../src/sql/summary';
import { versionVerdictsQuery } from '../../src/sql/verdicts';
import { type FixtureDb, openFixtureDb } from '../support/fixture-db';
import { openNodeDuckDB } from '../support/node-duckdb.mjs';

const IR = METRICS.ir;
const GCC_O2 = { compiler: 'gcc', flag_set: '-O2' };
let fx: FixtureDb;

beforeAll(async () => {
  fx = await openFixtureDb();
});

describe('verdictSql with a cost (lower is better)', () => {
  it('calls the cheaper side faster (better) and the costlier slower, by the same symmetric band', async () => {
    const { run } = await openNodeDuckDB();
    const each = (lower: boolean) => run(`SELECT ${verdictSql('r', 'band', lower)} AS x FROM (VALUES (1, 0.95, 0.02), (2, 1.05, 0.02), (3, 1.015, 0.02), (4, 0.99, NULL)) t(i, r, band) ORDER BY i`).map((row) => row.x);
    expect(each(false)).toEqual(['slower', 'faster', 'tie', 'unknown']);
    expect(each(true)).toEqual(['faster', 'slower', 'tie', 'unknown']);
  });
});

describe('words and marks by direction', () => {
  it('draws the arrow by the sign of the number and names the change by whether it is better', () => {
    expect(verdictGlyphs(RPS)).toEqual({ faster: '▲', slower: '▼', tie: '≈', unknown: '?' });
    expect(verdictGlyphs(IR)).toEqual({ faster: '▼', slower: '▲', tie: '≈', unknown: '?' });
    expect(changeGlyph(IR, 'faster')).toBe('▼');
    expect(changeText(0.94, 0.0002, 'faster', IR)).toBe('−6.0%, cheaper beyond the ±0.020% noise band');
    expect(changeText(1.04, 0.018, 'faster')).toBe('+4.0%, faster beyond the ±1.8% noise band');
    expect(countsNote({ faster: 8, tie: 1, slower: 0, unknown: 0 }, IR)).toBe('▼8 ≈1 ▲0');
  });

  it('keeps a digit of a change too small for one decimal, so a change never reads as 0.0%', () => {
    expect(formatChange(1.0412)).toBe('+4.1%');
    expect(formatChange(0.95)).toBe('−5.0%');
    expect(formatChange(1)).toBe('+0.0%');
    expect(formatChange(0.99996)).toBe('−0.004%');
    expect(formatChange(1.0000012)).toBe('+0.0001%');
    expect(formatChange(1.0006)).toBe('+0.1%');
    expect(changeText(0.99996, 0, 'faster', IR)).toBe('−0.004%, cheaper beyond the ±0.0% noise band');
  });
});

describe('the counted tables', () => {
  it('give each version the cheapest configuration as its bar, with its costliest repeat as the whisker end', async () => {
    const rows = await fx.runner.run(versionBarsQuery(null, IR));
    const configs = await fx.runner.run(configBarsQuery('data', 'SET', IR));
    const v741 = rows.find((r) => r.mode === 'data' && r.test === 'SET' && r.version === '7.4.1');
    const measured = configs.filter((c) => c.version === '7.4.1' && c.best_value !== null);
    expect(v741?.best_value).toBe(Math.min(...measured.map((c) => c.best_value ?? Infinity)));
    expect(v741?.worst_value).toBeGreaterThan(v741?.best_value ?? Infinity);
    expect(v741?.ok_repeats).toBe(2);
    expect(v741?.p50_ms).toBeNull();
  });

  it('mark the cheapest configuration the winner and the costlier ones slower (worse) beyond their tiny noise', async () => {
    const rows = (await fx.runner.run(configBarsQuery('data', 'INCR', IR))).filter((r) => r.version === '6.2.16');
    const winner = rows.find((r) => r.winner);
    expect(winner?.cell_id).toBe('6.2.16|clang|-O2 -flto');
    const os = rows.find((r) => r.cell_id === '6.2.16|gcc|-Ofast');
    expect(os?.vs_winner).toBeGreaterThan(0.05);
    expect(os?.vs_winner_verdict).toBe('slower');
    expect(os?.spread).toBeLessThan(0.001);
    const verdicts = await fx.runner.run(versionVerdictsQuery(IR));
    expect(verdicts.find((v) => v.mode === 'data' && v.test === 'INCR' && v.version === '6.2.16')?.winner_call).toBe('clear');
    // Every release costs 3% more than the one before: a regression (slower = worse) with a positive change.
    const set = verdicts.find((v) => v.mode === 'data' && v.test === 'SET' && v.version === '7.4.1');
    expect(set?.change).toBeGreaterThan(0);
    expect(set?.change_verdict).toBe('slower');
  });

  it('show a cell without counts, an unsupported test and a crash as missing, never as zero', async () => {
    const rows = await fx.runner.run(configBarsQuery('data', 'INCR', IR));
    expect(rows.find((r) => r.cell_id === '6.2.16|clang|-O2')).toMatchObject({ status: 'not_collected', best_value: null });
    expect(rows.find((r) => r.cell_id === '7.4.1|clang|-Ofast')).toMatchObject({ status: 'build_failed', best_value: null });
    const zpop = await fx.runner.run(configBarsQuery('data', 'ZPOPMIN', IR));
    expect(zpop.find((r) => r.cell_id === '3.0.7|gcc|-O2')).toMatchObject({ status: 'unsupported', best_value: null });
    const lrange = await fx.runner.run(configBarsQuery('data', 'LRANGE_100 (first 100 elements)', IR));
    const crashed = lrange.find((r) => r.cell_id === '2.8.24|gcc|-O2');
    expect(crashed).toMatchObject({ status: 'failed', best_value: null });
    expect(crashed?.reason).toMatch(/crashed under Valgrind/);
  });
});

describe('geometric means under a cost', () => {
  let scores: SummaryRow[];
  beforeAll(async () => {
    scores = await fx.runner.run(summaryQuery(GCC_O2, IR));
  });
  const overall = (compiler: string, flagSet: string, mode = 'data') =>
    scores.find((r) => r.mode === mode && r.version === null && r.compiler === compiler && r.flag_set === flagSet);

  it('keep the ratio in the cost\'s own direction: -Os costs 9% more (worse), clang -O2 -flto 5% less (better)', () => {
    expect(overall('gcc', '-Os')?.ratio).toBeCloseTo(1.09, 3);
    expect(overall('gcc', '-Os')?.verdict).toBe('slower');
    // 0.98 x 0.97, and 8% less on INCR in 6.2.16 (one version of ten tests).
    expect(overall('clang', '-O2 -flto')?.ratio).toBeCloseTo(0.98 * 0.97, 2);
    expect(overall('clang', '-O2 -flto')?.verdict).toBe('faster');
    expect(overall('clang', '-O2 -flto')?.faster).toBe(overall('clang', '-O2 -flto')?.tests);
  });

  it('name the cheapest test the largest gain and the costliest the largest loss', () => {
    const lto = overall('clang', '-O2 -flto');
    expect(lto?.best_ratio).toBeLessThanOrEqual(lto?.worst_ratio ?? 0);
  });

  it('give the build factors in the cost: -Os against -O2 is 9% costlier, LTO 3% cheaper', async () => {
    const effects = (await fx.runner.run(effectsQuery(IR))).filter((e) => e.mode === 'pipe' && e.version === null);
    expect(effects.find((e) => e.factor === 'level' && e.level === '-Os')).toMatchObject({ verdict: 'slower' });
    expect(effects.find((e) => e.factor === 'level' && e.level === '-Os')?.ratio).toBeCloseTo(1.09, 3);
    expect(effects.find((e) => e.factor === 'lto')?.ratio).toBeCloseTo(0.97, 3);
    expect(effects.find((e) => e.factor === 'lto')?.verdict).toBe('faster');
  });

  it('compare two builds by the cost: B cheaper is a ratio below 1 and better', async () => {
    const rows = await fx.runner.run(compareQuery({ version: '7.2.6', config: GCC_O2 }, { version: '7.2.6', config: { compiler: 'clang', flag_set: '-O2' } }, IR));
    const mean = rows.find((r) => r.mode === 'data' && r.test === null);
    expect(mean?.ratio).toBeCloseTo(0.98, 3);
    expect(mean?.verdict).toBe('faster');
  });

  it('pick the cheapest configuration per mode and say by how much', () => {
    const best = bestConfig(scores, 'data', IR);
    expect(best ? `${best.compiler} ${best.flag_set}` : null).toBe('clang -Ofast -flto');
    expect(bestConfigText(best, 'data', 'gcc -O2', IR)).toMatch(/^data mode: the cheapest build is clang -Ofast -flto, −5\.\d% instructions per request against gcc -O2, cheaper beyond/);
    expect(bestConfigText(null, 'data', 'gcc -O2', IR)).toBe('data mode: nothing compared yet in instructions per request');
    expect(bestPerMetricText([[IR, scores], [METRICS.cycles, []], [RPS, scores.filter((r) => r.compiler === 'gcc' && r.flag_set === '-O2')]], 'data', 'gcc -O2'))
      .toMatch(/^data mode, best build against gcc -O2: instructions per request clang -Ofast -flto −5\.\d% \(cheaper beyond noise\) · estimated cycles per request: not collected yet · requests\/second: the baseline itself$/);
  });
});

describe('the instruments compared', () => {
  it('count the chart winners each metric decides beyond noise', async () => {
    const tally = await fx.runner.run(winnerTallyQuery());
    const ir = tally.find((r) => r.metric === 'ir' && r.mode === 'data');
    const rps = tally.find((r) => r.metric === 'rps' && r.mode === 'data');
    // The counts' 0.05% spread decides nearly every contest; the throughput's ±1.5% noise few.
    expect((ir?.clear ?? 0) / (ir?.contests ?? 1)).toBeGreaterThan(0.9);
    expect(rps?.clear ?? 0).toBeLessThan(ir?.clear ?? 0);
    expect(winnerTallyText(tally, 'data')).toContain(`instructions per request ${ir?.clear} of ${ir?.contests}`);
    expect(winnerTallyText([], 'data')).toContain('instructions per request: not collected yet');
    expect(winnerTallyText(tally.map((r) => ({ ...r, contests: 0, clear: 0 })), 'data')).toContain('instructions per request: no version with two configurations to compare yet');
  });

  it('measure each metric\'s repeat spread from its own repeats', async () => {
    const spreads = await fx.runner.run(spreadQuery());
    const ir = spreads.find((r) => r.metric === 'ir' && r.mode === 'pipe');
    const rps = spreads.find((r) => r.metric === 'rps' && r.mode === 'pipe');
    expect(ir?.max).toBeLessThan(0.0006);
    expect(rps?.median).toBeGreaterThan(0.005);
  });

  it('rank-correlate the configurations\' cost and throughput: the fixture\'s cheaper builds are the faster ones', async () => {
    const [cost, speed] = await Promise.all([fx.runner.run(summaryQuery(GCC_O2, IR)), fx.runner.run(summaryQuery(GCC_O2, RPS))]);
    const c = costThroughputCorrelation(cost, speed, 'pipe');
    expect(c.configs).toBe(12);
    expect(c.rho).toBeLessThan(-0.7);
    expect(correlationText(c, 'pipe', IR)).toMatch(/: -0\.\d\d over 12 configurations .*the cheaper builds are mostly the faster ones/);
    expect(costThroughputCorrelation([], speed, 'pipe')).toEqual({ rho: null, configs: 0 });
  });
});

describe('the counted coverage', () => {
  it('counts per mode the cells counted, the counting runs and the tests without a count', async () => {
    const rows = await fx.runner.run(countCoverageQuery());
    const data = rows.find((r) => r.mode === 'data');
    // 84 planned; 13 never built on the fixture machine, 3 failed to build, 6.2.16 clang -O2 not counted yet.
    expect(data).toMatchObject({ planned_cells: 84, counted_cells: 67, server_failed_runs: 0 });
    expect(data?.failed_tests).toBe(1);
    expect(countCoverageText(rows)).toContain('data mode 67 of 84 cells counted');
    // 7.4.1 gcc -O2's data-mode repeats were counted again (count_runs_superseded.redone).
    expect(data?.redone_cells).toBe(1);
    expect(rows.find((r) => r.mode === 'pipe')?.redone_cells).toBe(0);
    expect(countCoverageText(rows)).toMatch(/unsupported; 1 cell counted again because the repeats differed \(the runs set aside are in each cell's panel\)\) · pipe mode/);
    // 7.2.6 gcc -O2's pipe-mode repeat 2 was counted again on a rebuild (its build took the host's address bits).
    expect(data?.rebuilt_cells).toBe(0);
    expect(rows.find((r) => r.mode === 'pipe')?.rebuilt_cells).toBe(1);
    expect(countCoverageText(rows)).toMatch(/pipe mode .*unsupported; 1 cell counted again on a rebuild, the earlier build being other code \(each cell's panel says why\)\)\.$/);
    expect(countCoverageText(rows.map((r) => ({ ...r, counted_cells: 0, ok_runs: 0, partial_runs: 0, server_failed_runs: 0 })))).toMatch(/: not collected yet\.$/);
  });
});

describe('the status grid under a counted metric', () => {
  it('shows the counting runs of every machine against the counting protocol\'s two repeats', async () => {
    const rows = await fx.runner.run(statusGridQuery(IR));
    const cell = (id: string) => rows.find((r) => r.cell_id === id);
    expect(cell('7.4.1|gcc|-O2')).toMatchObject({ status: 'ok', planned_repeats: 2, min_repeats: 2, measured_runs: 4 });
    expect(cell('6.2.16|clang|-O2')).toMatchObject({ status: 'partial', min_repeats: 0 });
    expect(cell('7.4.1|clang|-Ofast')).toMatchObject({ status: 'build_failed' });
    expect(cell('2.8.24|gcc|-O2')?.failed_tests).toBe(1);
    // The measured grid of the same cell counts its three benchmark repeats.
    expect((await fx.runner.run(statusGridQuery())).find((r) => r.cell_id === '7.4.1|gcc|-O2')?.planned_repeats).toBe(3);
  });
});
