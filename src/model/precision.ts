/**
 * The statistics of the precision modes (docs/method.md) applied to the paired rounds of
 * src/sql/precision.ts: each effect is the geometric mean of per-round paired ratios with a 95%
 * bootstrap interval that resamples whole rounds and, over several items (tests, pairs, versions),
 * the items too (src/model/stats.ts, the collector's statistics draw for draw). A verdict is
 * faster or slower only when the interval excludes a ratio of 1, 'tie' ("no change within noise")
 * otherwise, 'unknown' without an interval (fewer than two rounds). The rows come out in the
 * shapes the reference modes' queries give, each with its interval, so the sections draw both.
 * Precision modes measure requests/second: higher is better.
 */
import type { CompareRow } from '../sql/compare';
import type { EffectRow } from '../sql/effects';
import type { CompareRoundRow, EffectRoundRow, PrecisionCvRow, ReleaseRoundRow, SummaryRoundRow, TestDurationRow, VerdictRoundRow } from '../sql/precision';
import type { ReleaseChangeRow } from '../sql/releaseChanges';
import type { SummaryItemRow, SummaryRow } from '../sql/summary';
import type { Standing, VersionVerdictRow, WinnerCall } from '../sql/verdicts';
import { type Protocol, type RatioInterval, UNSTABLE_CV, type Verdict, type VerdictCounts } from '../vocabulary';
import { formatCount, formatPercent } from './format';
import { groupBy } from './group';
import { effect } from './stats';

/** An effect in the site's words: ratio (geometric mean), interval and verdict. */
export interface Judged {
  readonly ratio: number;
  readonly interval: RatioInterval;
  readonly verdict: Verdict;
  /** Items (columns) behind it. */
  readonly items: number;
}

/** A paired round: a round number and ln(ratio); null where a side has no figure in it. */
interface Paired {
  readonly round: number | null;
  readonly lr: number | null;
}

/**
 * The effect of `rows` as a matrix [round][item], items keyed by `item` (one item: rounds alone
 * are resampled), with the site's verdict.
 */
export function judge<R extends Paired>(rows: readonly R[], item: (r: R) => string = () => ''): Judged {
  const rounds = new Map<number, number>();
  const items = new Map<string, number>();
  for (const r of rows) {
    if (r.round === null) continue;
    if (!rounds.has(r.round)) rounds.set(r.round, rounds.size);
    const key = item(r);
    if (!items.has(key)) items.set(key, items.size);
  }
  const m = Array.from({ length: rounds.size }, () => new Array<number>(items.size).fill(NaN));
  for (const r of rows) {
    if (r.round === null || r.lr === null) continue;
    const row = m[rounds.get(r.round) ?? -1];
    if (row) row[items.get(item(r)) ?? -1] = r.lr;
  }
  const e = effect(m);
  const has = !Number.isNaN(e.lo) && !Number.isNaN(e.hi);
  const interval = { lo: has ? e.lo : null, hi: has ? e.hi : null, rounds: e.rounds };
  return { ratio: e.center, interval, verdict: siteVerdict(interval), items: e.tests };
}

/** Faster when the interval lies above 1, slower below, 'tie' when it holds 1, 'unknown' without one. */
export function siteVerdict(interval: RatioInterval): Verdict {
  if (interval.lo === null || interval.hi === null) return 'unknown';
  if (interval.lo > 1) return 'faster';
  if (interval.hi < 1) return 'slower';
  return 'tie';
}

/**
 * Rows averaged into one value per round and test: over all versions (and a factor's pairs) each
 * test's log ratio in a round is the mean over the versions (and pairs) that have one, so each
 * test weighs the same and a bootstrap resamples rounds and tests (not thousands of cells).
 */
export function perTest<R extends Paired & { test: string }>(rows: readonly R[]): { round: number; test: string; lr: number }[] {
  const sums = new Map<string, { round: number; test: string; sum: number; n: number }>();
  for (const r of rows) {
    if (r.round === null || r.lr === null) continue;
    const key = `${r.round}\u0000${r.test}`;
    const s = sums.get(key) ?? { round: r.round, test: r.test, sum: 0, n: 0 };
    s.sum += r.lr;
    s.n++;
    sums.set(key, s);
  }
  return [...sums.values()].map((s) => ({ round: s.round, test: s.test, lr: s.sum / s.n }));
}

