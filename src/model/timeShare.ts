/**
 * Where the server's time goes (docs/method.md, "What each instrument can decide"): the part of its
 * CPU time spent in its own code, the only part a compiler changes, and what that bounds.
 */
import type { TimeShareRow } from '../sql/timeShare';
import { formatPercent } from './format';

export type { TimeShareRow };

/** One mode's figures, and its tests'. */
export interface ModeTimeShare {
  readonly mode: string;
  /** Server user time / server CPU time over the mode's tests (null when it used none). */
  readonly share: number | null;
  /** Mean over the mode's tests of their mean busy fractions. */
  readonly serverBusy: number;
  readonly clientBusy: number;
  readonly tests: readonly { readonly test: string; readonly share: number | null; readonly serverBusy: number }[];
}

/**
 * The compiler-visible share: server user time over server CPU time (user + kernel), 0 to 1; null
 * when the server used no CPU time.
 */
export function compilerVisibleShare(user: number, sys: number): number | null {
  const total = user + sys;
  return total > 0 ? user / total : null;
}

/**
 * The requests/second ratio a build can reach at most when its counted cost per request is
 * `countedRatio` times the baseline's and `share` of the server's time is its own code: the
 * server's time per request scales by 1 − share + share × countedRatio, and speed by the inverse
 * when the server is the bottleneck (less when it waits for the client). 0.95 at share 0.25: 1.0127.
 */
export function expectedSpeedRatio(countedRatio: number, share: number): number {
  return 1 / (1 - share + share * countedRatio);
}

/** The rows grouped by mode (in first-seen order), each test's share and the mode's totals. */
export function modeTimeShares(rows: readonly TimeShareRow[]): ModeTimeShare[] {
  const modes = [...new Set(rows.map((r) => r.mode))];
  return modes.map((mode) => {
    const own = rows.filter((r) => r.mode === mode).sort((a, b) => a.test_index - b.test_index);
    const sum = (f: (r: TimeShareRow) => number) => own.reduce((s, r) => s + f(r), 0);
    return {
      mode,
      share: compilerVisibleShare(sum((r) => r.server_user_s), sum((r) => r.server_sys_s)),
      serverBusy: sum((r) => r.server_busy) / own.length,
      clientBusy: sum((r) => r.client_busy) / own.length,
      tests: own.map((r) => ({ test: r.test, share: compilerVisibleShare(r.server_user_s, r.server_sys_s), serverBusy: r.server_busy })),
    };
  });
}

/**
 * One mode's sentence: "pipe-long: server busy 98.0% of the wall time, 90.0% of its CPU time in its
 * own code (compiler-visible); 5% fewer instructions per request: at most +4.7% requests/second".
 */
export function modeTimeShareText(m: ModeTimeShare): string {
  const busy = `${m.mode}: server busy ${formatPercent(m.serverBusy)} of the wall time (client ${formatPercent(m.clientBusy)})`;
  if (m.share === null) return `${busy}, no CPU time recorded`;
  const bound = expectedSpeedRatio(0.95, m.share) - 1;
  return `${busy}, ${formatPercent(m.share)} of its CPU time in its own code (compiler-visible), ${formatPercent(1 - m.share)} in the kernel; ` +
    `5% fewer instructions per request: at most +${formatPercent(bound)} requests/second`;
}
