import { describe, expect, it } from 'vitest';
import {
  type AppState, chartKey, chartMatches, decodeState, orderRange, DEFAULTS, encodeState, parseChartKey, protocolOf, reconcileState, zoomedToLine,
} from '../../src/model/state';
import { METRIC_IDS } from '../../src/vocabulary';

const full: AppState = {
  hw: 'intel-r-xeon-r-processor-2-cores',
  ext: true,
  metric: 'ir',
  view: 'max',
  mode: 'pipe',
  q: 'lrange 100',
  from: '2.8.24',
  to: '7.4.1',
  releases: 'all',
  open: { 'pipe:LRANGE_100 (first 100 elements)': '7.4.1', 'data:SET': '2.6.17' },
  chart: 'pipe:LRANGE_100 (first 100 elements)',
  tables: ['data:SET', 'pipe:LRANGE_100 (first 100 elements)'],
  sql: "SELECT version, max(rps) AS rps\nFROM results WHERE test = 'SET' -- & ? # % +\nGROUP BY ALL;",
  limit: 250,
  base: 'clang|-O2 -flto',
  scope: '3.0.7',
  trend: 'data:SET',
  a: '2.8.24',
  b: '7.4.1|gcc|-O2',
  vs: 'arm-neoverse-n1-2-cores',
  changes: 'size',
  reach: 'every',
  least: '5',
  cell: '7.4.1|clang|-O2 -flto',
  section: 'compare',
};

const catalog = {
  versions: ['2.6.17', '2.8.24', '3.0.7', '7.4.1'],
  charts: new Set(['data:SET', 'pipe:SET', 'pipe:LRANGE_100 (first 100 elements)', 'data-long:SET', 'pipe-long:SET']),
  modes: ['data', 'pipe', 'data-long', 'pipe-long'],
  precisionModes: ['data-long', 'pipe-long'],
  configs: new Set(['gcc|-O2', 'clang|-O2 -flto']),
  hardware: [
    { slug: 'amd-epyc-2-cores', label: 'AMD EPYC, 2 cores' },
    { slug: 'intel-r-xeon-r-processor-2-cores', label: 'Intel(R) Xeon(R) Processor, 2 cores' },
    { slug: 'arm-neoverse-n1-2-cores', label: 'ARM Neoverse-N1, 2 cores' },
  ],
  defaultHardware: 'amd-epyc-2-cores',
  hasExtended: true,
};