/** Each version's rows, then all of them (version null: the scope "all versions"). */
function scopes<R extends { version: string }>(rows: R[]): [string | null, R[]][] {
  return [...groupBy(rows, (r) => r.version), [null, rows]];
}

/** How many of `verdicts` are each verdict. */
function countsOf(verdicts: readonly Verdict[]): VerdictCounts {
  const c = { faster: 0, slower: 0, tie: 0, unknown: 0 };
  for (const v of verdicts) c[v]++;
  return c;
}

/** The precision summary: every configuration's score per mode, per version and over all versions, and one scope's per-test items. */
export interface PrecisionSummary {
  readonly scores: SummaryRow[];
  /** The items of the scope asked for (a version, or null: all versions), as summaryItemsQuery gives them. */
  readonly items: SummaryItemRow[];
}

/**
 * Scores of every configuration against the baseline of `rows` (precisionSummaryQuery): for one
 * version, the effect over its rounds and tests; over all versions, over the rounds (the class's
 * k-th round of every version together) and every version's tests. An item is one test: on one
 * version, its effect over the rounds; over all versions, over the rounds and the versions.
 */
export function precisionSummary(rows: readonly SummaryRoundRow[], scope: string | null): PrecisionSummary {
  const scores: SummaryRow[] = [];
  const items = new Map<string | null, SummaryItemRow[]>();
  for (const config of groupBy(rows, (r) => `${r.mode}\u0000${r.compiler}\u0000${r.flag_set}`).values()) {
    const first = config[0];
    if (!first) continue;
    for (const [version, scoped] of scopes(config)) {
      const tests = [...groupBy(scoped, (r) => r.test).values()].map((test) => {
        const t = test[0] as SummaryRoundRow;
        const j = judge(perTest(test));
        return { test: t.test, test_index: t.test_index, ...j, versions: new Set(test.map((r) => r.version)).size };
      });
      const score = judge(perTest(scoped), (r) => r.test);
      const ranked = [...tests].sort((a, b) => a.ratio - b.ratio);
      const worst = ranked[0];
      const best = ranked.at(-1);
      const base = { compiler: first.compiler, flag_set: first.flag_set, mode: first.mode };
      if (!worst || !best) continue;
      scores.push({
        ...base, compiler_index: first.compiler_index, flag_index: first.flag_index, version,
        ratio: score.ratio, band: null, verdict: score.verdict, interval: score.interval, tests: tests.length,
        ...countsOf(tests.map((t) => t.verdict)),
        worst_test: worst.test, worst_ratio: worst.ratio, best_test: best.test, best_ratio: best.ratio,
      });
      const scopeItems = items.get(version) ?? [];
      items.set(version, scopeItems);
      for (const t of tests) {
        scopeItems.push({ ...base, test: t.test, test_index: t.test_index, ratio: t.ratio, band: null, verdict: t.verdict, interval: t.interval, versions: t.versions });
      }
    }
  }
  return { scores, items: items.get(scope) ?? [] };
}

/**
 * The build factors' effects from their pairs' rounds (precisionEffectsQuery): per factor, level,
 * mode and version, the effect over the rounds and the pairs' tests; over all versions, over every
 * version's pairs and tests. `pairs` counts the items (a pair of builds on one test and version),
 * each judged over its rounds.
 */
export function precisionEffects(rows: readonly EffectRoundRow[]): EffectRow[] {
  const out: EffectRow[] = [];
  const item = (r: EffectRoundRow) => `${r.version}\u0000${r.pair}\u0000${r.test}`;
  for (const level of groupBy(rows, (r) => `${r.mode}\u0000${r.factor}\u0000${r.level}`).values()) {
    const first = level[0];
    if (!first) continue;
    for (const [version, scoped] of scopes(level)) {
      const pairs = [...groupBy(scoped, item).values()].map((pair) => judge(pair).verdict);
      const e = judge(perTest(scoped), (r) => r.test);
      out.push({
        factor: first.factor, level: first.level, base: first.base, level_order: first.level_order, mode: first.mode, version,
        ratio: e.ratio, band: null, verdict: e.verdict, interval: e.interval, pairs: pairs.length, ...countsOf(pairs),
      });
    }
  }
  return out;
}

/**
 * The compare table of a precision mode: `rows` are compareQuery's (each side's figure, its
 * coefficient of variation, status and reason), `rounds` precisionCompareQuery's pairs. Each test's
 * ratio is its effect over the rounds; each mode's last row the effect over its rounds and tests.
 */
