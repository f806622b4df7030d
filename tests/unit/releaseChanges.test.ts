/**
 * The changes between consecutive releases in the counted metrics: the query on the fixture (its
 * planted changes are listed in tests/fixtures/make-fixtures.mjs), and their shaping into entries
 * on hand-made rows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  betweenText, bySize, CHANGE_LEASTS, changeEntries, type ChangeLeast, compareUrl, DEFAULT_LEAST, hasReach, hasSize, LIST_CAP, pairChanges, pairLimit, pairNote,
  pairSummary, releasePairs, releaseSpans,
} from '../../src/model/releaseChanges';
import { releaseChangesQuery, type ReleaseChangeRow } from '../../src/sql/releaseChanges';
import { METRICS, RPS } from '../../src/vocabulary';
import { openFixtureDb } from '../support/fixture-db';

describe('releaseChangesQuery on the fixture', () => {
  let rows: ReleaseChangeRow[];
  const row = (from: string, mode: string, test: string) => rows.find((r) => r.from_version === from && r.mode === mode && r.test === test);

  beforeAll(async () => {
    const fx = await openFixtureDb();
    rows = await fx.runner.run(releaseChangesQuery(releasePairs(fx.versions), METRICS.ir));
  });

  it('finds every release 3% costlier than the one before in every configuration', () => {
    const r = row('7.2.6', 'data', 'INCR');
    expect(r).toMatchObject({ to_version: '7.4.1', configs: 12, compared: 10, costlier: 10, cheaper: 0, within: 0, build_failed: 2 });
    expect(r?.costlier_ratio).toBeCloseTo(1.18 / 1.15, 3);
  });

  it('calls 2.6.17 to 2.8.24 no change within noise', () => {
    const pair = rows.filter((r) => r.from_version === '2.6.17');
    expect(pair.every((r) => r.cheaper === 0 && r.costlier === 0)).toBe(true);
    expect(pair.reduce((n, r) => n + r.within, 0)).toBeGreaterThan(0);
  });

  it('names the gcc configurations alone when SET got costlier on gcc only', () => {
    const r = row('2.8.24', 'data', 'SET');
    expect(r).toMatchObject({ to_version: '3.0.7', configs: 12, compared: 12, costlier: 6, cheaper: 0, within: 6 });
    expect(r?.costlier_configs).toBe('gcc -O2, gcc -Os, gcc -Ofast, gcc -O2 -flto, gcc -Os -flto, gcc -Ofast -flto');
  });

  it('counts a version not collected as missing, never as a change', () => {
    const pair = rows.filter((r) => r.to_version === '5.0.14');
    expect(pair.length).toBeGreaterThan(0);
    expect(pair.every((r) => r.compared === 0 && r.cheaper + r.costlier === 0 && r.not_collected === r.configs)).toBe(true);
  });

  it('counts an unsupported test as missing', () => {
    expect(row('3.0.7', 'data', 'XADD')).toMatchObject({ compared: 0, not_collected: 12 });
    expect(row('6.2.16', 'data', 'XADD')?.compared).toBe(10);
  });

  it('reads estimated cycles from their own table', async () => {
    const fx = await openFixtureDb();
    const cycles = await fx.runner.run(releaseChangesQuery([['7.2.6', '7.4.1']], METRICS.cycles));
    expect(cycles.find((r) => r.mode === 'data' && r.test === 'INCR')?.costlier).toBe(10);
  });

  it('returns no rows for no pairs', async () => {
    const fx = await openFixtureDb();
    expect(await fx.runner.run(releaseChangesQuery([], METRICS.ir))).toEqual([]);
  });
});

const base: ReleaseChangeRow = {
  pair_index: 0, from_version: '7.0.11', to_version: '7.0.12', mode: 'data', test: 'SET', test_index: 2,
  configs: 12, compared: 12, cheaper: 0, costlier: 0, within: 12, unknown: 0,
  cheaper_configs: null, costlier_configs: null, cheaper_ratio: null, costlier_ratio: null,
  cheaper_min: null, cheaper_max: null, costlier_min: null, costlier_max: null, band: null,
  not_collected: 0, build_failed: 0, unsupported: 0, failed: 0, no_ratio: 0,
};
const all12 = { ...base, costlier: 12, within: 0, costlier_configs: 'gcc -O2, ...', costlier_ratio: 1.031, costlier_min: 1.0308, costlier_max: 1.0314, band: 0.001 };

describe('shaping the changes', () => {
  it('releasePairs pairs each release with the next', () => {
    expect(releasePairs(['a', 'b', 'c'])).toEqual([['a', 'b'], ['b', 'c']]);
    expect(releasePairs(['a'])).toEqual([]);
  });

  it('releaseSpans skips the releases without figures: each pair spans those between its two', () => {
    const shown = ['2.6.0', '2.6.1', '2.6.2', '2.6.17', '2.8.0', '2.8.1', '2.8.24', '3.0.0'];
    expect(releaseSpans(shown, ['2.6.0', '2.6.17', '2.8.0', '2.8.24', '3.0.7'])).toEqual({
      spans: [
        { from: '2.6.0', to: '2.6.17', between: ['2.6.1', '2.6.2'] },
        { from: '2.6.17', to: '2.8.0', between: [] },
        { from: '2.8.0', to: '2.8.24', between: ['2.8.1'] },
      ],
      // 3.0.0, after the last release with figures, is in no pair.
      unmeasured: ['2.6.1', '2.6.2', '2.8.1', '3.0.0'],
    });
    // Every release with figures: the consecutive pairs.
    expect(releaseSpans(['a', 'b', 'c'], ['a', 'b', 'c']).spans.map((s) => [s.from, s.to])).toEqual(releasePairs(['a', 'b', 'c']));
    expect(releaseSpans(['a', 'b'], ['b'])).toEqual({ spans: [], unmeasured: ['a'] });
  });

  it('betweenText names one release, or counts several with the first and the last', () => {
    expect(betweenText([], 'without counts')).toBe('');
    expect(betweenText(['5.0.14'], 'without counts')).toBe('5.0.14 between them without counts');
    expect(betweenText(['2.6.1', '2.6.2', '2.6.16'], 'without counts')).toBe('3 releases between them without counts (2.6.1 to 2.6.16)');
  });

  it('compareUrl links the GitHub comparison of the two tags', () => {
    expect(compareUrl('7.0.11', '7.0.12')).toBe('https://github.com/redis/redis/compare/7.0.11...7.0.12');
  });

  it('an entry in every configuration says "in all 12 configurations"', () => {
    const [e] = changeEntries([all12], METRICS.ir);
    expect(e?.text).toBe('SET (data mode) +3.1% instructions per request, costlier in all 12 configurations');
  });

  it('an entry in some configurations names them, with the range of their changes', () => {
    const some = { ...base, cheaper: 2, within: 8, compared: 10, not_collected: 2, cheaper_configs: 'gcc -O2, clang -Os', cheaper_ratio: 0.95, cheaper_min: 0.94, cheaper_max: 0.96 };
    expect(changeEntries([some], METRICS.cycles)[0]?.text).toBe(
      'SET (data mode) −5.0% (−6.0% to −4.0%) estimated cycles per request, cheaper in 2 of 10 configurations counted on both: gcc -O2, clang -Os (2 of 12 without counts on both)');
  });

  it('a row within noise gives no entry, and its pair says "no change within noise"', () => {
    expect(changeEntries([base], METRICS.ir)).toEqual([]);
    expect(pairNote([base, { ...base, mode: 'pipe' }])).toBe('no change within noise in 24 comparisons');
  });

  it('missing counts and single repeats are told apart from changes', () => {
    const note = pairNote([{ ...base, compared: 0, within: 0, not_collected: 10, build_failed: 2 }, { ...base, mode: 'pipe', within: 9, unknown: 3 }]);
    expect(note).toBe('0 comparisons changed beyond noise; 9 within noise; 3 without a noise estimate (a single repeat on a side); counts missing for 12 of 24 comparisons (not collected 10, build failed 2)');
  });

  it('bySize puts the largest change first, either direction', () => {
    const small = changeEntries([{ ...all12, test: 'GET' }], METRICS.ir);
    const large = changeEntries([{ ...base, pair_index: 1, cheaper: 1, within: 11, cheaper_configs: 'gcc -Os', cheaper_ratio: 0.9, cheaper_min: 0.9, cheaper_max: 0.9 }], METRICS.ir);
    expect(bySize([...small, ...large]).map((e) => e.test)).toEqual(['SET', 'GET']);
  });

  it('hasReach tells a change in every configuration compared from one in some only', () => {
    const every = { count: 10, compared: 10 };
    const some = { count: 2, compared: 10 };
    expect([hasReach(every, 'any'), hasReach(every, 'every'), hasReach(every, 'some')]).toEqual([true, true, false]);
    expect([hasReach(some, 'any'), hasReach(some, 'every'), hasReach(some, 'some')]).toEqual([true, false, true]);
  });

  it('hasSize keeps the changes of at least the size picked, either way', () => {
    const sizes = [1.00004, 0.999, 1.0099, 0.99, 1.05, 0.94].map((ratio) => ({ ratio }));
    const kept = (least: ChangeLeast) => sizes.filter((e) => hasSize(e, least)).map((e) => e.ratio);
    expect(kept('0')).toEqual([1.00004, 0.999, 1.0099, 0.99, 1.05, 0.94]);
    expect(kept('0.1')).toEqual([0.999, 1.0099, 0.99, 1.05, 0.94]);
    expect(kept('0.5')).toEqual([0.999, 1.0099, 0.99, 1.05, 0.94].filter((r) => Math.abs(r - 1) >= 0.005));
    expect(kept('1')).toEqual([0.99, 1.05, 0.94]);
    expect(kept('2')).toEqual([1.05, 0.94]);
    expect(kept('5')).toEqual([1.05, 0.94]);
    // The default is 1%, as LNT's threshold; the sizes offered are rustc-perf's bands and 0.1%.
    expect(DEFAULT_LEAST).toBe('1');
    expect(CHANGE_LEASTS).toEqual(['0', '0.1', '0.5', '1', '2', '5']);
  });

  it('pairSummary counts a pair\'s changes each way and names the largest, in the metric\'s words', () => {
    const entries = changeEntries([
      all12,
      { ...base, test: 'GET', cheaper: 2, within: 10, cheaper_configs: 'gcc -O2, clang -Os', cheaper_ratio: 0.95, cheaper_min: 0.94, cheaper_max: 0.96 },
      { ...base, test: 'INCR', cheaper: 12, within: 0, cheaper_configs: 'gcc -O2, ...', cheaper_ratio: 0.99, cheaper_min: 0.99, cheaper_max: 0.99 },
    ], METRICS.ir);
    expect(pairSummary(entries, METRICS.ir)).toBe('3 changes: 1 ▲ costlier, 2 ▼ cheaper; largest GET (data mode) −5.0%');
    expect(pairSummary(entries.slice(0, 1), METRICS.ir)).toBe('1 change: 1 ▲ costlier; largest SET (data mode) +3.1%');
    // Requests/second (the precision modes): "cheaper" is the better direction, faster, and up.
    expect(pairSummary(changeEntries([{ ...all12, cheaper: 12, costlier: 0, cheaper_ratio: 1.04, cheaper_min: 1.03, cheaper_max: 1.05 }], RPS), RPS))
      .toBe('1 change: 1 ▲ faster; largest SET (data mode) +4.0%');
    expect(pairSummary([], METRICS.ir)).toBe('no change listed');
  });

  it('pairLimit lists every entry when they fit, else as many of each pair\'s largest as keep the list within the cap', () => {
    expect(LIST_CAP).toBe(300);
    expect(pairLimit([40, 3, 0, 12])).toBe(Infinity);
    expect(pairLimit([50, 50, 50, 50, 50, 50, 50])).toBe(42);
    // 157 pairs of 40 changes (every release, each 3% costlier): one per pair, since two would be 314.
    expect(pairLimit(Array.from({ length: 157 }, () => 40))).toBe(1);
    // More pairs than the cap: still one each.
    expect(pairLimit(Array.from({ length: 400 }, () => 2))).toBe(1);
    expect(pairLimit([10, 1, 1, 1], 8)).toBe(5);
    expect(pairLimit([])).toBe(Infinity);
  });

  it('pairChanges groups rows by pair in release order, each pair\'s entries the largest first', () => {
    const pairs = pairChanges([{ ...all12, pair_index: 1, from_version: '7.0.12', to_version: '7.0.13' }, base], METRICS.ir);
    expect(pairs.map((p) => [p.from, p.to, p.entries.length])).toEqual([['7.0.11', '7.0.12', 0], ['7.0.12', '7.0.13', 1]]);
    const [pair] = pairChanges([
      { ...all12, test: 'PING_INLINE', test_index: 0, costlier_ratio: 1.01, costlier_min: 1.01, costlier_max: 1.01 },
      { ...all12, test: 'SET', test_index: 2, costlier_ratio: 1.2, costlier_min: 1.2, costlier_max: 1.2 },
      { ...all12, test: 'GET', test_index: 3, costlier: 0, cheaper: 12, cheaper_configs: all12.costlier_configs, cheaper_ratio: 0.9, cheaper_min: 0.9, cheaper_max: 0.9 },
    ], METRICS.ir);
    expect(pair?.entries.map((e) => e.test)).toEqual(['SET', 'GET', 'PING_INLINE']);
  });
});