describe('encodeState / decodeState', () => {
  it('round-trips a state that sets every field', () => {
    const url = encodeState(full);
    expect(decodeState(url)).toEqual({ state: full, problems: [] });
  });

  it('encodes DEFAULTS as an empty query and decodes an empty query as DEFAULTS', () => {
    expect(encodeState(DEFAULTS)).toBe('');
    expect(decodeState('')).toEqual({ state: DEFAULTS, problems: [] });
  });

  it('writes only fields that differ from DEFAULTS, drilldowns in a stable order', () => {
    expect(encodeState({ ...DEFAULTS, view: 'max', open: { 'pipe:GET': '7.4.1', 'data:GET': '3.0.7' } })).toBe(
      '?view=max&open=data%3AGET%403.0.7&open=pipe%3AGET%407.4.1',
    );
  });

  it('falls back to the default of each malformed field and says why', () => {
    const { state, problems } = decodeState('?view=zoom&mode=%3Cboth%3E&open=nonsense&chart=SET&colour=red');
    expect(state).toEqual(DEFAULTS);
    expect(problems).toHaveLength(5);
    expect(problems.join(' ')).toMatch(/view "zoom"/);
    expect(problems.join(' ')).toMatch(/colour/);
  });

  it('reads the reach of the changes between releases, and refuses an unknown one', () => {
    expect(decodeState('?reach=some').state.reach).toBe('some');
    const { state, problems } = decodeState('?reach=any&changes=size');
    expect(state).toEqual({ ...DEFAULTS, changes: 'size' });
    expect(problems).toEqual(['Could not read the reach of the changes "any"; ignored.']);
  });

  it('reads the smallest change listed between releases, 1% (the default) as absent, and refuses a size not offered', () => {
    expect(decodeState('?least=0.1').state.least).toBe('0.1');
    expect(decodeState('?least=0').state.least).toBe('0');
    expect(decodeState('?least=2').state.least).toBe('2');
    // A link written when least=1 was not the default still shows 1%, and is written without it.
    expect(decodeState('?least=1')).toEqual({ state: DEFAULTS, problems: [] });
    expect(encodeState({ ...DEFAULTS, least: '0.5' })).toBe('?least=0.5');
    const { state, problems } = decodeState('?least=3&reach=some');
    expect(state).toEqual({ ...DEFAULTS, reach: 'some' });
    expect(problems).toEqual(['Could not read the smallest change listed "3"; ignored.']);
  });

  it('keeps the valid fields of a partly malformed URL', () => {
    const { state, problems } = decodeState('?view=max&mode=bo%20gus&q=SET');
    expect(state).toEqual({ ...DEFAULTS, view: 'max', q: 'SET' });
    expect(problems).toHaveLength(1);
  });

  it('rejects an overlong search text', () => {
    const { state, problems } = decodeState(`?q=${'x'.repeat(500)}`);
    expect(state.q).toBe('');
    expect(problems).toHaveLength(1);
  });

  it('keeps an empty console query (the console open with nothing typed) apart from a closed console', () => {
    expect(decodeState('?sql=').state.sql).toBe('');
    expect(decodeState('').state.sql).toBeNull();
    expect(encodeState({ ...DEFAULTS, sql: '' })).toBe('?sql=');
  });

  it('rejects a row limit that is not a whole number in range, and an overlong console query', () => {
    for (const limit of ['0', '-5', '1.5', 'all', '100001']) {
      const { state, problems } = decodeState(`?limit=${limit}`);
      expect(state.limit).toBe(DEFAULTS.limit);
      expect(problems).toHaveLength(1);
    }
    const { state, problems } = decodeState(`?sql=${'x'.repeat(20_001)}`);
    expect(state.sql).toBe('');
    expect(problems).toHaveLength(1);
  });

  it('opens on instructions per request, keeps any other metric in the URL, and falls back from an unknown one', () => {
    expect(DEFAULTS.metric).toBe('ir');
    expect(encodeState({ ...DEFAULTS, metric: 'cycles', view: 'max' })).toBe('?metric=cycles&view=max');
    expect(encodeState({ ...DEFAULTS, metric: 'rps' })).toBe('?metric=rps');
    expect(decodeState('?metric=rps').state.metric).toBe('rps');
    expect(decodeState('?metric=ir')).toEqual({ state: DEFAULTS, problems: [] });
    expect(decodeState('?metric=latency')).toEqual({ state: DEFAULTS, problems: ['Unknown metric "latency"; using "ir".'] });
  });

  it('round-trips every metric, the simulated misses too', () => {
    expect(encodeState({ ...DEFAULTS, metric: 'l1' })).toBe('?metric=l1');
    expect(decodeState('?metric=ll&open=data:SET@7.4.1').state).toMatchObject({ metric: 'll', open: { 'data:SET': '7.4.1' } });
    for (const metric of METRIC_IDS) {
      const state: AppState = { ...DEFAULTS, metric, mode: 'pipe' };
      expect(decodeState(encodeState(state))).toEqual({ state, problems: [] });
    }
  });

  it('writes the hardware first, so a link names its CPU before anything else', () => {
    expect(encodeState({ ...DEFAULTS, hw: 'amd-epyc-2-cores', mode: 'data' })).toBe('?hw=amd-epyc-2-cores&mode=data');
    expect(decodeState('?mode=data&hw=amd-epyc-2-cores')).toEqual({ state: { ...DEFAULTS, hw: 'amd-epyc-2-cores', mode: 'data' }, problems: [] });
  });

  it('writes ext=1 for the extended builds only, reads 0 as the reference builds, and refuses another value', () => {
    expect(encodeState({ ...DEFAULTS, ext: true })).toBe('?ext=1');
    expect(decodeState('?ext=1').state.ext).toBe(true);
    expect(decodeState('?ext=0')).toEqual({ state: DEFAULTS, problems: [] });
    const { state, problems } = decodeState('?ext=yes');
    expect(state).toEqual(DEFAULTS);
    expect(problems).toEqual(['Could not read ext="yes" (1 shows the extended builds); showing the reference builds.']);
  });

  it('splits a drilldown at its last @ so test names keep their text', () => {
    expect(decodeState('?open=data:LRANGE_100 (first 100 elements)@7.4.1').state.open).toEqual({
      'data:LRANGE_100 (first 100 elements)': '7.4.1',
    });
  });
});

