/**
 * The precision statistics against tests/fixtures/fixture-stats.json, the hand-worked cases the
 * collector's Go package (collector/internal/stats) passes too, and the generator and bootstrap
 * figures the Go package computed: Go and TypeScript agree draw for draw.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  coefficientOfVariation,
  DEFAULT_BOOTSTRAP,
  effect,
  expandedAlpha,
  halfWidth,
  logRatios,
  mulberry32,
  nearestRank,
  normalCdf,
  studentQuantile,
  unstable,
  verdict,
  type BootstrapOptions,
} from '../../src/model/stats';

type Rows = (number | null)[][];
interface Fixture {
  options: BootstrapOptions;
  cases: {
    name: string;
    baseline: Rows;
    config: Rows;
    want: { center: number; lo: number | null; hi: number | null; halfWidth: number | null; verdict: string; rounds: number; tests: number; cv: (number | null)[]; unstable: boolean[] };
  }[];
  agreement: { seed: number; uint32: number[]; baseline: Rows; config: Rows; want: { center: number; lo: number; hi: number } };
}

const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/fixture-stats.json'), 'utf8')) as Fixture;
const matrix = (rows: Rows) => rows.map((row) => row.map((v) => v ?? NaN));
const close = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want)));
/** A JSON null wants NaN (no interval). */
const closeOrNaN = (got: number, want: number | null) => (want === null ? expect(got).toBeNaN() : close(got, want));

describe('stats on the hand-worked fixture', () => {
  for (const c of fixture.cases) {
    it(`${c.name}: center, interval, verdict and CV as worked by hand`, () => {
      const cfg = matrix(c.config);
      const e = effect(logRatios(cfg, matrix(c.baseline)), fixture.options);
      close(e.center, c.want.center);
      closeOrNaN(e.lo, c.want.lo);
      closeOrNaN(e.hi, c.want.hi);
      closeOrNaN(halfWidth(e), c.want.halfWidth);
      expect([verdict(e), e.rounds, e.tests]).toEqual([c.want.verdict, c.want.rounds, c.want.tests]);
      c.want.cv.forEach((want, t) => {
        const cv = coefficientOfVariation(cfg.map((row) => row[t] ?? NaN));
        if (want === null) expect(cv).toBeNaN();
        else close(cv, want);
        expect(unstable(cv)).toBe(c.want.unstable[t]);
      });
    });
  }
});

describe('stats agree with the Go package', () => {
  it('mulberry32 draws the numbers the Go generator draws', () => {
    const next = mulberry32(fixture.agreement.seed);
    expect(fixture.agreement.uint32.map(() => next())).toEqual(fixture.agreement.uint32);
  });

  it('a bootstrap that depends on every draw gives the Go interval', () => {
    const a = fixture.agreement;
    const e = effect(logRatios(matrix(a.config), matrix(a.baseline)), fixture.options);
    close(e.center, a.want.center);
    close(e.lo, a.want.lo);
    close(e.hi, a.want.hi);
  });

  it('the same seed gives the same interval, another seed another one', () => {
    const m = logRatios([[101, 99], [104, 100], [99, 103], [102, 98], [105, 101]], Array(5).fill([100, 100]));
    expect(effect(m)).toEqual(effect(m, DEFAULT_BOOTSTRAP));
    const other = effect(m, { ...DEFAULT_BOOTSTRAP, seed: 2 });
    expect([other.lo, other.hi]).not.toEqual([effect(m).lo, effect(m).hi]);
  });

  it('nearestRank takes the 50th and 1950th of 2000 for a 95% interval', () => {
    const xs = Array.from({ length: 2000 }, (_, i) => i + 1);
    expect([nearestRank(xs, 0.025), nearestRank(xs, 0.975)]).toEqual([50, 1950]);
  });

  it("Student's t quantiles and the normal distribution function match the tables, and give the expanded levels", () => {
    const tTable: [number, number][] = [[1, 12.7062], [2, 4.3027], [3, 3.1824], [4, 2.7764], [9, 2.2622], [30, 2.0423]];
    for (const [df, want] of tTable) expect(Math.abs(studentQuantile(0.975, df) - want)).toBeLessThan(1e-4);
    const phi: [number, number][] = [[0, 0.5], [1.959964, 0.975], [-1.959964, 0.025], [-3, 0.0013499]];
    for (const [x, want] of phi) expect(Math.abs(normalCdf(x) - want)).toBeLessThan(1e-6);
    // 5 rounds: 2 Φ(−√(5/4) · 2.7764) ≈ 0.00191; many rounds: about the plain 0.05.
    expect(Math.abs(expandedAlpha(0.05, 5) - 0.00191)).toBeLessThan(0.00002);
    expect(Math.abs(expandedAlpha(0.05, 1000) - 0.05)).toBeLessThan(0.001);
    expect(expandedAlpha(0.05, 1)).toBeNaN();
  });

  it('no ratio at all gives NaN and no verdict', () => {
    const e = effect(logRatios([[NaN]], [[100]]));
    expect(e.center).toBeNaN();
    expect(verdict(e)).toBe('no change within noise');
  });
});
