/**
 * Precision statistics, the same as the collector's (collector/internal/stats): the effect of a
 * configuration against a baseline as the geometric mean of per-round paired ratios, with a
 * seeded bootstrap interval that resamples whole rounds (and tests, for a summary over tests);
 * a verdict only when the interval excludes no change; the coefficient of variation of every
 * figure. Both pass the hand-worked cases of tests/fixtures/fixture-stats.json. Pure: no DOM.
 */

/** A matrix of figures, [round][test]; NaN where missing. */
export type Matrix = readonly (readonly number[])[];

/** Bootstrap settings: resamples, interval level in (0, 1), seed (reproducible intervals). */
export interface BootstrapOptions {
  resamples: number;
  confidence: number;
  seed: number;
}

/** 2000 resamples for a 95% interval, seed 1 (the collector's defaults). */
export const DEFAULT_BOOTSTRAP: BootstrapOptions = { resamples: 2000, confidence: 0.95, seed: 1 };

/** A ratio (configuration / baseline, of requests per second) with its interval [lo, hi]. */
export interface Effect {
  center: number;
  lo: number;
  hi: number;
  confidence: number;
  /** Rounds and tests that had a ratio. */
  rounds: number;
  tests: number;
}

/** What an interval says: faster or slower only when it excludes a ratio of 1. */
export type Verdict = 'faster' | 'slower' | 'no change within noise';

import { UNSTABLE_CV } from '../vocabulary';

export { UNSTABLE_CV };

/** The fewest rounds an interval is computed from: with one, resampling tests alone would measure how tests differ, not noise. */
export const MIN_ROUNDS = 2;

/** mulberry32: the collector's generator, draw for draw (uint32 values). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** ln(x / base) per round and test; NaN where either is missing or not positive. */
export function logRatios(x: Matrix, base: Matrix): number[][] {
  return x.map((row, r) =>
    row.map((v, t) => {
      const b = base[r]?.[t] ?? NaN;
      return v > 0 && b > 0 ? Math.log(v / b) : NaN;
    }),
  );
}

/** Drops rounds and tests with no number at all (a test no round has is never drawn). */
function dropEmpty(m: Matrix): number[][] {
  const width = Math.max(0, ...m.map((row) => row.length));
  const keepCol = Array.from({ length: width }, (_, t) => m.some((row) => !Number.isNaN(row[t] ?? NaN)));
  return m
    .filter((row) => row.some((v) => !Number.isNaN(v)))
    .map((row) => keepCol.flatMap((keep, t) => (keep ? [row[t] ?? NaN] : [])));
}

/** The ceil(p·n)-th smallest of sorted values (nearest rank; the smallest for p = 0). */
export function nearestRank(sorted: ArrayLike<number>, p: number): number {
  const k = Math.ceil(p * sorted.length - 1e-9);
  return sorted[Math.min(Math.max(k, 1), sorted.length) - 1] ?? NaN;
}

/**
 * Geometric mean of the ratios whose logarithms are given ([round][test], NaN missing), with a
 * bootstrap interval: each resample draws as many rounds as there are, then as many tests, with
 * replacement, and takes the mean logarithm over every drawn (round, test) pair. With fewer than
 * MIN_ROUNDS rounds there is no interval (lo and hi NaN), hence no verdict. The loops sum in the
 * collector's order over a flat typed array: the page judges thousands of effects at a time.
 */
export function effect(logs: Matrix, o: BootstrapOptions = DEFAULT_BOOTSTRAP): Effect {
  const m = dropEmpty(logs);
  const R = m.length;
  const T = m[0]?.length ?? 0;
  const out: Effect = { center: NaN, lo: NaN, hi: NaN, confidence: o.confidence, rounds: R, tests: T };
  if (R === 0) return out;
  const flat = new Float64Array(R * T);
  m.forEach((row, r) => row.forEach((v, t) => (flat[r * T + t] = v)));
  let sum = 0;
  let n = 0;
  for (const v of flat) {
    if (!Number.isNaN(v)) {
      sum += v;
      n++;
    }
  }
  out.center = Math.exp(sum / n);
  if (R < MIN_ROUNDS) return out;
  const next = mulberry32(o.seed);
  const rounds = new Int32Array(R);
  const tests = new Int32Array(T);
  const boot = new Float64Array(o.resamples);
  let kept = 0;
  for (let b = 0; b < o.resamples; b++) {
    for (let i = 0; i < R; i++) rounds[i] = Math.floor((next() / 4294967296) * R);
    for (let i = 0; i < T; i++) tests[i] = Math.floor((next() / 4294967296) * T);
    let s = 0;
    let c = 0;
    for (let i = 0; i < R; i++) {
      const base = (rounds[i] as number) * T;
      for (let j = 0; j < T; j++) {
        const v = flat[base + (tests[j] as number)] as number;
        if (v === v) {
          s += v;
          c++;
        }
      }
    }
    if (c > 0) boot[kept++] = s / c;
  }
  if (kept === 0) return out;
  const sorted = boot.subarray(0, kept).sort();
  const alpha = expandedAlpha(1 - o.confidence, R);
  out.lo = Math.exp(nearestRank(sorted, alpha / 2));
  out.hi = Math.exp(nearestRank(sorted, 1 - alpha / 2));
  return out;
}