export function precisionCompare(rows: readonly CompareRow[], rounds: readonly CompareRoundRow[]): CompareRow[] {
  const byTest = groupBy(rounds, (r) => `${r.mode}\u0000${r.test}`);
  const tests = rows.filter((r) => r.test !== null).map((r): CompareRow => {
    const paired = byTest.get(`${r.mode}\u0000${r.test}`);
    if (!paired || r.a_best === null || r.b_best === null) return { ...r, ratio: null, band: null, verdict: null };
    const j = judge(paired);
    return { ...r, ratio: j.ratio, band: null, verdict: j.verdict, interval: j.interval };
  });
  const means = [...new Set(rows.map((r) => r.mode))].map((mode): CompareRow => {
    const judged = tests.filter((r) => r.mode === mode && r.verdict !== null);
    const paired = rounds.filter((r) => r.mode === mode && judged.some((t) => t.test === r.test));
    const j = judge(paired, (r) => r.test);
    const empty = judged.length === 0;
    return {
      mode, test: null, test_index: null, a_status: null, a_best: null, a_spread: null, a_cv: null, a_config: null, a_reason: null,
      b_status: null, b_best: null, b_spread: null, b_cv: null, b_config: null, b_reason: null,
      ratio: empty ? null : j.ratio, band: null, verdict: empty ? null : j.verdict, ...(empty ? {} : { interval: j.interval }),
      tests: judged.length, ...countsOf(judged.map((t) => t.verdict as Verdict)),
    };
  });
  return [...tests, ...means].sort((a, b) => a.mode.localeCompare(b.mode) || Number(a.test === null) - Number(b.test === null) || (a.test_index ?? 0) - (b.test_index ?? 0));
}

/**
 * The winner calls and the changes against the previous release of precision charts (rows of
 * precisionVerdictsQuery), as versionVerdictsQuery's rows: a version's fastest is a clear winner
 * when every other configuration's interval against it lies below 1; a tie when one holds 1 (or
 * lies above it: the fastest by figure loses the paired rounds); no call ('unknown') when some
 * comparison has fewer than two rounds. Each row carries every rival's standing.
 */
export function precisionVersionVerdicts(rows: readonly VerdictRoundRow[]): VersionVerdictRow[] {
  const out: VersionVerdictRow[] = [];
  for (const bar of groupBy(rows, (r) => `${r.mode}\u0000${r.test}\u0000${r.version}`).values()) {
    const first = bar[0];
    if (!first) continue;
    const rivals = [...groupBy(bar.filter((r) => r.kind === 'rival'), (r) => r.other).values()].map((rounds) => ({ row: rounds[0] as VerdictRoundRow, ...judge(rounds) }));
    const standings: Record<string, Standing> = {};
    for (const r of rivals) standings[r.row.other] = { ratio: r.ratio, interval: r.interval, verdict: r.verdict === 'slower' ? 'slower' : r.verdict === 'unknown' ? 'unknown' : 'tie' };
    const ties = rivals.filter((r) => r.verdict === 'tie' || r.verdict === 'faster').length;
    const unknowns = rivals.filter((r) => r.verdict === 'unknown').length;
    const call: WinnerCall = rivals.length === 0 ? 'alone' : ties > 0 ? 'tie' : unknowns > 0 ? 'unknown' : 'clear';
    const runner = [...rivals].sort((a, b) => (b.row.figure ?? 0) - (a.row.figure ?? 0))[0];
    const previous = bar.filter((r) => r.kind === 'previous');
    const change = previous.length ? judge(previous) : null;
    out.push({
      mode: first.mode, test: first.test, version: first.version, spread: null, winner_call: call, ties,
      runner_compiler: runner?.row.compiler ?? null, runner_flag_set: runner?.row.flag_set ?? null, runner_best: runner?.row.figure ?? null, runner_spread: null,
      prev_version: previous[0]?.other ?? null, change: change ? change.ratio - 1 : null, change_band: null, change_verdict: change?.verdict ?? null,
      ...(change ? { change_interval: change.interval } : {}),
      standings,
    });
  }
  return out;
}

/**
 * The changes between releases in the precision modes (rows of precisionReleaseChangesQuery) as
 * releaseChangesQuery's rows, for requests/second: each configuration's effect of the newer
 * release over the older over their rounds paired by number; `cheaper` counts the better (faster)
 * beyond the interval, `costlier` the worse (slower), `within` those whose interval holds 1,
 * `unknown` those with fewer than two paired rounds. The band is null (intervals, not bands).
 */
