/**
 * Likely causes of a change between two releases, from what their builds record
 * (src/sql/releaseCauses.ts): identical code or one source commit on both sides (a change there
 * is not Redis's code), a compatibility flag added or dropped, a bundled dependency's new
 * version. Each cause is a phrase per configuration; an entry or a pair names each phrase once,
 * with how many of its configurations it holds for.
 */
import type { ReleaseCauseRow } from '../sql/releaseCauses';

/** Per pair index, per configuration ("compiler flag set"), the phrases that hold. */
export type PairCauses = ReadonlyMap<number, ReadonlyMap<string, readonly string[]>>;

/** The phrases one configuration's row holds: "identical code on both releases", "compatibility flags -fcommon → none", "bundled jemalloc 4.0.3 → 4.4.0". */
export function causePhrases(r: ReleaseCauseRow): string[] {
  const phrases: string[] = [];
  // Identical code implies the same source; a shared commit alone says the source is one.
  if (r.same_code) phrases.push('identical code on both releases');
  else if (r.same_commit) phrases.push('the same source commit');
  if (r.compat_from !== null && r.compat_to !== null) phrases.push(`compatibility flags ${r.compat_from || 'none'} → ${r.compat_to || 'none'}`);
  for (const dep of (r.deps_changed ?? '').split('; ').filter(Boolean)) phrases.push(`bundled ${dep}`);
  return phrases;
}

/** The rows grouped by pair and configuration. */
export function pairCauses(rows: readonly ReleaseCauseRow[]): PairCauses {
  const byPair = new Map<number, Map<string, string[]>>();
  for (const r of rows) {
    const phrases = causePhrases(r);
    if (!phrases.length) continue;
    const configs = byPair.get(r.pair_index) ?? new Map<string, string[]>();
    configs.set(`${r.compiler} ${r.flag_set}`, phrases);
    byPair.set(r.pair_index, configs);
  }
  return byPair;
}

/**
 * The causes that hold for `configs` (configuration names) of pair `pairIndex`, each phrase once,
 * with "(k of n configurations)" when it holds for some of them only: "compatibility flags
 * -fcommon → none"; "" when none holds.
 */
export function causeText(causes: PairCauses, pairIndex: number, configs: readonly string[]): string {
  const ofPair = causes.get(pairIndex);
  if (!ofPair || !configs.length) return '';
  const counts = new Map<string, number>();
  for (const config of configs) for (const phrase of ofPair.get(config) ?? []) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  return [...counts.entries()]
    .map(([phrase, n]) => (n === configs.length ? phrase : `${phrase} (${n} of ${configs.length} configurations)`))
    .join('; ');
}

/**
 * The causes of a whole pair, over the `compared` configurations counted on both releases: each
 * phrase with "in all N configurations" or "in k of N configurations"; "" when none holds.
 */
export function pairCauseText(causes: PairCauses, pairIndex: number, compared: number): string {
  const ofPair = causes.get(pairIndex);
  if (!ofPair) return '';
  const counts = new Map<string, number>();
  for (const phrases of ofPair.values()) for (const phrase of phrases) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  return [...counts.entries()]
    .map(([phrase, n]) => `${phrase} (${n >= compared ? (n === 1 ? '1 configuration' : `all ${n} configurations`) : `${n} of ${compared} configurations`})`)
    .join('; ');
}
