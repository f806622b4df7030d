/**
 * The simulated misses as counted metrics (l1, ll, branch: src/vocabulary.ts): their tables read
 * their own column of counts with ir_status's rows and statuses, their winners are picked to a
 * millionth of a miss, and a count of zero (the fixture's PING_MBULK in data mode has no
 * last-level misses in any build, PING_INLINE in data mode none in the gcc builds) has no ratio to
 * a count above zero, while two zeros are equal. Run on the site's DuckDB against the fixture.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { configBar } from '../../src/model/bars';
import { axisDomain } from '../../src/model/domain';
import { formatFigure, tickSpecifier } from '../../src/model/format';
import { pairNote } from '../../src/model/releaseChanges';
import { configBarsQuery, versionBarsQuery } from '../../src/sql/charts';
import { compareQuery } from '../../src/sql/compare';
import { spreadQuery, winnerTallyQuery } from '../../src/sql/counted';
import { effectsQuery } from '../../src/sql/effects';
import { COUNT_STATUS_SQL, lazyReaders } from '../../src/sql/load';
import { query } from '../../src/sql/query';
import { releaseChangesQuery } from '../../src/sql/releaseChanges';
import { summaryItemsQuery, summaryQuery } from '../../src/sql/summary';
import { versionVerdictsQuery } from '../../src/sql/verdicts';
import { METRIC_IDS, metricOf, METRICS } from '../../src/vocabulary';
import { type FixtureDb, openFixtureDb, rewrittenFixture } from '../support/fixture-db';

const MISSES = [METRICS.l1, METRICS.ll, METRICS.branch];
const LL = METRICS.ll;
const GCC_O2 = { compiler: 'gcc', flag_set: '-O2' };
const CLANG_O2 = { compiler: 'clang', flag_set: '-O2' };
let fx: FixtureDb;

beforeAll(async () => {
  fx = await openFixtureDb();
});

describe('the misses metrics', () => {
  it('are counted costs with their own table, column, unit and the note that they are simulated', () => {
    expect(METRIC_IDS).toEqual(['rps', 'p50', 'p95', 'p99', 'ir', 'cycles', 'l1', 'll', 'branch']);
    expect(MISSES.map((m) => [m.table, m.countColumn, m.unit, m.lower, m.kind])).toEqual([
      ['l1_status', 'l1_misses_per_request', 'L1 misses/req', true, 'counted'],
      ['ll_status', 'll_misses_per_request', 'LL misses/req', true, 'counted'],
      ['branch_status', 'branch_misses_per_request', 'mispredicts/req', true, 'counted'],
    ]);
    for (const m of MISSES) {
      expect(m.label).toMatch(/per request \(counted, simulated\)$/);
      for (const words of ['simulated by Valgrind\'s callgrind, not read from the hardware\'s counters', '32 KiB 8-way L1', '8 MiB 16-way last level', '64-byte lines', 'simple branch predictor']) {
        expect(m.note).toContain(words);
      }
    }
    expect(METRICS.ir.note).toBeUndefined();
    expect(COUNT_STATUS_SQL).toContain('CREATE OR REPLACE VIEW branch_status AS');
  });

  it('read each repeat\'s own column: the best is the lowest repeat, the whisker the highest, with ir_status\'s rows and statuses', async () => {
    for (const m of MISSES) {
      const [mismatch] = await fx.runner.run(query<{ n: number }>(`
        SELECT count(*)::INTEGER AS n FROM ${m.table} s
        LEFT JOIN (SELECT cell_id, mode, test, min(${m.countColumn}) AS best, max(${m.countColumn}) AS worst FROM counts GROUP BY ALL) c USING (cell_id, mode, test)
        JOIN ir_status i USING (cell_id, mode, test)
        WHERE s.status <> i.status OR s.ok_repeats <> i.ok_repeats OR s.best_value IS DISTINCT FROM c.best
           OR s.worst_value IS DISTINCT FROM c.worst OR s.reason IS DISTINCT FROM i.reason`));
      expect(mismatch?.n, m.id).toBe(0);
      const [rows] = await fx.runner.run(query<{ n: number; ok: number }>(`SELECT count(*)::INTEGER AS n, count(best_value)::INTEGER AS ok FROM ${m.table}`));
      const [ir] = await fx.runner.run(query<{ n: number; ok: number }>(`SELECT count(*)::INTEGER AS n, count(best_value)::INTEGER AS ok FROM ir_status`));
      expect(rows).toEqual(ir);
    }
  });

  it('are fetched with counts\' lazy file when a query names their view', () => {
    expect(lazyReaders('counts')).toEqual(expect.arrayContaining(['l1_misses_per_request', 'l1_status', 'll_status', 'branch_status']));
    expect(lazyReaders('counts')).not.toContain('ir_status');
    expect(lazyReaders('builds')).toEqual(['log_tail']);
  });

  it('pick each version\'s cheapest configuration to a millionth of a miss, though every figure is below a hundredth', async () => {
    const tiny = await openFixtureDb(undefined, {
      counts: await rewrittenFixture('counts', 'SELECT * REPLACE (ll_misses_per_request / 1000 AS ll_misses_per_request) FROM fixture'),
    });
    const bars = await tiny.runner.run(versionBarsQuery(null, LL));
    const configs = await tiny.runner.run(configBarsQuery('pipe', 'SET', LL));
    const v = bars.find((r) => r.mode === 'pipe' && r.test === 'SET' && r.version === '7.2.6');
    const measured = configs.filter((c) => c.version === '7.2.6' && c.best_value !== null).map((c) => c.best_value ?? Infinity);
    expect(Math.max(...measured)).toBeLessThan(0.01);
    expect(v?.best_value).toBe(Math.min(...measured));
    // Rounded to a hundredth, every configuration would tie at 0 and gcc -O2, the first, would win.
    expect(`${v?.compiler} ${v?.flag_set}`).not.toBe('gcc -O2');
  });

  it('decide the fixture\'s winners and measure their repeat spread like the other counts', async () => {
    const [tally, spreads] = await Promise.all([fx.runner.run(winnerTallyQuery()), fx.runner.run(spreadQuery())]);
    for (const id of ['l1', 'll', 'branch']) {
      const t = tally.find((r) => r.metric === id && r.mode === 'pipe');
      expect(t?.contests).toBeGreaterThan(0);
      expect(spreads.find((r) => r.metric === id && r.mode === 'pipe')?.figures).toBeGreaterThan(0);
    }
  });
});

describe('a count of zero', () => {
  it('is a figure, drawn as zero, with no spread between repeats that agree', async () => {
    const bars = await fx.runner.run(versionBarsQuery(null, LL));
    const mbulk = bars.filter((r) => r.mode === 'data' && r.test === 'PING_MBULK' && r.status === 'ok');
    expect(mbulk.length).toBeGreaterThan(0);
    expect(mbulk.every((r) => r.best_value === 0 && r.worst_value === 0)).toBe(true);
    const verdicts = await fx.runner.run(versionVerdictsQuery(LL));
    expect(verdicts.find((v) => v.mode === 'data' && v.test === 'PING_MBULK' && v.version === '7.2.6')).toMatchObject({ spread: 0, winner_call: 'tie' });
  });

  it('ties with another zero and is clear of a count above zero, which has no ratio to it', async () => {
    const verdicts = await fx.runner.run(versionVerdictsQuery(LL));
    // 7.2.6 PING_INLINE data: six gcc builds count none, six clang builds some; the winner is a gcc build, tied with the other five.
    expect(verdicts.find((v) => v.mode === 'data' && v.test === 'PING_INLINE' && v.version === '7.2.6')).toMatchObject({ winner_call: 'tie', ties: 5, runner_compiler: 'gcc' });
    const rows = (await fx.runner.run(configBarsQuery('data', 'PING_INLINE', LL))).filter((r) => r.version === '7.2.6');
    const winner = rows.find((r) => r.winner);
    expect(winner).toMatchObject({ compiler: 'gcc', best_value: 0, vs_winner: 0 });
    expect(rows.find((r) => r.cell_id === '7.2.6|gcc|-Os')).toMatchObject({ vs_winner: 0, vs_winner_verdict: 'tie' });
    const clang = rows.find((r) => r.cell_id === '7.2.6|clang|-O2');
    expect(clang?.best_value).toBeGreaterThan(0);
    expect(clang).toMatchObject({ vs_winner: null, vs_winner_verdict: null });
    const colorOf = () => '#000';
    expect(configBar(clang ?? rows[0]!, colorOf, 'tie', LL).tooltip).toContain('Redis 7.2.6, costlier than the cheapest, which counts none');
  });

  it('is left out of geometric means against a count above zero, never a logarithm of zero', async () => {
    const items = await fx.runner.run(summaryItemsQuery(GCC_O2, '7.2.6', LL));
    const inline = items.filter((r) => r.mode === 'data' && r.test === 'PING_INLINE');
    expect(inline.map((r) => r.compiler)).toEqual(['gcc', 'gcc', 'gcc', 'gcc', 'gcc', 'gcc']);
    expect(inline.every((r) => r.ratio === 1 && r.verdict === 'tie')).toBe(true);
    const scores = await fx.runner.run(summaryQuery(GCC_O2, LL));
    const clang = scores.find((r) => r.mode === 'data' && r.version === '7.2.6' && r.compiler === 'clang' && r.flag_set === '-O2');
    const gcc = scores.find((r) => r.mode === 'data' && r.version === '7.2.6' && r.compiler === 'gcc' && r.flag_set === '-Os');
    expect((gcc?.tests ?? 0) - (clang?.tests ?? 0)).toBe(1);
    const effects = await fx.runner.run(effectsQuery(LL));
    const compiler = effects.find((e) => e.factor === 'compiler' && e.mode === 'data' && e.version === '7.2.6');
    const level = effects.find((e) => e.factor === 'level' && e.level === '-Os' && e.mode === 'data' && e.version === '7.2.6');
    // Per configuration pair, the compiler factor has one test fewer (PING_INLINE) than the level factor.
    expect((level?.pairs ?? 0) / 4 - (compiler?.pairs ?? 0) / 6).toBe(1);
    expect(compiler?.ratio).toBeCloseTo(0.98, 2);
  });

  it('leaves a compared test without a ratio, and a change between releases listed as such', async () => {
    const rows = await fx.runner.run(compareQuery({ version: '7.2.6', config: GCC_O2 }, { version: '7.2.6', config: CLANG_O2 }, LL));
    const inline = rows.find((r) => r.mode === 'data' && r.test === 'PING_INLINE');
    expect(inline).toMatchObject({ a_best: 0, ratio: null, verdict: null });
    expect(inline?.b_best).toBeGreaterThan(0);
    const mean = rows.find((r) => r.mode === 'data' && r.test === null);
    expect(mean?.tests).toBe(rows.filter((r) => r.mode === 'data' && r.test !== null && r.ratio !== null).length);

    // 7.4.1 gcc -O2 counting no last-level misses on SET in data mode, where 7.2.6 counted some.
    const zeroed = await openFixtureDb(undefined, {
      counts: await rewrittenFixture('counts', `SELECT * REPLACE (CASE WHEN cell_id = '7.4.1|gcc|-O2' AND mode = 'data' AND test = 'SET' THEN 0 ELSE ll_misses_per_request END AS ll_misses_per_request) FROM fixture`),
    });
    const changes = await zeroed.runner.run(releaseChangesQuery([['7.2.6', '7.4.1']], LL));
    const set = changes.find((r) => r.mode === 'data' && r.test === 'SET');
    expect(set).toMatchObject({ no_ratio: 1, not_collected: 0 });
    expect((set?.compared ?? 0) + (set?.no_ratio ?? 0) + (set?.build_failed ?? 0)).toBe(set?.configs);
    expect(pairNote([set!])).toContain('1 without a ratio (a count of zero on one side only)');
    expect(pairNote([set!])).toMatch(/counts missing for 2 of 12 comparisons \(build failed 2\)/);
  });

  it('gets an axis from zero, and small figures keep their digits', () => {
    expect(axisDomain([0, 0], 'max')).toEqual([0, 1]);
    expect(axisDomain([0], 'real')).toEqual([0, 1]);
    expect(formatFigure(0.0023317, 'LL misses/req')).toBe('0.00233');
    expect(formatFigure(0, 'LL misses/req')).toBe('0.00');
    expect(formatFigure(1.0303, 'L1 misses/req')).toBe('1.03');
    expect(formatFigure(2026.2, 'L1 misses/req')).toBe('2,026');
    expect(tickSpecifier(0.005)).toBe(',~r');
    expect(tickSpecifier(120_000)).toBe('~s');
  });
});

describe('every metric', () => {
  it('has a table with a view or table behind it', async () => {
    for (const id of METRIC_IDS) {
      const m = metricOf(id);
      const [row] = await fx.runner.run(query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${m.table}`));
      expect(row?.n, id).toBeGreaterThan(0);
    }
  });
});