export function precisionReleaseChanges(rows: readonly ReleaseRoundRow[]): ReleaseChangeRow[] {
  const out: ReleaseChangeRow[] = [];
  for (const group of groupBy(rows, (r) => `${r.pair_index}\u0000${r.mode}\u0000${r.test}`).values()) {
    const first = group[0];
    if (!first) continue;
    const configs = [...groupBy(group, (r) => `${r.compiler} ${r.flag_set}`)].map(([name, rounds]) => {
      const r = rounds[0] as ReleaseRoundRow;
      const j = r.missing === null ? judge(rounds) : null;
      return { name, missing: r.missing, ratio: j?.ratio ?? NaN, verdict: j && !Number.isNaN(j.ratio) ? j.verdict : null };
    });
    const way = (verdict: Verdict) => {
      const changed = configs.filter((c) => c.verdict === verdict);
      const ratios = changed.map((c) => c.ratio);
      return {
        n: changed.length,
        names: changed.length ? changed.map((c) => c.name).join(', ') : null,
        ratio: changed.length ? Math.exp(ratios.reduce((s, x) => s + Math.log(x), 0) / ratios.length) : null,
        min: changed.length ? Math.min(...ratios) : null,
        max: changed.length ? Math.max(...ratios) : null,
      };
    };
    const faster = way('faster');
    const slower = way('slower');
    const missing = (status: string) => configs.filter((c) => c.missing === status).length;
    out.push({
      pair_index: first.pair_index, from_version: first.from_version, to_version: first.to_version, mode: first.mode, test: first.test, test_index: first.test_index,
      configs: configs.length, compared: configs.filter((c) => c.verdict !== null).length,
      cheaper: faster.n, costlier: slower.n,
      within: configs.filter((c) => c.verdict === 'tie').length, unknown: configs.filter((c) => c.verdict === 'unknown').length,
      cheaper_configs: faster.names, costlier_configs: slower.names, cheaper_ratio: faster.ratio, costlier_ratio: slower.ratio,
      cheaper_min: faster.min, cheaper_max: faster.max, costlier_min: slower.min, costlier_max: slower.max, band: null,
      // A rate is never zero: every pair of figures has a ratio.
      no_ratio: 0,
      not_collected: missing('not_collected'), build_failed: missing('build_failed'), unsupported: missing('unsupported'),
      failed: missing('failed') + missing('server_failed'),
    });
  }
  return out;
}

/**
 * Which versions each precision mode has measured on the class shown, in words: "data-long: 3 of 7
 * versions, 2.8.24 (1 round), 6.2.16 (5 rounds), 7.4.1 (5 rounds)". `versions` in release order.
 */
export function precisionCoverageText(
  modes: readonly string[], rounds: readonly { readonly mode: string; readonly version: string; readonly rounds: number }[], versions: readonly string[],
): string[] {
  return modes.map((mode) => {
    const measured = versions.flatMap((v) => rounds.filter((r) => r.mode === mode && r.version === v));
    const list = measured.map((r) => `${r.version} (${r.rounds} round${r.rounds === 1 ? '' : 's'})`).join(', ');
    return `${mode}: ${measured.length} of ${versions.length} versions${list ? `, ${list}` : ' on this hardware'}`;
  });
}

/**
 * Per precision mode, how much its figures vary over their rounds: "data-long mode: coefficient
 * of variation over the rounds, median 0.3%, largest 3.8% of 300 figures; none unstable (above
 * 10%)", or which are.
 */
export function cvLines(rows: readonly PrecisionCvRow[]): { mode: string; text: string }[] {
  return rows.map((r) => {
    const spread = r.figures ? `median ${formatPercent(r.median_cv ?? 0)}, largest ${formatPercent(r.max_cv ?? 0)} of ${r.figures} figures` : 'no figure with two rounds yet';
    const unstable = r.unstable ? `⚠ ${r.unstable} unstable (above ${formatPercent(UNSTABLE_CV)}): ${r.unstable_list ?? ''}` : `none unstable (above ${formatPercent(UNSTABLE_CV)})`;
    return { mode: r.mode, text: `${r.mode} mode: coefficient of variation of each figure over its rounds, ${spread}; ${unstable}` };
  });
}

