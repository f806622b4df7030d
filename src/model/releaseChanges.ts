/**
 * The changes between consecutive releases in a counted metric, shaped for reading: one entry per
 * release pair, mode, test and direction ("SET (data mode) +3.1% instructions per request, in all
 * 12 configurations"), a line per pair saying what held within noise and which counts are missing,
 * and the GitHub comparison of the two tags. The rows come from src/sql/releaseChanges.ts, or (in
 * requests/second, the precision modes) from src/model/precision.ts, where `cheaper` is the better
 * direction (faster) and `costlier` the worse: the words are the metric's.
 */
import type { ReleaseChangeRow } from '../sql/releaseChanges';
import type { Metric } from '../vocabulary';
import { formatChange } from './changeText';
import { changeGlyph } from './metric';
import { causeText, pairCauseText, type PairCauses } from './releaseCauses';

/** How the entries are listed: pair by pair in release order, or every entry by the size of its change. */
export type ChangeOrder = 'release' | 'size';

/** The orders, the default first. */
export const CHANGE_ORDERS: readonly ChangeOrder[] = ['release', 'size'];

/**
 * Which changes are listed: every one; those in every configuration compared, a change in the
 * code whatever the compiler; or those in some configurations only, where compilers or flag sets
 * part ways.
 */
export type ChangeReach = 'any' | 'every' | 'some';

/** The reaches, the default first. */
export const CHANGE_REACHES: readonly ChangeReach[] = ['any', 'every', 'some'];

/** Whether an entry has the reach: changed in every configuration compared, or not. */
export function hasReach(e: Pick<ChangeEntry, 'count' | 'compared'>, reach: ChangeReach): boolean {
  return reach === 'any' || (e.count === e.compared) === (reach === 'every');
}

/**
 * The smallest change listed, in percent either way: every change beyond noise ('0'), or those of
 * at least 0.1% to 5% (rustc-perf bands changes at 0.2, 1, 2 and 5%; LNT ignores those under 1%).
 * A counted cost has next to no noise, so a change of a few instructions per request is beyond
 * it; the size keeps the list to the changes that matter.
 */
export type ChangeLeast = '0' | '0.1' | '0.5' | '1' | '2' | '5';

/** The smallest sizes offered, smallest first. */
export const CHANGE_LEASTS: readonly ChangeLeast[] = ['0', '0.1', '0.5', '1', '2', '5'];

/** The size listed when the URL names none (least= absent). */
export const DEFAULT_LEAST = '1' satisfies ChangeLeast;

/** Whether `value` (a URL parameter, a select's value) is one of the sizes offered. */
export function isChangeLeast(value: string): value is ChangeLeast {
  return (CHANGE_LEASTS as readonly string[]).includes(value);
}

/** Whether an entry's change (its configurations' geometric mean) is at least `least` percent either way. */
export function hasSize(e: Pick<ChangeEntry, 'ratio'>, least: ChangeLeast): boolean {
  return Math.abs(e.ratio - 1) >= Number(least) / 100 - 1e-12;
}

/** One change beyond noise: a test in a mode got cheaper or costlier from one release to the next. */
export interface ChangeEntry {
  readonly pairIndex: number;
  readonly from: string;
  readonly to: string;
  readonly mode: string;
  readonly test: string;
  readonly testIndex: number;
  /** 'cheaper' the better direction (for requests/second: faster), 'costlier' the worse. */
  readonly direction: 'cheaper' | 'costlier';
  /** Geometric mean of the changed configurations' ratios (newer / older), and their range. */
  readonly ratio: number;
  readonly min: number;
  readonly max: number;
  /** Configurations changed this way, of those counted on both releases, of those planned. */
  readonly count: number;
  readonly compared: number;
  readonly configs: number;
  /** The changed configurations, in plan order. */
  readonly configNames: readonly string[];
  /** "SET (data mode) +3.1% instructions per request, in all 12 configurations". */
  readonly text: string;
  /** What the builds say of the changed configurations (src/model/releaseCauses.ts), '' when nothing. */
  readonly cause: string;
}

/** One pair of consecutive releases: its entries and what the rest of its comparisons were. */
export interface PairChanges {
  readonly pairIndex: number;
  readonly from: string;
  readonly to: string;
  /** Changes beyond noise, the largest first. */
  readonly entries: readonly ChangeEntry[];
  /** The sentence for everything else: within noise, no noise estimate, missing counts. */
  readonly note: string;
  /** What the builds say of the whole pair (src/model/releaseCauses.ts), '' when nothing. */
  readonly cause: string;
}

/** Consecutive pairs of `versions` (release order): [[v0, v1], [v1, v2], ...]. */
export function releasePairs(versions: readonly string[]): [string, string][] {
  return versions.slice(1).map((v, i) => [versions[i] as string, v]);
}