describe('reconcileState', () => {
  it('keeps a state that the data holds', () => {
    expect(reconcileState(full, catalog)).toEqual({ state: full, problems: [] });
  });

  it('drops versions, drilldowns and charts that a stale link names, with a notice each', () => {
    const stale: AppState = {
      ...full, from: '1.2.6', open: { 'data:SET': '9.9.9', 'data:NOPE': '7.4.1' }, chart: 'data:NOPE', tables: ['data:SET', 'data:NOPE'],
    };
    const { state, problems } = reconcileState(stale, catalog);
    expect(state).toEqual({ ...full, from: null, open: {}, chart: null, tables: ['data:SET'] });
    expect(problems).toHaveLength(5);
  });

  it('names the default hardware when the data has several classes and the link none', () => {
    expect(reconcileState(DEFAULTS, catalog)).toEqual({ state: { ...DEFAULTS, hw: 'amd-epyc-2-cores' }, problems: [] });
  });

  it('falls back to the default hardware for an unknown hw, with a problem naming it', () => {
    const { state, problems } = reconcileState({ ...full, hw: 'sparc-64-cores' }, catalog);
    expect(state).toEqual({ ...full, hw: 'amd-epyc-2-cores' });
    expect(problems).toEqual(['The hardware "sparc-64-cores" is not in the data; showing AMD EPYC, 2 cores.']);
  });

  it('leaves the hardware out of the state when the data has one class', () => {
    const single = { ...catalog, hardware: catalog.hardware.slice(0, 1) };
    expect(reconcileState({ ...DEFAULTS, hw: 'amd-epyc-2-cores' }, single)).toEqual({ state: DEFAULTS, problems: [] });
    const unknown = reconcileState({ ...DEFAULTS, hw: 'intel-r-xeon-r-processor-2-cores' }, single);
    expect(unknown.state).toEqual(DEFAULTS);
    expect(unknown.problems).toHaveLength(1);
  });

  it('shows the reference builds, with a notice, when a link asks for extended builds the data does not have', () => {
    const { state, problems } = reconcileState(full, { ...catalog, hasExtended: false });
    expect(state).toEqual({ ...full, ext: false });
    expect(problems).toEqual(['The data has no extended builds; showing the reference builds.']);
  });

  it('keeps a mode of the data, or the precision modes together, and falls back to the reference modes for another', () => {
    for (const mode of ['all', 'data', 'pipe-long', 'precision']) expect(reconcileState({ ...DEFAULTS, mode }, catalog).state.mode).toBe(mode);
    const { state, problems } = reconcileState({ ...DEFAULTS, mode: 'turbo' }, catalog);
    expect(state.mode).toBe('all');
    expect(problems).toEqual(['The mode "turbo" is not in the data; showing the reference modes.']);
    // Without precision modes, 'precision' names nothing.
    const reference = { ...catalog, modes: ['data', 'pipe'], precisionModes: [] };
    expect(reconcileState({ ...DEFAULTS, mode: 'precision' }, reference).state.mode).toBe('all');
  });

  it('shows a precision mode in requests/second, with a notice when a link asks for another count than the default', () => {
    const { state, problems } = reconcileState({ ...DEFAULTS, mode: 'data-long', metric: 'cycles' }, catalog);
    expect([state.mode, state.metric]).toEqual(['data-long', 'rps']);
    expect(problems).toEqual(['The precision modes are measured in requests/second only (nothing is counted under Valgrind in them); showing requests/second.']);
    expect(reconcileState({ ...DEFAULTS, mode: 'data-long' }, catalog)).toMatchObject({ state: { mode: 'data-long', metric: 'rps' }, problems: [] });
    expect(reconcileState({ ...DEFAULTS, mode: 'data', metric: 'ir' }, catalog).state.metric).toBe('ir');
  });

  it('shows a precision mode in requests/second under a latency too, whose notice names the rounds, not Valgrind', () => {
    const { state, problems } = reconcileState({ ...DEFAULTS, mode: 'pipe-long', metric: 'p99' }, catalog);
    expect([state.mode, state.metric]).toEqual(['pipe-long', 'rps']);
    expect(problems).toEqual(['The precision modes are judged in requests/second only (their rounds\' statistics); showing requests/second.']);
    expect(reconcileState({ ...DEFAULTS, mode: 'pipe', metric: 'p99' }, catalog).state.metric).toBe('p99');
  });

  it('round-trips a precision mode through the URL', () => {
    const state = { ...DEFAULTS, mode: 'pipe-long', open: { 'pipe-long:SET': '7.4.1' } };
    expect(encodeState(state)).toBe('?mode=pipe-long&open=pipe-long%3ASET%407.4.1');
    expect(decodeState(encodeState(state))).toEqual({ state, problems: [] });
  });

  it('swaps a reversed version range', () => {
    const { state, problems } = reconcileState({ ...DEFAULTS, from: '7.4.1', to: '2.8.24' }, catalog);
    expect([state.from, state.to]).toEqual(['2.8.24', '7.4.1']);
    expect(problems).toHaveLength(1);
  });
});