/**
 * The level at which the bootstrap distribution is cut for a 1 - alpha interval from n rounds:
 * the expanded percentile interval (Hesterberg 2015). With few samples the bootstrap distribution
 * of a mean is too narrow and normal where the mean's is Student's t, so the interval takes the
 * quantiles alpha'/2 and 1 - alpha'/2 with alpha' = 2 Φ(-√(n/(n-1)) · t(1 - alpha/2, n - 1)).
 * NaN for n < 2. The collector's ExpandedAlpha, operation for operation.
 */
export function expandedAlpha(alpha: number, n: number): number {
  if (n < 2) return NaN;
  const t = studentQuantile(1 - alpha / 2, n - 1);
  return 2 * normalCdf(-Math.sqrt(n / (n - 1)) * t);
}

/** The standard normal distribution function (Numerical Recipes' erfcc, fractional error < 1.2e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x / Math.SQRT2);
  const t = 1 / (1 + 0.5 * z);
  const erfc =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x < 0 ? erfc / 2 : 1 - erfc / 2;
}

/** Student's t distribution function, df ≥ 1 (Abramowitz and Stegun 26.7.3 and 26.7.4). */
export function studentCdf(t: number, df: number): number {
  const theta = Math.atan(Math.abs(t) / Math.sqrt(df));
  const c2 = Math.cos(theta) * Math.cos(theta);
  let a: number; // P(|T| < |t|)
  if (df % 2 === 1) {
    let sum = 0;
    let term = 1;
    if (df > 1) {
      sum = 1;
      for (let k = 3; k <= df - 2; k += 2) {
        term *= (c2 * (k - 1)) / k;
        sum += term;
      }
    }
    a = (2 / Math.PI) * (theta + Math.sin(theta) * Math.cos(theta) * sum);
  } else {
    let sum = 1;
    let term = 1;
    for (let k = 2; k <= df - 2; k += 2) {
      term *= (c2 * (k - 1)) / k;
      sum += term;
    }
    a = Math.sin(theta) * sum;
  }
  return t < 0 ? (1 - a) / 2 : (1 + a) / 2;
}

/** The p-quantile (0.5 ≤ p < 1) of Student's t with df degrees of freedom, by bisection. */
export function studentQuantile(p: number, df: number): number {
  let lo = 0;
  let hi = 1;
  while (studentCdf(hi, df) < p) {
    lo = hi;
    hi *= 2;
  }
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (studentCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Half the interval's width as a fraction of a ratio of 1 (0.01: one percent). */
export function halfWidth(e: Effect): number {
  return (e.hi - e.lo) / 2;
}

/** Faster when the whole interval lies above 1, slower below 1, else no change within noise. */
export function verdict(e: Effect): Verdict {
  if (e.lo > 1) return 'faster';
  if (e.hi < 1) return 'slower';
  return 'no change within noise';
}

/** Sample standard deviation (n - 1) over the mean, NaN values left out; NaN with fewer than two. */
export function coefficientOfVariation(xs: readonly number[]): number {
  const vs = xs.filter((x) => !Number.isNaN(x));
  if (vs.length < 2) return NaN;
  const mean = vs.reduce((s, v) => s + v, 0) / vs.length;
  const ss = vs.reduce((s, v) => s + (v - mean) ** 2, 0);
  return Math.sqrt(ss / (vs.length - 1)) / mean;
}

/** Whether a coefficient of variation is above UNSTABLE_CV. */
export function unstable(cv: number): boolean {
  return cv > UNSTABLE_CV;
}