/** Two releases compared, and the releases shown between them that have no figures (not counted yet, or not built). */
export interface ReleaseSpan {
  readonly from: string;
  readonly to: string;
  readonly between: readonly string[];
}

/**
 * The releases of `shown` (release order) to compare: each one in `measured` against the one before
 * it in `measured`, with the shown releases between them that are not; and those releases. A
 * release without figures is skipped rather than compared as missing, so while the matrix fills
 * (first releases, then bisection) a change is placed between the nearest releases that have
 * figures, and each release counted later narrows it.
 */
export function releaseSpans(shown: readonly string[], measured: readonly string[]): { spans: ReleaseSpan[]; unmeasured: string[] } {
  const has = new Set(measured);
  const spans: ReleaseSpan[] = [];
  const unmeasured: string[] = [];
  let from: string | null = null;
  let between: string[] = [];
  for (const v of shown) {
    if (!has.has(v)) {
      unmeasured.push(v);
      between.push(v);
      continue;
    }
    if (from !== null) spans.push({ from, to: v, between });
    from = v;
    between = [];
  }
  return { spans, unmeasured };
}

/** "2.6.5 between them", "16 releases between them (2.6.1 to 2.6.16)", followed by `what`: "without counts". */
export function betweenText(between: readonly string[], what: string): string {
  if (!between.length) return '';
  if (between.length === 1) return `${between[0]} between them ${what}`;
  return `${between.length} releases between them ${what} (${between[0]} to ${between.at(-1)})`;
}

