/**
 * Words and marks for ratios and their verdicts: by the noise rule in the reference modes
 * (src/sql/noise.ts), by a bootstrap interval in the precision modes (src/model/precision.ts);
 * the same glyphs and sentences on every view. An arrow follows the number (▲ up, ▼ down) and its
 * colour and words say whether that is better in the page's metric (src/vocabulary.ts).
 */
import { format } from 'd3-format';
import { type ConfigRef, type Metric, type RatioInterval, RPS, type SideRef, type Verdict, type VerdictCounts } from '../vocabulary';
import { changeGlyph } from './metric';

const signedPercent = format('+.1%');
const percent = format('.1%');

const signedSmall = format('+.1r');

/**
 * A ratio as a signed change: 1.0412 -> "+4.1%", 0.95 -> "−5.0%". A change that one decimal would
 * round to 0.0% keeps one significant digit, 0.99996 -> "−0.004%": a counted cost that changed by a
 * few instructions per request changed, and "−0.0%, cheaper" would contradict itself.
 */
export function formatChange(ratio: number): string {
  const change = ratio - 1;
  return change !== 0 && Math.abs(change) < 0.0005 ? `${signedSmall(change * 100)}%` : signedPercent(change);
}

/** A noise band as "±1.8%" (a counted figure's band below 0.1% with three decimals: "±0.012%"). */
export function formatBand(band: number): string {
  return band > 0 && band < 0.001 ? `±${(band * 100).toFixed(3)}%` : `±${percent(band)}`;
}

/**
 * The marks of the verdicts in `metric`: the arrow follows the number's sign (▲ up, ▼ down), the
 * verdict says whether that is better; ≈ within noise, ? no spread known. Requests/second: ▲
 * faster, ▼ slower; a cost: ▼ cheaper, ▲ costlier.
 */
export function verdictGlyphs(metric: Metric = RPS): Readonly<Record<Verdict, string>> {
  return { faster: changeGlyph(metric, 'faster'), slower: changeGlyph(metric, 'slower'), tie: '≈', unknown: '?' };
}

/** The marks of the verdicts in requests/second (verdictGlyphs). */
export const VERDICT_GLYPH: Readonly<Record<Verdict, string>> = verdictGlyphs(RPS);

/** A bootstrap interval as two changes: "+1.2% to +3.0%". */
export function formatInterval(interval: RatioInterval): string {
  return interval.lo === null || interval.hi === null ? 'none' : `${formatChange(interval.lo)} to ${formatChange(interval.hi)}`;
}

/**
 * A verdict by its 95% bootstrap interval, in words: "faster: 95% interval +1.2% to +3.0%
 * (5 rounds)", "no change within noise: 95% interval −0.4% to +0.6% (5 rounds)", "no interval
 * (1 round): not judged".
 */
export function intervalVerdictText(verdict: Verdict, interval: RatioInterval, metric: Metric = RPS): string {
  const rounds = `${interval.rounds} round${interval.rounds === 1 ? '' : 's'}`;
  if (verdict === 'unknown' || interval.lo === null) return `no interval (${rounds}; two are needed): not judged`;
  const words = verdict === 'faster' ? metric.better : verdict === 'slower' ? metric.worse : 'no change within noise';
  return `${words}: 95% interval ${formatInterval(interval)} (${rounds})`;
}

/**
 * A verdict in words in `metric`, e.g. "faster beyond the ±1.8% noise band", "cheaper beyond …";
 * with an `interval` (a precision mode), by the interval (intervalVerdictText).
 */
export function verdictText(verdict: Verdict, band: number | null, metric: Metric = RPS, interval?: RatioInterval): string {
  if (interval) return intervalVerdictText(verdict, interval, metric);
  const noise = band === null ? 'the noise band' : `the ${formatBand(band)} noise band`;
  switch (verdict) {
    case 'faster':
      return `${metric.better} beyond ${noise}`;
    case 'slower':
      return `${metric.worse} beyond ${noise}`;
    case 'tie':
      return `within ${noise} (a tie)`;
    case 'unknown':
      return 'no spread known (one repeat): noise not judged';
  }
}

/** "+4.1%, faster beyond the ±1.8% noise band" ("−4.1%, cheaper beyond …" for a cost); with an `interval`, by the interval. */
export function changeText(ratio: number, band: number | null, verdict: Verdict, metric: Metric = RPS, interval?: RatioInterval): string {
  return `${formatChange(ratio)}, ${verdictText(verdict, band, metric, interval)}`;
}

/** A configuration as people write it: "clang -O2 -flto". */
export function configName(config: ConfigRef): string {
  return `${config.compiler} ${config.flag_set}`;
}

/** A compared side in words: "Redis 7.4.1 clang -O2 -flto", or "Redis 7.4.1 (fastest per test)" for a version at its best. */
export function sideName(side: SideRef, metric: Metric = RPS): string {
  return side.config ? `Redis ${side.version} ${configName(side.config)}` : `Redis ${side.version} (${metric.best} per test)`;
}

/** "▲10 ≈2 ▼0" (and "?1" when some test had no spread); the better count first, with its glyph in `metric`. */
export function countsNote(c: VerdictCounts, metric: Metric = RPS): string {
  const glyph = verdictGlyphs(metric);
  return `${glyph.faster}${c.faster} ≈${c.tie} ${glyph.slower}${c.slower}${c.unknown ? ` ?${c.unknown}` : ''}`;
}

/**
 * "10 faster, 2 within noise, 0 slower beyond noise" ("cheaper"/"costlier" for a cost; with the
 * unknowns when there are any); `precision`: judged by their intervals.
 */
export function countsText(c: VerdictCounts, what: string, metric: Metric = RPS, precision = false): string {
  if (precision) return `${what}: ${c.faster} ${metric.better} and ${c.slower} ${metric.worse} by their 95% intervals, ${c.tie} no change within noise${c.unknown ? `, ${c.unknown} without an interval (one round)` : ''}`;
  return `${what}: ${c.faster} ${metric.better} and ${c.slower} ${metric.worse} beyond noise, ${c.tie} within noise${c.unknown ? `, ${c.unknown} without a spread` : ''}`;
}
