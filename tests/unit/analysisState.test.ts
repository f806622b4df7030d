import { describe, expect, it } from 'vitest';
import { compareCandidates, parseCellId, parseConfigKey, parseSideKey, sideKey } from '../../src/model/analysisState';
import { DEFAULTS, decodeState, encodeState, reconcileState } from '../../src/model/state';

const catalog = {
  versions: ['2.6.17', '7.2.6', '7.4.1'],
  charts: new Set(['data:SET']),
  modes: ['data'],
  precisionModes: [],
  configs: new Set(['gcc|-O2', 'clang|-O2 -flto']),
  hardware: [],
  defaultHardware: null,
  hasExtended: false,
};

describe('analysis parameters in the URL', () => {
  it('round-trip every field, written after the chart parameters in a fixed order', () => {
    const state = { ...DEFAULTS, view: 'max' as const, base: 'clang|-O2 -flto', scope: '7.4.1', trend: 'pipe:GET', a: '7.2.6', b: '7.4.1|gcc|-O2', cell: '7.4.1|clang|-O2 -flto', section: 'status' as const };
    const url = encodeState(state);
    expect(url).toBe('?view=max&base=clang%7C-O2+-flto&scope=7.4.1&trend=pipe%3AGET&a=7.2.6&b=7.4.1%7Cgcc%7C-O2&cell=7.4.1%7Cclang%7C-O2+-flto&section=status');
    expect(decodeState(url)).toEqual({ state, problems: [] });
  });

  it('are absent at their defaults', () => {
    expect(encodeState(DEFAULTS)).toBe('');
    expect(decodeState('').state).toEqual(DEFAULTS);
  });

  it('fall back to the default when malformed, one problem each', () => {
    const { state, problems } = decodeState('?base=gcc&trend=SET&a=|gcc|-O2&b=7.4.1|gcc&cell=7.4.1&section=charts');
    expect(state).toEqual(DEFAULTS);
    expect(problems).toHaveLength(6);
    expect(problems.join(' ')).toMatch(/trend chart "SET"/);
    expect(problems.join(' ')).toMatch(/baseline configuration "gcc"/);
    expect(problems.join(' ')).toMatch(/section "charts"/);
  });

  it('are dropped when the data does not hold them, with a notice each', () => {
    const stale = { ...DEFAULTS, base: 'icc|-O3', scope: '9.9.9', trend: 'data:NOPE', a: '1.0.0', b: '7.4.1|icc|-O3', cell: '7.4.1|gcc|-O9' };
    const { state, problems } = reconcileState(stale, catalog);
    expect(state).toEqual(DEFAULTS);
    expect(problems).toHaveLength(6);
    expect(problems).toContain('The chart data:NOPE is not in the data; the trends show the first chart.');
    expect(problems[0]).toBe('The configuration icc -O3 is not in the data; the baseline is the default.');
  });

  it('are kept when the data holds them', () => {
    const fine = { ...DEFAULTS, base: 'gcc|-O2', scope: '2.6.17', trend: 'data:SET', a: '7.2.6', b: '7.4.1|clang|-O2 -flto', cell: '2.6.17|gcc|-O2' };
    expect(reconcileState(fine, catalog)).toEqual({ state: fine, problems: [] });
  });
});

describe('keys of configurations, sides and cells', () => {
  it('split at the bars, keeping spaces in flag sets', () => {
    expect(parseConfigKey('clang|-O2 -flto')).toEqual({ compiler: 'clang', flag_set: '-O2 -flto' });
    expect(parseConfigKey('clang')).toBeNull();
    expect(parseSideKey('7.4.1')).toEqual({ version: '7.4.1', config: null });
    expect(parseSideKey('7.4.1|gcc|-Os -flto')).toEqual({ version: '7.4.1', config: { compiler: 'gcc', flag_set: '-Os -flto' } });
    expect(parseSideKey('7.4.1|gcc')).toBeNull();
    expect(parseCellId('7.4.1')).toBeNull();
    expect(sideKey({ version: '7.4.1', config: { compiler: 'gcc', flag_set: '-O2' } })).toBe('7.4.1|gcc|-O2');
  });
});

describe('compareCandidates', () => {
  it('keeps the versions shown that have figures, when at least two have', () => {
    expect(compareCandidates(['7.0.15', '7.2.6', '7.4.0', '7.4.1'], ['7.0.15', '7.2.6', '7.4.1'])).toEqual(['7.0.15', '7.2.6', '7.4.1']);
    expect(compareCandidates(['7.4.0', '7.4.1'], ['7.4.1'])).toEqual(['7.4.0', '7.4.1']);
    expect(compareCandidates(['7.4.0', '7.4.1'], [])).toEqual(['7.4.0', '7.4.1']);
  });
});