/** The GitHub comparison of two Redis release tags. */
export function compareUrl(from: string, to: string): string {
  return `https://github.com/redis/redis/compare/${encodeURIComponent(from)}...${encodeURIComponent(to)}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Where a change reached: "in all 12 configurations", "in 5 of 10 configurations counted on both:
 * gcc -O2, ..." ("measured on both" for a measured metric).
 */
function reachText(count: number, compared: number, configs: number, names: readonly string[], metric: Metric): string {
  const [done, figures] = metric.kind === 'counted' ? ['counted', 'counts'] : ['measured', 'figures'];
  const without = compared < configs ? ` (${configs - compared} of ${configs} without ${figures} on both)` : '';
  if (count === compared) return `in all ${plural(compared, 'configuration')}${compared < configs ? ` ${done} on both` : ''}${without}`;
  return `in ${count} of ${compared} configurations${compared < configs ? ` ${done} on both` : ''}: ${names.join(', ')}${without}`;
}

/** The change's size: "+3.1%", or with its range when the configurations differ by 0.1 points or more: "+3.8% (+2.6% to +5.7%)". */
function sizeText(ratio: number, min: number, max: number): string {
  const range = formatChange(min) === formatChange(max) ? '' : ` (${formatChange(min)} to ${formatChange(max)})`;
  return `${formatChange(ratio)}${range}`;
}

function entry(r: ReleaseChangeRow, direction: 'cheaper' | 'costlier', metric: Metric, causes: PairCauses): ChangeEntry | null {
  const count = r[direction];
  const ratio = r[`${direction}_ratio`];
  const min = r[`${direction}_min`];
  const max = r[`${direction}_max`];
  if (count === 0 || ratio === null || min === null || max === null) return null;
  const configNames = (r[`${direction}_configs`] ?? '').split(', ').filter(Boolean);
  return {
    pairIndex: r.pair_index, from: r.from_version, to: r.to_version, mode: r.mode, test: r.test, testIndex: r.test_index,
    direction, ratio, min, max, count, compared: r.compared, configs: r.configs, configNames,
    text: `${r.test} (${r.mode} mode) ${sizeText(ratio, min, max)} ${metric.spoken}, ${direction === 'cheaper' ? metric.better : metric.worse} ${reachText(count, r.compared, r.configs, configNames, metric)}`,
    cause: causeText(causes, r.pair_index, configNames),
  };
}

/**
 * Every change beyond noise of `rows`, in the rows' order (pair, mode, test), costlier before
 * cheaper, each with what `causes` say of its configurations.
 */
export function changeEntries(rows: readonly ReleaseChangeRow[], metric: Metric, causes: PairCauses = new Map()): ChangeEntry[] {
  return rows.flatMap((r) => [entry(r, 'costlier', metric, causes), entry(r, 'cheaper', metric, causes)].filter((e): e is ChangeEntry => e !== null));
}

/** Entries by the size of their change (|ln ratio|, largest first), ties in release order. */
export function bySize(entries: readonly ChangeEntry[]): ChangeEntry[] {
  return [...entries].sort((a, b) => Math.abs(Math.log(b.ratio)) - Math.abs(Math.log(a.ratio)) || a.pairIndex - b.pairIndex);
}

/**
 * The sentence for a pair's comparisons without a change beyond noise: "no change within noise
 * in 200 comparisons", "18 within noise", "4 without a noise estimate (a single repeat)", "2
 * without a ratio (a count of zero on one side only)", "counts missing for 24 of 240 (not
 * collected 20, build failed 4)". A missing count is never a change.
 * With `precision` (judged by intervals): "without an interval (fewer than two rounds paired)",
 * "figures missing".
 */
export function pairNote(rows: readonly ReleaseChangeRow[], precision = false): string {
  const sum = (f: (r: ReleaseChangeRow) => number) => rows.reduce((n, r) => n + f(r), 0);
  const planned = sum((r) => r.configs);
  const compared = sum((r) => r.compared);
  const changed = sum((r) => r.cheaper + r.costlier);
  const within = sum((r) => r.within);
  const unknown = sum((r) => r.unknown);
  const parts: string[] = [];
  if (compared === 0) parts.push('nothing to compare');
  else if (changed === 0 && unknown === 0) parts.push(`no change within noise in ${plural(compared, 'comparison')}`);
  else {
    parts.push(`${plural(changed, 'comparison')} changed beyond noise`);
    if (within) parts.push(`${within} within noise`);
  }
  if (unknown) parts.push(precision ? `${unknown} without an interval (fewer than two rounds paired)` : `${unknown} without a noise estimate (a single repeat on a side)`);
  const noRatio = sum((r) => r.no_ratio);
  if (noRatio) parts.push(`${noRatio} without a ratio (a count of zero on one side only)`);
  const missing = ([['not_collected', 'not collected'], ['build_failed', 'build failed'], ['unsupported', 'unsupported'], ['failed', 'failed']] as const)
    .map(([key, words]) => [sum((r) => r[key]), words] as const)
    .filter(([n]) => n > 0);
  if (missing.length) parts.push(`${precision ? 'figures' : 'counts'} missing for ${planned - compared - noRatio} of ${plural(planned, 'comparison')} (${missing.map(([n, w]) => `${w} ${n}`).join(', ')})`);
  return parts.join('; ');
}

/**
 * The rows as pairs in release order, each with its entries (the largest first), its note
 * (`precision`: judged by intervals) and what `causes` say of it.
 */
export function pairChanges(rows: readonly ReleaseChangeRow[], metric: Metric, precision = false, causes: PairCauses = new Map()): PairChanges[] {
  const byPair = new Map<number, ReleaseChangeRow[]>();
  for (const r of rows) byPair.set(r.pair_index, [...(byPair.get(r.pair_index) ?? []), r]);
  return [...byPair.entries()].sort(([a], [b]) => a - b).map(([pairIndex, pairRows]) => ({
    pairIndex,
    from: pairRows[0]?.from_version ?? '',
    to: pairRows[0]?.to_version ?? '',
    entries: bySize(changeEntries(pairRows, metric, causes)),
    note: pairNote(pairRows, precision),
    cause: pairCauseText(causes, pairIndex, Math.max(0, ...pairRows.map((r) => r.compared))),
  }));
}

/**
 * The most entries listed at first: by size, the largest LIST_CAP (and as many more per "Show
 * more"); by release, the largest of each pair, as many per pair as keep the list within it
 * (pairLimit).
 */
export const LIST_CAP = 300;

/**
 * How many of each pair's entries (the largest first) to list so that the list holds at most
 * `cap`: every entry when they fit (Infinity), else the most per pair that fit, at least one.
 * `counts` are the pairs' numbers of entries.
 */
export function pairLimit(counts: readonly number[], cap = LIST_CAP): number {
  const listed = (k: number) => counts.reduce((n, c) => n + Math.min(c, k), 0);
  const most = Math.max(0, ...counts);
  if (listed(most) <= cap) return Infinity;
  let k = 1;
  while (k < most && listed(k + 1) <= cap) k += 1;
  return k;
}

/**
 * A pair's line, read when it is folded: "45 changes: 20 ▲ costlier, 25 ▼ cheaper; largest
 * PING_INLINE (data mode) +26.2%"; "no change listed" when the filters (or the counts) left none.
 */
export function pairSummary(entries: readonly ChangeEntry[], metric: Metric): string {
  if (!entries.length) return 'no change listed';
  const worse = entries.filter((e) => e.direction === 'costlier').length;
  const largest = bySize(entries)[0] as ChangeEntry;
  const ways = [
    ...(worse ? [`${worse} ${changeGlyph(metric, 'slower')} ${metric.worse}`] : []),
    ...(entries.length - worse ? [`${entries.length - worse} ${changeGlyph(metric, 'faster')} ${metric.better}`] : []),
  ];
  return `${plural(entries.length, 'change')}: ${ways.join(', ')}; largest ${largest.test} (${largest.mode} mode) ${formatChange(largest.ratio)}`;
}