/** A duration in seconds as people read it: "104 ms", "1.62 s". */
export function formatSeconds(seconds: number): string {
  return seconds < 1 ? `${Math.round(seconds * 1000)} ms` : `${seconds.toFixed(2)} s`;
}

/** One millisecond as a share of a test, "0.96%" ("0.062%" below 0.1%). */
const formatResolution = (share: number) => (share < 0.001 ? `${(share * 100).toFixed(3)}%` : formatPercent(share));

/**
 * Per mode, how long its tests lasted and the resolution that gives (testDurationQuery rows):
 * "pipe mode (reference, 120,000 requests per test): a test lasted 31 ms to 196 ms (each test's
 * median), so one millisecond is 0.51% to 3.2% of it (up to 3.6% in its shortest run)".
 */
export function durationLines(rows: readonly TestDurationRow[]): { mode: string; protocol: string; text: string }[] {
  return [...groupBy(rows, (r) => r.mode).values()].map((mode) => {
    const first = mode[0] as TestDurationRow;
    const medians = mode.map((r) => r.median_seconds);
    const low = Math.min(...mode.map((r) => r.min_requests));
    const high = Math.max(...mode.map((r) => r.max_requests));
    const requests = first.protocol === 'reference' && low === high ? `${formatCount(low)} requests per test` : `calibrated counts of ${formatCount(low)} to ${formatCount(high)} requests`;
    const worst = Math.max(...mode.map((r) => r.worst_resolution));
    return {
      mode: first.mode,
      protocol: first.protocol,
      text: `${first.mode} mode (${first.protocol}, ${requests}): a test lasted ${formatSeconds(Math.min(...medians))} to ${formatSeconds(Math.max(...medians))} (each test's median), `
        + `so one millisecond, the client's clock, is ${formatResolution(0.001 / Math.max(...medians))} to ${formatResolution(0.001 / Math.min(...medians))} of it (up to ${formatResolution(worst)} in its shortest run)`,
    };
  });
}

/** The per-test table of durations: a row per test, a cell per mode (median duration and one millisecond's share of it). */
export function durationTable(rows: readonly TestDurationRow[]): { modes: string[]; tests: { test: string; cells: ({ text: string; title: string } | null)[] }[] } {
  const modes = [...new Set(rows.map((r) => r.mode))];
  const tests = [...groupBy(rows, (r) => r.test).values()].map((test) => ({
    test: (test[0] as TestDurationRow).test,
    cells: modes.map((mode) => {
      const r = test.find((x) => x.mode === mode);
      return r ? {
        text: `${formatSeconds(r.median_seconds)} · 1 ms = ${formatResolution(r.median_resolution)}`,
        title: `${r.test}, ${r.mode} mode: median ${formatSeconds(r.median_seconds)} over ${r.results} results (shortest ${formatSeconds(r.min_seconds)}: 1 ms = ${formatResolution(r.worst_resolution)}), ${r.min_requests === r.max_requests ? formatCount(r.min_requests) : `${formatCount(r.min_requests)} to ${formatCount(r.max_requests)}`} requests`,
      } : null;
    }),
  }));
  return { modes, tests };
}

/** What decides a verdict in each protocol: the sections' rule line. */
export const RULE_TEXT: Readonly<Record<Protocol, string>> = {
  reference: 'Reference modes (the 2014 protocol: 120,000 requests per test, best of the repeats), judged by the noise rule: '
    + 'a change counts when it is beyond the larger best-to-worst spread of the two builds\' repeats; a conservative rule with no stated error rate.',
  precision: 'Precision modes (each test at least 1.5 s, the configurations of a version measured in interleaved rounds), judged by intervals: '
    + 'a change is the geometric mean of per-round paired ratios with a 95% bootstrap interval (2,000 resamples of whole rounds, and of the tests in a mean over tests; seed 1, as collector stats), expanded for the few rounds (the expanded percentile interval of Hesterberg, 2015: from 5 rounds its bounds are the 0.1% and 99.9% quantiles of the resamples, from 2 or 3 the smallest and largest); '
    + '▲/▼ only when the interval excludes 0, ≈ no change within noise otherwise, ? fewer than two rounds (no interval); '
    + 'a verdict from fewer than 5 rounds is provisional (an interval from 2 or 3 rounds cannot reach past their range, which holds the true effect half and three quarters of the time). '
    + 'Within a version, configurations pair in the same round; across versions, rounds pair by number.',
};
