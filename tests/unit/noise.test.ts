/**
 * The noise rule (src/sql/noise.ts) on hand-computed examples, run by the site's DuckDB version.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bandSql, geomeanBandSql, geomeanSql, ratioSql, spreadSql, verdictCountsSql, verdictSql,
} from '../../src/sql/noise';
import { openNodeDuckDB } from '../support/node-duckdb.mjs';

let run: (sql: string) => Record<string, unknown>[];

beforeAll(async () => {
  ({ run } = await openNodeDuckDB());
});

/** One value per row of `rows` (a VALUES list), computed by `expr` over the columns `columns`. */
const each = (expr: string, columns: string, rows: string) =>
  run(`SELECT ${expr} AS x FROM (VALUES ${rows}) t(${columns}) ORDER BY i`).map((r) => r.x);

describe('spreadSql', () => {
  it('is (best - worst) / best over two or more repeats, unknown for one', () => {
    expect(each(spreadSql('best', 'worst', 'n'), 'i, best, worst, n', '(1, 100.0, 97.0, 3), (2, 200.0, 200.0, 2), (3, 150.0, 150.0, 1)'))
      .toEqual([0.03, 0, null]);
  });

  it('is 0 for repeats that agree on zero, unknown for a zero best and a worst above it', () => {
    expect(each(spreadSql('best', 'worst', 'n'), 'i, best, worst, n', '(1, 0.0, 0.0, 2), (2, 0.0, 0.001, 2)')).toEqual([0, null]);
  });
});

describe('ratioSql', () => {
  it('is B / A, 1 for two zeros, and none for a zero against a figure above it', () => {
    expect(each(ratioSql('b', 'a'), 'i, b, a', '(1, 103.0, 100.0), (2, 0.0, 0.0), (3, 0.0, 0.5), (4, 0.5, 0.0), (5, NULL, 1.0)'))
      .toEqual([1.03, 1, null, null, null]);
  });
});

describe('bandSql', () => {
  it('takes the larger spread, and nothing when either spread is unknown', () => {
    expect(each(bandSql('a', 'b', '0.0'), 'i, a, b', '(1, 0.02, 0.01), (2, NULL, 0.01), (3, 0.01, NULL), (4, NULL::DOUBLE, NULL::DOUBLE), (5, 0.0, 0.0)'))
      .toEqual([0.02, null, null, null, 0]);
  });

  it('is at least the floor, and still nothing when either spread is unknown', () => {
    expect(each(bandSql('a', 'b', '0.005'), 'i, a, b', '(1, 0.02, 0.01), (2, 0.0, 0.0), (3, NULL, 0.0), (4, 0.001, 0.004)'))
      .toEqual([0.02, 0.005, null, 0.005]);
  });
});

describe('verdictSql', () => {
  it('calls B faster or slower only when the faster side wins by more than the band', () => {
    const rows = [
      '(1, 1.05, 0.02)', // +5% against a 2% band: faster
      '(2, 0.95, 0.02)', // A is 1/0.95 - 1 = 5.3% faster: B slower
      '(3, 1.015, 0.02)', // +1.5% inside 2%: tie
      '(4, 0.975, 0.025)', // A is 2.56% faster, more than 2.5%: B slower (the rule is symmetric, not r < 1 - band)
      '(5, 1.0255, 0.0256)', // +2.55% inside 2.56%: tie
      '(6, 0.99, NULL)', // no spread known on either side: unknown
      '(7, NULL, 0.02)', // no ratio: no verdict
    ].join(', ');
    expect(each(verdictSql('r', 'band'), 'i, r, band', rows)).toEqual(['faster', 'slower', 'tie', 'slower', 'tie', 'unknown', null]);
  });

  it('decides a pair of configurations from their repeats', () => {
    // A: best 100, worst 98 (spread 2%). B1: best 101.5, worst 100 (1.48%): +1.5% is within the 2% band.
    // B2: best 103, worst 102 (0.97%): +3% beats the 2% band. B3: one repeat of 110: B's spread is
    // unknown, so the band is too, +10% or not (A's 2% says nothing of how far B's one figure can move).
    // B4: best 92, worst 90 (2.17%): A is 100 / 92 - 1 = 8.7% faster, beyond 2.17%.
    const sql = verdictSql('b_best / a_best', bandSql(spreadSql('a_best', 'a_worst', 'a_n'), spreadSql('b_best', 'b_worst', 'b_n'), '0.0'));
    expect(each(sql, 'i, a_best, a_worst, a_n, b_best, b_worst, b_n',
      '(1, 100.0, 98.0, 3, 101.5, 100.0, 3), (2, 100.0, 98.0, 3, 103.0, 102.0, 3), (3, 100.0, 98.0, 3, 110.0, 110.0, 1), (4, 100.0, 98.0, 3, 92.0, 90.0, 2)'))
      .toEqual(['tie', 'faster', 'unknown', 'slower']);
  });
});

describe('geomeanSql and geomeanBandSql', () => {
  it('average ratios and bands geometrically, leaving unknown bands out', () => {
    const [row] = run(`SELECT ${geomeanSql('r')} AS gm, ${geomeanBandSql('band')} AS gb
      FROM (VALUES (1.10, 0.02), (0.90, 0.04), (1.00, NULL)) t(r, band)`);
    // (1.1 * 0.9 * 1.0)^(1/3) = 0.99^(1/3); sqrt(1.02 * 1.04) - 1
    expect(row?.gm).toBeCloseTo(0.996655493, 8);
    expect(row?.gb).toBeCloseTo(0.029951, 6);
  });

  it('give a geometric-mean change the same verdict rule as one test', () => {
    const [row] = run(`WITH g AS (SELECT ${geomeanSql('r')} AS gm, ${geomeanBandSql('band')} AS gb
      FROM (VALUES (1.08, 0.01), (1.06, 0.03)) t(r, band))
      SELECT gm, gb, ${verdictSql('gm', 'gb')} AS verdict FROM g`);
    // sqrt(1.08 * 1.06) = 1.069953 against sqrt(1.01 * 1.03) - 1 = 1.9951%
    expect(row?.gm).toBeCloseTo(1.069953, 6);
    expect(row?.gb).toBeCloseTo(0.019951, 6);
    expect(row?.verdict).toBe('faster');
  });
});

describe('verdictCountsSql', () => {
  it('counts each verdict', () => {
    const [row] = run(`SELECT ${verdictCountsSql('v')} FROM (VALUES ('faster'), ('tie'), ('tie'), ('slower'), (NULL)) t(v)`);
    expect(row).toEqual({ faster: 1, slower: 1, tie: 2, unknown: 0 });
  });
});
