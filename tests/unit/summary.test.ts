/**
 * The summary section's content (src/model/summary.ts), made from hand-made query rows: strips,
 * tables, headlines and the instruments' lines, in requests/second and in a counted cost.
 */
import { describe, expect, it } from 'vitest';
import {
  ALL_VERSIONS, instrumentLines, scopeText, stripRow, summaryHeadlines, summaryModes, summaryStatus, summaryStrip, summaryTable, versionColumns,
} from '../../src/model/summary';
import type { SpreadRow, WinnerTallyRow } from '../../src/sql/counted';
import type { SummaryItemRow, SummaryRow } from '../../src/sql/summary';
import { METRICS, RPS } from '../../src/vocabulary';

const GCC_O2 = { compiler: 'gcc', flag_set: '-O2' };
const CLANG_O2 = { compiler: 'clang', flag_set: '-O2' };
const CLANG_LTO = { compiler: 'clang', flag_set: '-O2 -flto' };
const CONFIGS = [GCC_O2, CLANG_O2, CLANG_LTO];

/** A score against gcc -O2 (the baseline); unset fields are a clear +10% over 10 tests. */
function score(config: { compiler: string; flag_set: string }, mode: string, version: string | null, fields: Partial<SummaryRow> = {}): SummaryRow {
  return {
    ...config, compiler_index: 0, flag_index: 0, mode, version,
    ratio: 1.1, band: 0.02, verdict: 'faster', tests: 10, worst_test: 'GET', worst_ratio: 1.01, best_test: 'SET', best_ratio: 1.2,
    faster: 9, slower: 0, tie: 1, unknown: 0, ...fields,
  };
}

function item(config: { compiler: string; flag_set: string }, mode: string, test: string, fields: Partial<SummaryItemRow> = {}): SummaryItemRow {
  return { ...config, mode, test, test_index: 0, ratio: 1.05, band: 0.01, verdict: 'faster', versions: 1, ...fields };
}

const BASE = score(GCC_O2, 'data', null, { ratio: 1, band: 0.01, verdict: 'tie', faster: 0, tie: 10 });

describe('stripRow', () => {
  it('names the baseline row "(baseline)" and marks it the reference', () => {
    const row = stripRow(GCC_O2, GCC_O2, BASE, [], true, RPS);
    expect(row.label).toBe('gcc -O2 (baseline)');
    expect(row.reference).toBe(true);
    expect(stripRow(CLANG_O2, GCC_O2, score(CLANG_O2, 'data', null), [], true, RPS).reference).toBe(false);
  });

  it('carries the score, its counts and its extremes into the mean, the note and the accessible name', () => {
    const row = stripRow(CLANG_O2, GCC_O2, score(CLANG_O2, 'data', null), [], true, RPS);
    expect([row.mean, row.band, row.verdict, row.glyph]).toEqual([1.1, 0.02, 'faster', '▲']);
    expect(row.note).toBe('▲9 ≈1 ▼0');
    expect(row.ariaLabel).toBe('clang -O2: geometric mean +10.0%, faster beyond the ±2.0% noise band, against gcc -O2 over 10 tests; '
      + 'tests: 9 faster and 0 slower beyond noise, 1 within noise; largest gain SET +20.0%, largest loss GET +1.0%.');
  });

  it('marks a cheaper cost ▼ and words it as a cost', () => {
    const row = stripRow(CLANG_O2, GCC_O2, score(CLANG_O2, 'data', null, { ratio: 0.9 }), [], true, METRICS.ir);
    expect(row.glyph).toBe('▼');
    expect(row.note).toBe('▼9 ≈1 ▲0');
    expect(row.tooltip[1]).toContain('cheaper beyond');
  });

  it('without a score has no mean and says why', () => {
    const row = stripRow(CLANG_LTO, GCC_O2, undefined, [item(CLANG_LTO, 'data', 'GET')], false, RPS);
    expect([row.mean, row.band, row.verdict, row.note]).toEqual([null, null, null, '']);
    expect(row.tooltip).toEqual(['clang -O2 -flto: nothing to compare (not measured where gcc -O2 was)']);
    expect(row.points).toHaveLength(1);
  });

  it('says over how many versions a point is a mean only when it covers all versions', () => {
    const points = [item(CLANG_O2, 'data', 'GET', { versions: 3 }), item(CLANG_O2, 'data', 'SET', { versions: 1 })];
    const all = stripRow(CLANG_O2, GCC_O2, score(CLANG_O2, 'data', null), points, true, RPS).points;
    expect(all.map((p) => p.tooltip[1])).toEqual([
      '+5.0% requests/second against gcc -O2 (geometric mean over 3 versions)',
      '+5.0% requests/second against gcc -O2 (geometric mean over 1 version)',
    ]);
    const one = stripRow(CLANG_O2, GCC_O2, score(CLANG_O2, 'data', '7.4.1'), points, false, RPS).points;
    expect(one[0]?.tooltip[1]).toBe('+5.0% requests/second against gcc -O2');
  });
});

