/**
 * The page's answer: each reference build's instructions per request against the baseline (the
 * plan's first reference configuration, gcc -O2), per mode, over every test and release. The
 * same definition as the README headline's counted line (collector/internal/headline:
 * againstAllVersions), so the two state the same figures (tests/unit/answer.test.ts):
 *   - a figure is a cell's cheapest repeat in one mode and test; its spread (costliest − cheapest)
 *     / cheapest, unknown with one repeat;
 *   - an item is one release's ratio, build over baseline, its band the larger of the two spreads;
 *   - per test, the geometric mean of its items' ratios over the releases where both are counted,
 *     and of 1 + their known bands, minus 1;
 *   - the score, the geometric mean of the tests' ratios (each test weighs the same), its band
 *     likewise.
 * Only the reference configurations: plan.extended cells (-O3, -O3 -flto) are left out.
 */
import { METRICS, type Verdict } from '../vocabulary';
import { bandSql, cellSpreadSql, geomeanBandSql, geomeanSql, ratioSql, verdictSql } from './noise';
import { query, type Query } from './query';

/** One build's score in one mode; the baseline has a row of its own (ratio 1, band 0 or its spread). */
export interface AnswerRow {
  mode: string;
  compiler: string;
  flag_set: string;
  compiler_index: number;
  flag_index: number;
  /** Whether this row is the baseline itself. */
  baseline: boolean;
  /** Instructions per request over the baseline's, geometric mean (0.98 = 2% fewer). */
  ratio: number;
  /** The noise band of the mean, a fraction (0.0001 = 0.01%); null when no test has two repeats. */
  band: number | null;
  /** 'faster' = fewer instructions beyond the band, 'slower' = more, 'tie' within it. */
  verdict: Verdict;
  /** Tests in the mean; releases counted for both builds in at least one test. */
  tests: number;
  releases: number;
}

const ir = METRICS.ir;

/** Every reference build's score against the baseline, per mode, cheapest first. */
export function answerQuery(): Query<AnswerRow> {
  return query(
    `WITH reference AS (
       SELECT cell_id FROM plan WHERE coalesce(extended, false) = false
     ),
     baseline AS (
       SELECT compiler, flag_set FROM plan WHERE coalesce(extended, false) = false
       ORDER BY compiler_index, flag_index LIMIT 1
     ),
     figures AS (
       SELECT * FROM ${ir.table} WHERE status = 'ok' AND cell_id IN (SELECT cell_id FROM reference)
     ),
     items AS (
       SELECT c.mode, c.compiler, c.flag_set, c.compiler_index, c.flag_index, c.test, c.version,
              ${ratioSql('c.best_value', 'b.best_value')} AS ratio, ${bandSql(cellSpreadSql('c'), cellSpreadSql('b'), 'c.band_floor')} AS band
       FROM figures c
       JOIN figures b ON b.version = c.version AND b.mode = c.mode AND b.test = c.test
       JOIN baseline z ON z.compiler = b.compiler AND z.flag_set = b.flag_set
       WHERE ${ratioSql('c.best_value', 'b.best_value')} IS NOT NULL
     ),
     tests AS (
       SELECT mode, compiler, flag_set, compiler_index, flag_index, test,
              ${geomeanSql('ratio')} AS ratio, ${geomeanBandSql('band')} AS band
       FROM items GROUP BY ALL
     ),
     scores AS (
       SELECT t.mode, t.compiler, t.flag_set, t.compiler_index, t.flag_index,
              ${geomeanSql('t.ratio')} AS ratio, ${geomeanBandSql('t.band')} AS band, count(*)::INTEGER AS tests,
              (SELECT count(DISTINCT i.version) FROM items i WHERE i.mode = t.mode AND i.compiler = t.compiler AND i.flag_set = t.flag_set)::INTEGER AS releases
       FROM tests t GROUP BY ALL
     )
     SELECT s.mode, s.compiler, s.flag_set, s.compiler_index, s.flag_index,
            (s.compiler = z.compiler AND s.flag_set = z.flag_set) AS baseline,
            s.ratio, s.band, ${verdictSql('s.ratio', 's.band', ir.lower)} AS verdict, s.tests, s.releases
     FROM scores s CROSS JOIN baseline z
     ORDER BY s.mode, s.ratio, s.compiler_index, s.flag_index`,
    [],
  );
}

/** How far repeats lie apart in one mode: requests/second (median) and instructions per request (largest). */
export interface AnswerNoiseRow {
  mode: string;
  /** Median spread of requests/second repeats, (best − worst) / best; null without two repeats anywhere. */
  rps_median: number | null;
  /** (Cell, test) figures behind it. */
  rps_figures: number;
  /** Largest spread of instructions-per-request repeats, a fraction; null without two repeats. */
  ir_max: number | null;
  /** The rebuild band of instructions per request (ir_status.band_floor), the floor of its verdicts; 0 without one. */
  ir_floor: number;
}

/** The repeats' spread per reference mode, in requests/second (the hardware shown) and in instructions per request. */
export function answerNoiseQuery(): Query<AnswerNoiseRow> {
  return query(
    `WITH rps AS (
       SELECT mode, ${cellSpreadSql()} AS spread FROM cell_status WHERE status = 'ok' AND protocol = 'reference'
     ),
     counted AS (
       SELECT mode, ${cellSpreadSql()} AS spread FROM ${ir.table} WHERE status = 'ok'
     )
     SELECT m.mode, r.rps_median, coalesce(r.rps_figures, 0)::INTEGER AS rps_figures, c.ir_max, coalesce(f.ir_floor, 0) AS ir_floor
     FROM (SELECT DISTINCT mode FROM ${ir.table}) m
     LEFT JOIN (SELECT max(band_floor) AS ir_floor FROM ${ir.table}) f ON true
     LEFT JOIN (SELECT mode, median(spread) AS rps_median, count(spread) AS rps_figures FROM rps GROUP BY mode) r ON r.mode = m.mode
     LEFT JOIN (SELECT mode, max(spread) AS ir_max FROM counted GROUP BY mode) c ON c.mode = m.mode
     ORDER BY m.mode`,
    [],
  );
}
