/**
 * A cell's counting runs (count_runs, the counted instrument: every machine's), for the status
 * grid's cell panel, and one run's raw tool output, asked for on demand (raw_output is a lazy
 * column: schema.ts LAZY_COLUMNS, fetched when a query names it).
 */
import { query, type Query } from './query';

/** One counting run of a cell: mode, repeat, how it went, and under what. */
export interface CountRunRow {
  run_id: string;
  mode: string;
  repeat: number;
  status: string;
  /** Tests with a count, tests that failed (error, crash, timeout) and tests the server lacks. */
  ok_tests: number;
  failed_tests: number;
  unsupported_tests: number;
  valgrind_version: string;
  /** Wall time of the counting run, seconds. */
  duration_seconds: number;
  machine_id: string;
  started_at: string | null;
  /** Why the run is to be counted again (it counts until its recount replaces it); null for none. */
  redone: string | null;
}

/** A cell's counting runs by mode, repeat and start. */
export function cellCountRunsQuery(cellId: string): Query<CountRunRow> {
  return query(
    `SELECT u.run_id, u.mode, u.repeat, u.status,
            count(c.test) FILTER (WHERE c.status = 'ok')::INTEGER AS ok_tests,
            count(c.test) FILTER (WHERE c.status NOT IN ('ok', 'unsupported'))::INTEGER AS failed_tests,
            count(c.test) FILTER (WHERE c.status = 'unsupported')::INTEGER AS unsupported_tests,
            u.valgrind_version, u.duration_seconds::DOUBLE AS duration_seconds, u.machine_id,
            strftime(u.started_at, '%Y-%m-%d %H:%M') AS started_at, u.redone
     FROM count_runs u LEFT JOIN counts c ON c.run_id = u.run_id
     WHERE u.cell_id = ?
     GROUP BY u.run_id, u.mode, u.repeat, u.status, u.valgrind_version, u.duration_seconds, u.machine_id, u.started_at, u.redone
     ORDER BY u.mode, u.repeat, u.started_at`,
    [cellId],
  );
}

/**
 * The raw tool output (Valgrind's summary and the client's output) of one counting run, from
 * count_runs or, for a run set aside, count_runs_superseded.
 */
export function countRunOutputQuery(runId: string, table: 'count_runs' | 'count_runs_superseded' = 'count_runs'): Query<{ raw_output: string | null }> {
  return query(`SELECT raw_output FROM ${table} WHERE run_id = ?`, [runId]);
}

/**
 * One counting run of a cell set aside (count_runs_superseded): run under an earlier counting
 * protocol, or one of two repeats counted again because they differed (`redone` says in which
 * test and by how much). Kept as evidence; no chart reads it.
 */
export interface SupersededCountRunRow {
  run_id: string;
  mode: string;
  repeat: number;
  status: string;
  /** The counting protocol it followed (null: recorded before protocols were, protocol 1). */
  protocol: number | null;
  /** Why it was counted again ("repeats differed: INCR 0.4134% apart"); null for an earlier protocol's run. */
  redone: string | null;
  machine_id: string;
  started_at: string | null;
}

/** A cell's counting runs set aside, by mode, repeat and start. */
export function cellSupersededCountRunsQuery(cellId: string): Query<SupersededCountRunRow> {
  return query(
    `SELECT run_id, mode, repeat, status, protocol, redone, machine_id, strftime(started_at, '%Y-%m-%d %H:%M') AS started_at
     FROM count_runs_superseded WHERE cell_id = ? ORDER BY mode, repeat, started_at`,
    [cellId],
  );
}