describe('summaryStrip', () => {
  const scores = [
    BASE,
    score(CLANG_O2, 'data', null, { ratio: 1.2 }),
    score(CLANG_O2, 'data', '7.4.1', { ratio: 1.3 }),
    score(CLANG_O2, 'pipe', null, { ratio: 1.4 }),
  ];
  const items = [item(CLANG_O2, 'data', 'GET'), item(CLANG_O2, 'pipe', 'GET'), item(GCC_O2, 'data', 'GET')];

  it('gives a row per configuration in plan order, with the score of its mode and scope only', () => {
    const all = summaryStrip('data', CONFIGS, GCC_O2, scores, items, null, RPS);
    expect(all.rows.map((r) => [r.key, r.mean, r.points.length])).toEqual([['gcc|-O2', 1, 1], ['clang|-O2', 1.2, 1], ['clang|-O2 -flto', null, 0]]);
    expect(summaryStrip('data', CONFIGS, GCC_O2, scores, items, '7.4.1', RPS).rows[1]?.mean).toBe(1.3);
  });

  it('names the mode, scope, metric and baseline in its label and caption', () => {
    const all = summaryStrip('data', CONFIGS, GCC_O2, scores, items, null, RPS);
    expect(all.label).toBe('data mode, all versions: change in requests/second (higher is better) of each configuration against gcc -O2, one dot per test');
    expect(all.caption).toBe('data mode · all versions · against gcc -O2');
    expect(summaryStrip('pipe', CONFIGS, GCC_O2, scores, items, '7.4.1', METRICS.cycles).caption)
      .toBe('pipe mode · estimated cycles per request · Redis 7.4.1 · against gcc -O2');
  });
});

describe('summaryTable', () => {
  const scores = [
    score(CLANG_O2, 'data', '7.4.1', { ratio: 0.95, verdict: 'faster' }), score(CLANG_O2, 'data', null, { ratio: 0.97, verdict: 'tie' }),
    score(CLANG_LTO, 'data', '7.2.6', { ratio: 1.01, verdict: 'tie' }), score(CLANG_O2, 'pipe', '7.0.15', { ratio: 1.01, verdict: 'tie' }),
  ];
  const table = summaryTable('data', ['7.0.15', '7.2.6', '7.4.1'], [GCC_O2, CLANG_O2], GCC_O2, scores, METRICS.ir);

  it('has a column per version compared in the mode and one for all versions', () => {
    // 7.0.15 was compared in pipe mode only: under requests/second most releases have no figure,
    // and the table would be mostly empty columns.
    expect(table.columns).toEqual([{ key: '7.2.6', label: '7.2.6' }, { key: '7.4.1', label: '7.4.1' }, { key: ALL_VERSIONS, label: 'all' }]);
    expect(table.caption).toBe('data mode: geometric mean of instructions per request (lower is better) against gcc -O2, per version (click a cell for its per-test changes)');
  });

  it('fills a cell from the score of its version, with the metric\'s glyph, and leaves the rest empty with a reason', () => {
    const clang = table.rows[1]!;
    expect(clang.key).toBe('clang|-O2');
    expect(clang.cells.map((c) => [c.ratio, c.verdict, c.glyph])).toEqual([[null, null, undefined], [0.95, 'faster', '▼'], [0.97, 'tie', '≈']]);
    expect(clang.cells[0]?.title).toBe('clang -O2, Redis 7.2.6, data mode: not compared (one of the two builds was not measured)');
    expect(clang.cells[2]?.title).toMatch(/^clang -O2, all versions, data mode: −3\.0%, within the ±2\.0% noise band \(a tie\) against gcc -O2; 10 tests: /);
    expect(table.rows[0]?.cells.every((c) => c.ratio === null)).toBe(true);
  });

  it('has columns for the versions shown only, and names how many versions "all" covers', () => {
    // Under a counted metric every release is compared; the release set shows the current ones.
    const shown = summaryTable('data', ['7.0.15', '7.2.6', '7.4.1'], [GCC_O2, CLANG_O2], GCC_O2, scores, METRICS.ir, ['7.0.15', '7.4.1']);
    expect(shown.columns).toEqual([{ key: '7.4.1', label: '7.4.1' }, { key: ALL_VERSIONS, label: 'all 2' }]);
    expect(shown.caption).toBe(
      'data mode: geometric mean of instructions per request (lower is better) against gcc -O2, per version; the 1 shown of the 2 versions compared, and "all 2" over every one (click a cell for its per-test changes)');
    expect(shown.rows[1]?.cells.map((c) => c.ratio)).toEqual([0.95, 0.97]);
  });
});

