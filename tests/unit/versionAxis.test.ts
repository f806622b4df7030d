import { describe, expect, it } from 'vitest';
import type { Bar } from '../../src/vocabulary';
import { groupedByLine } from '../../src/model/bars';
import { minorLine } from '../../src/model/versions';

const bar = (version: string): Bar => ({
  key: version, label: version, group: '', value: 1, status: 'ok', color: '#000', winner: false, ariaLabel: version, tooltip: [],
});

describe('minorLine', () => {
  it('names the minor line of releases, pre-releases and short versions', () => {
    expect(['2.6.17', '2.6.0-rc1', '7.0-rc1', '7.4.1', '10.2.3', 'v6.2.16'].map(minorLine)).toEqual(['2.6', '2.6', '7.0', '7.4', '10.2', '6.2']);
  });

  it('keeps a string that is not a version as its own line', () => {
    expect(minorLine('unstable')).toBe('unstable');
  });
});

describe('groupedByLine', () => {
  it('leaves one release per line ungrouped, each labelled with its version', () => {
    const bars = ['2.6.17', '2.8.24', '7.4.1'].map(bar);
    expect(groupedByLine(bars)).toBe(bars);
  });

  it('groups every release by its minor line once a line has two or more', () => {
    const grouped = groupedByLine(['2.6.0', '2.6.1', '2.8.0', '7.4.0', '7.4.1'].map(bar));
    expect(grouped.map((b) => b.group)).toEqual(['2.6', '2.6', '2.8', '7.4', '7.4']);
    expect(grouped.map((b) => b.label)).toEqual(['2.6.0', '2.6.1', '2.8.0', '7.4.0', '7.4.1']);
  });
});