describe('orderRange', () => {
  it('swaps a reversed range and leaves an ordered or open one alone', () => {
    const versions = catalog.versions;
    expect(orderRange({ ...DEFAULTS, from: '7.4.1', to: '2.6.17' }, versions)).toMatchObject({ from: '2.6.17', to: '7.4.1' });
    const ordered = { ...DEFAULTS, from: '2.8.24', to: '3.0.7' };
    expect(orderRange(ordered, versions)).toBe(ordered);
    expect(orderRange({ ...DEFAULTS, from: '7.4.1' }, versions)).toMatchObject({ from: '7.4.1', to: null });
  });
});

describe('zoomedToLine', () => {
  const versions = ['2.6.16', '2.6.17', '2.8.24', '7.4.0', '7.4.1'];

  it('shows only the releases of a minor line, keeping the rest of the state', () => {
    const state = { ...DEFAULTS, mode: 'pipe' as const, from: '2.8.24' };
    expect(zoomedToLine(state, versions, '2.6')).toEqual({ ...state, from: '2.6.16', to: '2.6.17' });
    expect(zoomedToLine(DEFAULTS, versions, '2.8')).toMatchObject({ from: '2.8.24', to: '2.8.24' });
  });

  it('shows every release again when it shows just that line already', () => {
    expect(zoomedToLine({ ...DEFAULTS, from: '7.4.0', to: '7.4.1' }, versions, '7.4')).toMatchObject({ from: null, to: null });
  });
});

describe('chartKey', () => {
  it('parses back the mode and test it was made of', () => {
    expect(parseChartKey(chartKey('pipe', 'MSET (10 keys)'))).toEqual({ mode: 'pipe', test: 'MSET (10 keys)' });
    expect(parseChartKey('SET')).toBeNull();
  });
});

describe('chartMatches', () => {
  it('filters by mode and by every word of the search, ignoring case', () => {
    expect(chartMatches(DEFAULTS, 'pipe', 'SET')).toBe(true);
    expect(chartMatches({ ...DEFAULTS, mode: 'data' }, 'pipe', 'SET')).toBe(false);
    expect(chartMatches({ ...DEFAULTS, q: 'lrange 100' }, 'data', 'LRANGE_100 (first 100 elements)')).toBe(true);
    expect(chartMatches({ ...DEFAULTS, q: 'lrange 300' }, 'data', 'LRANGE_100 (first 100 elements)')).toBe(false);
  });

  it("shows the reference modes under 'all', the precision modes under 'precision', one mode by its name", () => {
    const precision = ['data-long', 'pipe-long'];
    expect(chartMatches(DEFAULTS, 'data', 'SET', precision)).toBe(true);
    expect(chartMatches(DEFAULTS, 'data-long', 'SET', precision)).toBe(false);
    expect(chartMatches({ ...DEFAULTS, mode: 'precision' }, 'pipe-long', 'SET', precision)).toBe(true);
    expect(chartMatches({ ...DEFAULTS, mode: 'precision' }, 'pipe', 'SET', precision)).toBe(false);
    expect(chartMatches({ ...DEFAULTS, mode: 'data-long' }, 'data-long', 'SET', precision)).toBe(true);
    expect(chartMatches({ ...DEFAULTS, mode: 'data-long' }, 'pipe-long', 'SET', precision)).toBe(false);
  });

  it('names the protocol a mode filter shows', () => {
    expect(['all', 'pipe', 'precision', 'data-long'].map((m) => protocolOf(m, ['data-long', 'pipe-long']))).toEqual(['reference', 'reference', 'precision', 'precision']);
  });
});