describe('versionColumns', () => {
  it('keeps the versions compared that are shown, in release order, and "all" last', () => {
    expect(versionColumns(['2.6.17', '7.2.6', '7.4.1'], ['7.4.1', '7.2.6', '5.0.14'])).toEqual({
      versions: ['7.2.6', '7.4.1'],
      columns: [{ key: '7.2.6', label: '7.2.6' }, { key: '7.4.1', label: '7.4.1' }, { key: ALL_VERSIONS, label: 'all 3' }],
      note: '; the 2 shown of the 3 versions compared, and "all 3" over every one',
    });
    expect(versionColumns(['7.2.6'], ['7.2.6', '7.4.1'])).toEqual({ versions: ['7.2.6'], columns: [{ key: '7.2.6', label: '7.2.6' }, { key: ALL_VERSIONS, label: 'all' }], note: '' });
  });
});

describe('the summary\'s words', () => {
  it('name the scope', () => {
    expect(scopeText(null)).toBe('all versions');
    expect(scopeText('7.4.1')).toBe('Redis 7.4.1');
  });

  it('list the modes once each, in the order of the rows', () => {
    expect(summaryModes([score(GCC_O2, 'pipe', null), score(GCC_O2, 'data', null), score(CLANG_O2, 'pipe', null)])).toEqual(['pipe', 'data']);
  });

  it('say why there is nothing to show, and nothing when there is', () => {
    expect(summaryStatus([], GCC_O2, METRICS.ir)).toBe('Nothing to compare yet in instructions per request: gcc -O2 has no counted test (not collected yet).');
    expect(summaryStatus([], GCC_O2, RPS)).toBe('Nothing to compare yet in requests/second: gcc -O2 has no measured test.');
    expect(summaryStatus(['data'], GCC_O2, RPS)).toBe('');
  });

  it('head each mode with its best configuration over all versions', () => {
    const headlines = summaryHeadlines([BASE, score(CLANG_O2, 'data', null, { ratio: 1.2 }), score(CLANG_O2, 'data', '7.4.1', { ratio: 1.5 })], GCC_O2, RPS);
    expect(headlines).toHaveLength(1);
    expect(headlines[0]?.mode).toBe('data');
    expect(headlines[0]?.text).toMatch(/^data mode: the fastest build is clang -O2, \+20\.0% requests\/second against gcc -O2/);
  });
});

describe('instrumentLines', () => {
  const tally: WinnerTallyRow[] = [{ metric: 'rps', mode: 'pipe', contests: 4, clear: 1, ties: 3, unknown: 0 }];
  const spreads: SpreadRow[] = [{ metric: 'rps', mode: 'data', figures: 8, median: 0.012, p99: 0.03, max: 0.031 }];
  const rpsScores = [score(GCC_O2, 'data', null, { ratio: 1 }), score(CLANG_O2, 'data', null, { ratio: 1.1 }), score(CLANG_LTO, 'data', null, { ratio: 1.2 })];
  const irScores = [score(GCC_O2, 'data', null, { ratio: 1 }), score(CLANG_O2, 'data', null, { ratio: 0.9 }), score(CLANG_LTO, 'data', null, { ratio: 0.8 })];

  it('gives four lines per mode, for the modes of the tally and of the throughput scores', () => {
    const lines = instrumentLines(GCC_O2, RPS, tally, spreads, [rpsScores, irScores, []]);
    expect(lines.map((l) => `${l.mode}:${l.line}`)).toEqual([
      'pipe:best', 'pipe:winners', 'pipe:spread', 'pipe:correlation', 'data:best', 'data:winners', 'data:spread', 'data:correlation',
    ]);
    const data = (line: string) => lines.find((l) => l.mode === 'data' && l.line === line)?.text;
    expect(data('best')).toContain('requests/second clang -O2 -flto +20.0%');
    expect(data('best')).toContain('instructions per request clang -O2 -flto −20.0%');
    expect(data('best')).toContain('estimated cycles per request: not collected yet');
    expect(data('spread')).toContain('requests/second median 1.2%');
  });

  it('correlates instructions with throughput under requests/second, and the cost shown under a counted metric', () => {
    const underRps = instrumentLines(GCC_O2, RPS, [], [], [rpsScores, irScores, []]).find((l) => l.line === 'correlation');
    expect(underRps?.text).toMatch(/instructions per request and requests\/second .*: -1\.00 over 3 configurations/);
    const underCycles = instrumentLines(GCC_O2, METRICS.cycles, [], [], [rpsScores, [], irScores]).find((l) => l.line === 'correlation');
    expect(underCycles?.text).toMatch(/estimated cycles per request and requests\/second .*: -1\.00 over 3 configurations/);
  });
});
