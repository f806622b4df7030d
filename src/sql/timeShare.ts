/** Where the server's time goes, per mode and test (src/model/timeShare.ts, docs/method.md). */
import { query, type Query } from './query';

/** A mode and test's summed CPU figures over its measured results (results.server_* columns). */
export interface TimeShareRow {
  readonly mode: string;
  readonly test: string;
  readonly test_index: number;
  /** Server CPU seconds in user mode and in the kernel, summed over the results. */
  readonly server_user_s: number;
  readonly server_sys_s: number;
  /** Mean busy fractions (on-CPU time / wall time) of the server and the client. */
  readonly server_busy: number;
  readonly client_busy: number;
  /** Results with CPU figures. */
  readonly results: number;
}

/**
 * Per mode and test on the class shown, over the results with CPU figures (collector 0.3.0 on):
 * the server's user and kernel CPU seconds summed, and the mean busy fractions. Names the results'
 * lazy CPU columns, so the site fetches them first.
 */
export function timeShareQuery(): Query<TimeShareRow> {
  return query(
    `SELECT mode, test, min(test_index)::INTEGER AS test_index,
       sum(server_user_s)::DOUBLE AS server_user_s, sum(server_sys_s)::DOUBLE AS server_sys_s,
       avg(server_busy)::DOUBLE AS server_busy, avg(client_busy)::DOUBLE AS client_busy, count(*)::INTEGER AS results
     FROM results
     WHERE status = 'ok' AND server_user_s IS NOT NULL AND server_sys_s IS NOT NULL AND server_busy IS NOT NULL AND client_busy IS NOT NULL
     GROUP BY mode, test ORDER BY mode, test_index`,
  );
}
