import { describe, expect, it } from 'vitest';
import { compareVersions, isVersion, sortVersions } from '../../src/model/versions';

describe('compareVersions', () => {
  it('orders releases numerically, not as strings', () => {
    expect(sortVersions(['7.4.1', '3.0.7', '2.8.24', '2.6.17', '10.0.0', '7.0.15'])).toEqual([
      '2.6.17', '2.8.24', '3.0.7', '7.0.15', '7.4.1', '10.0.0',
    ]);
  });

  it('puts release candidates before their release and after the previous line', () => {
    expect(sortVersions(['7.0.0', '7.0-rc2', '6.2.16', '7.0-rc10', '7.0-rc1'])).toEqual([
      '6.2.16', '7.0-rc1', '7.0-rc2', '7.0-rc10', '7.0.0',
    ]);
    expect(compareVersions('2.6.0-rc8', '2.6.0')).toBeLessThan(0);
  });

  it('orders pre-release kinds alpha < beta < milestone < rc < release', () => {
    expect(sortVersions(['8.0.0', '8.0-rc1', '8.0-m02', '8.0-m01', '8.0-beta1', '8.0-alpha2'])).toEqual([
      '8.0-alpha2', '8.0-beta1', '8.0-m01', '8.0-m02', '8.0-rc1', '8.0.0',
    ]);
  });

  it('treats missing parts as zero and is antisymmetric', () => {
    expect(compareVersions('7.0', '7.0.0')).toBe(0);
    for (const [a, b] of [['2.6.17', '2.8.24'], ['3.0.7', '7.4.1'], ['7.2-rc1', '7.2.0']] as const) {
      expect(compareVersions(a, b)).toBeLessThan(0);
      expect(compareVersions(b, a)).toBeGreaterThan(0);
    }
  });

  it('sorts strings that are not versions after all versions instead of dropping them', () => {
    expect(isVersion('unstable')).toBe(false);
    expect(sortVersions(['unstable', '7.4.1', 'dev', '2.6.17', '7.4.1'])).toEqual(['2.6.17', '7.4.1', 'dev', 'unstable']);
  });
});
