/**
 * The build-factor section's content (src/model/factors.ts), made from hand-made effect rows:
 * names, headlines and the per-version tables, in requests/second and in a counted cost.
 */
import { describe, expect, it } from 'vitest';
import { effectModes, effectName, factorHeadlines, factorsStatus, factorTable } from '../../src/model/factors';
import type { EffectRow } from '../../src/sql/effects';
import { METRICS, RPS } from '../../src/vocabulary';

function effect(fields: Partial<EffectRow>): EffectRow {
  return {
    factor: 'lto', level: 'on', base: 'off', level_order: 0, mode: 'data', version: null, ratio: 1.04, band: 0.01, verdict: 'faster', pairs: 30,
    faster: 25, slower: 1, tie: 4, unknown: 0, ...fields,
  };
}

const rows = [
  effect({ factor: 'compiler', level: 'clang', base: 'gcc', ratio: 1.02, verdict: 'tie' }),
  effect({ factor: 'compiler', level: 'clang', base: 'gcc', version: '7.4.1', ratio: 1.03 }),
  effect({ factor: 'level', level: '-Os', base: '-O2', ratio: 0.9, verdict: 'slower' }),
  effect({ version: '7.2.6', ratio: 1.05 }),
  effect({}),
  effect({ mode: 'pipe', ratio: 1.1 }),
];

describe('the build factors', () => {
  it('name each effect by what it sets against what', () => {
    expect(effectName({ factor: 'compiler', level: 'clang', base: 'gcc' })).toBe('clang vs gcc');
    expect(effectName({ factor: 'level', level: '-Os', base: '-O2' })).toBe('-Os vs -O2');
    expect(effectName({ factor: 'lto', level: 'on', base: 'off' })).toBe('LTO (-flto) on vs off');
  });

  it('head each mode with every factor over all versions, naming a counted metric', () => {
    expect(effectModes(rows)).toEqual(['data', 'pipe']);
    expect(factorHeadlines(rows, RPS)).toEqual([
      { mode: 'data', lead: 'data mode, all versions: ', text: 'clang vs gcc ≈ +2.0% · -Os vs -O2 ▼ −10.0% · LTO (-flto) on vs off ▲ +4.0%' },
      { mode: 'pipe', lead: 'pipe mode, all versions: ', text: 'LTO (-flto) on vs off ▲ +10.0%' },
    ]);
    // A cheaper cost goes down, and is the better way.
    expect(factorHeadlines([effect({ ratio: 0.95 })], METRICS.ir)).toEqual([
      { mode: 'data', lead: 'data mode, all versions, instructions per request: ', text: 'LTO (-flto) on vs off ▼ −5.0%' },
    ]);
  });

  it('tabulate a mode\'s effects per version measured, with a column for all versions', () => {
    const table = factorTable('data', rows, ['7.0.15', '7.2.6', '7.4.1'], RPS);
    expect(table.caption).toBe('data mode: effect of each factor on requests/second (higher is better), per version');
    expect(table.columns.map((c) => c.key)).toEqual(['7.2.6', '7.4.1', '']);
    expect(table.rows.map((r) => [r.label, ...r.cells.map((c) => c.ratio)])).toEqual([
      ['clang vs gcc', null, 1.03, 1.02],
      ['-Os vs -O2', null, null, 0.9],
      ['LTO (-flto) on vs off', 1.05, null, 1.04],
    ]);
    expect(table.rows[2]?.cells[2]?.title).toBe(
      'LTO (-flto) on vs off, all versions, data mode: +4.0%, faster beyond the ±1.0% noise band; 30 pairs (same compiler, same level): 25 faster and 1 slower beyond noise, 4 within noise');
    expect(table.rows[1]?.cells[0]?.title).toBe('-Os vs -O2, Redis 7.2.6, data mode: no pair of builds measured');
  });

  it('have columns for the versions shown only, with "all" over every version measured', () => {
    const table = factorTable('data', rows, ['7.0.15', '7.2.6', '7.4.1'], RPS, ['7.4.1']);
    expect(table.columns).toEqual([{ key: '7.4.1', label: '7.4.1' }, { key: '', label: 'all 2' }]);
    expect(table.caption).toBe('data mode: effect of each factor on requests/second (higher is better), per version; the 1 shown of the 2 versions compared, and "all 2" over every one');
    expect(table.rows.map((r) => r.cells.map((c) => c.ratio))).toEqual([[1.03, 1.02], [null, 0.9], [null, 1.04]]);
  });

  it('say why there is nothing to show, and nothing when there is', () => {
    expect(factorsStatus([])).toBe('Nothing to compare yet: no two builds that differ in one factor were both measured.');
    expect(factorsStatus(['data'])).toBe('');
  });
});
