/**
 * Words and marks for ratios and their noise verdicts (the rule is in src/sql/noise.ts): the
 * same glyphs and sentences on every view, so "▲" always means "faster beyond noise".
 */
import { format } from 'd3-format';
import type { Verdict, VerdictCounts } from '../sql/noise';
import type { ConfigRef } from './analysisState';

const signedPercent = format('+.1%');
const percent = format('.1%');

/** A ratio as a signed change: 1.0412 -> "+4.1%", 0.95 -> "−5.0%". */
export function formatChange(ratio: number): string {
  return signedPercent(ratio - 1);
}

/** A noise band as "±1.8%". */
export function formatBand(band: number): string {
  return `±${percent(band)}`;
}

/** The mark of a verdict: ▲ faster beyond noise, ▼ slower beyond noise, ≈ within noise, ? no spread known. */
export const VERDICT_GLYPH: Readonly<Record<Verdict, string>> = {
  faster: '▲',
  slower: '▼',
  tie: '≈',
  unknown: '?',
};

/** A verdict in words, e.g. "faster beyond the ±1.8% noise band". */
export function verdictText(verdict: Verdict, band: number | null): string {
  const noise = band === null ? 'the noise band' : `the ${formatBand(band)} noise band`;
  switch (verdict) {
    case 'faster':
      return `faster beyond ${noise}`;
    case 'slower':
      return `slower beyond ${noise}`;
    case 'tie':
      return `within ${noise} (a tie)`;
    case 'unknown':
      return 'no spread known (one repeat): noise not judged';
  }
}

/** "+4.1%, faster beyond the ±1.8% noise band". */
export function changeText(ratio: number, band: number | null, verdict: Verdict): string {
  return `${formatChange(ratio)}, ${verdictText(verdict, band)}`;
}

/** A configuration as people write it: "clang -O2 -flto". */
export function configName(config: ConfigRef): string {
  return `${config.compiler} ${config.flag_set}`;
}

/** "▲10 ≈2 ▼0" (and "?1" when some test had no spread). */
export function countsNote(c: VerdictCounts): string {
  return `▲${c.faster} ≈${c.tie} ▼${c.slower}${c.unknown ? ` ?${c.unknown}` : ''}`;
}

/** "10 faster, 2 within noise, 0 slower beyond noise" (with the unknowns when there are any). */
export function countsText(c: VerdictCounts, what: string): string {
  return `${what}: ${c.faster} faster and ${c.slower} slower beyond noise, ${c.tie} within noise${c.unknown ? `, ${c.unknown} without a spread` : ''}`;
}
