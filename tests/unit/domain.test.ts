import { describe, expect, it } from 'vitest';
import { axisDomain } from '../../src/model/domain';
import { formatAxisRange } from '../../src/model/format';

describe('axisDomain', () => {
  it('Max Change View fits the axis to min..max', () => {
    expect(axisDomain([90_000, 100_000, 95_000], 'max')).toEqual([90_000, 100_000]);
  });

  it('Real View zooms out by 10% of the largest value on both sides', () => {
    expect(axisDomain([90_000, 100_000], 'real')).toEqual([80_000, 110_000]);
  });

  it('Real View never goes below zero', () => {
    expect(axisDomain([5_000, 100_000], 'real')).toEqual([0, 110_000]);
  });

  it('Real View always contains the Max Change range', () => {
    const values = [123_456, 130_000, 99_999];
    const [rl, rh] = axisDomain(values, 'real') ?? [NaN, NaN];
    const [ml, mh] = axisDomain(values, 'max') ?? [NaN, NaN];
    expect(rl).toBeLessThan(ml);
    expect(rh).toBeGreaterThan(mh);
  });

  it('gives a single value a small range around it in both views', () => {
    const [low, high] = axisDomain([100_000, 100_000], 'max') ?? [NaN, NaN];
    expect(low).toBeLessThan(100_000);
    expect(high).toBeGreaterThan(100_000);
    expect(axisDomain([100_000], 'real')).toEqual([90_000, 110_000]);
  });

  it('ignores values that are not finite and returns null when none is', () => {
    expect(axisDomain([NaN, 50, Infinity, 60], 'max')).toEqual([50, 60]);
    expect(axisDomain([], 'real')).toBeNull();
    expect(axisDomain([NaN], 'max')).toBeNull();
  });
});

describe('formatAxisRange', () => {
  it('says plainly whether the axis starts at zero', () => {
    expect(formatAxisRange([80_000, 110_000])).toBe('axis 80,000 – 110,000 req/s (does not start at 0)');
    expect(formatAxisRange([0, 110_000])).toBe('axis 0 – 110,000 req/s (starts at 0)');
  });
});
