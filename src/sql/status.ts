/**
 * The status grid: one row per planned cell (version × configuration) saying how far its
 * collection got, and a cell's details (its build attempts and benchmark runs) on demand.
 */
import { COUNT_REPEATS, type Metric, RPS } from '../vocabulary';
import { othersPercentSql } from './load';
import { query, type Query } from './query';

/**
 * How far a cell got, worst first:
 *   build_failed   no build attempt succeeded
 *   not_collected  no build attempted yet
 *   server_failed  built, but the server failed to start, crashed or hung in some run
 *   partial        built, fewer repeats measured than planned in some mode (collection under way)
 *   ok             every planned repeat of every mode measured
 */
export type GridStatus = 'ok' | 'partial' | 'server_failed' | 'build_failed' | 'not_collected';

/** One planned cell. */
export interface GridRow {
  cell_id: string;
  version: string;
  compiler: string;
  flag_set: string;
  status: GridStatus;
  /** Repeats planned per mode, and modes planned. */
  planned_repeats: number;
  modes: number;
  /** Measured repeats of the mode with the fewest (server failures not counted). */
  min_repeats: number;
  /** Runs measured over all modes, and runs where the server failed. */
  measured_runs: number;
  server_failed_runs: number;
  build_attempts: number;
  /** The latest failed build's error, when no build succeeded. */
  build_error: string | null;
  /** Tests that failed in every repeat, and tests the server does not support (over all modes). */
  failed_tests: number;
  unsupported_tests: number;
}

/**
 * Every planned cell, by version (release order), compiler and flag set, in `metric`'s
 * instrument: the benchmark runs of the hardware shown (the same for requests/second and the
 * latencies, which those runs measure together), or (a counted metric) the counting runs of every
 * machine against the counting protocol's repeats, with the builds of every machine.
 */
export function statusGridQuery(metric: Metric = RPS): Query<GridRow> {
  const counted = metric.kind === 'counted';
  const [builds, runs, repeats] = counted ? ['all_builds', 'count_runs', String(COUNT_REPEATS)] : ['builds', 'runs', 'p.repeats'];
  return query(
    `WITH cell_modes AS (
       SELECT cell_id, trim(unnest(string_split(modes, ','))) AS mode FROM plan
     ),
     b AS (
       SELECT cell_id, count(*)::INTEGER AS attempts, bool_or(status = 'ok') AS built,
              arg_max(error, epoch_ms(finished_at)) FILTER (WHERE status <> 'ok') AS error
       FROM ${builds} GROUP BY cell_id
     ),
     r AS (
       SELECT m.cell_id, min(coalesce(n.measured, 0))::INTEGER AS min_repeats, sum(coalesce(n.measured, 0))::INTEGER AS measured,
              sum(coalesce(n.failed, 0))::INTEGER AS server_failed
       FROM cell_modes m LEFT JOIN (
         SELECT cell_id, mode, count(*) FILTER (WHERE status <> 'server_failed') AS measured,
                count(*) FILTER (WHERE status = 'server_failed') AS failed
         FROM ${runs} GROUP BY cell_id, mode
       ) n ON n.cell_id = m.cell_id AND n.mode = m.mode
       GROUP BY m.cell_id
     ),
     t AS (
       SELECT cell_id, count(*) FILTER (WHERE status = 'failed')::INTEGER AS failed_tests,
              count(*) FILTER (WHERE status = 'unsupported')::INTEGER AS unsupported_tests
       FROM ${counted ? metric.table : RPS.table} WHERE protocol = 'reference' GROUP BY cell_id
     )
     SELECT p.cell_id, p.version, p.compiler, p.flag_set,
            CASE WHEN b.cell_id IS NULL THEN 'not_collected' WHEN NOT b.built THEN 'build_failed'
                 WHEN r.server_failed > 0 THEN 'server_failed' WHEN r.min_repeats < ${repeats} THEN 'partial'
                 ELSE 'ok' END AS status,
            ${repeats}::INTEGER AS planned_repeats, len(string_split(p.modes, ','))::INTEGER AS modes,
            r.min_repeats, r.measured AS measured_runs, r.server_failed AS server_failed_runs,
            coalesce(b.attempts, 0) AS build_attempts, CASE WHEN NOT b.built THEN b.error END AS build_error,
            coalesce(t.failed_tests, 0) AS failed_tests, coalesce(t.unsupported_tests, 0) AS unsupported_tests
     FROM plan p
     JOIN versions v ON v.version = p.version
     LEFT JOIN b ON b.cell_id = p.cell_id
     LEFT JOIN r ON r.cell_id = p.cell_id
     LEFT JOIN t ON t.cell_id = p.cell_id
     ORDER BY v.ord, p.compiler_index, p.flag_index`,
  );
}

/** One build attempt of a cell, with how it was made. */
export interface BuildDetailRow {
  status: string;
  error: string | null;
  log_tail: string;
  cc: string;
  cc_path: string;
  cc_version: string;
  cflags: string;
  ldflags: string;
  compat_flags: string;
  deps_get_flags: boolean;
  make_args: string;
  source_kind: string;
  source_ref: string;
  source_commit: string;
  source_verified: boolean;
  /** Seconds. */
  build_seconds: number;
  deps_seconds: number;
  binary_bytes: number;
  /** The REDIS_BUILD_ID compiled in: the fixed one of reproducible builds; null before it was recorded. */
  redis_build_id: string | null;
  /** SHA-256 of the server's mapped code (one hash: the same binary to the instruction); null before it was recorded. */
  code_sha256: string | null;
  /**
   * For a build recorded without a code hash whose binary was gone: the counting run of a later
   * build whose counts equal its own, which gave it that build's code hash; null otherwise.
   */
  code_identified_by: string | null;
  /**
   * The virtual address bits its jemalloc was configured for: 48 since they were fixed, 0 for a
   * jemalloc without them (Redis before 5.0), null before they were recorded (then the build host's).
   */
  jemalloc_lg_vaddr: number | null;
  /** UTC, minutes. */
  finished_at: string | null;
  /** The machine it was built on (a cell is rebuilt on every machine that measures it). */
  machine_id: string;
}

/**
 * A cell's builds (retries after a failure, and one per machine that measured it), the one the
 * site uses first (an ok build over a failed one, later over earlier).
 */
export function cellBuildsQuery(cellId: string): Query<BuildDetailRow> {
  return query(
    `SELECT status, error, log_tail, cc, cc_path, cc_version, cflags, ldflags, compat_flags, deps_get_flags, make_args,
            source_kind, source_ref, source_commit, source_verified, build_seconds, deps_seconds,
            binary_bytes::DOUBLE AS binary_bytes, redis_build_id, code_sha256, code_identified_by, jemalloc_lg_vaddr, strftime(finished_at, '%Y-%m-%d %H:%M') AS finished_at, machine_id
     FROM builds WHERE cell_id = ?
     ORDER BY status = 'ok' DESC, finished_at DESC`,
    [cellId],
  );
}

/** One benchmark run of a cell. */
export interface RunDetailRow {
  mode: string;
  repeat: number;
  status: string;
  /** Seconds. */
  duration_seconds: number;
  load1_before: number;
  load1_after: number;
  /** Tests measured, and tests that failed or were unsupported, in this run. */
  ok_tests: number;
  failed_tests: number;
  unsupported_tests: number;
  started_at: string | null;
  /** The machine it ran on. */
  machine_id: string;
  /**
   * CPU other processes used during the run, percent of one CPU (runs.other_cpu's leading
   * "others:N"); null when not recorded.
   */
  busy_pct: number | null;
  /**
   * The machine's memory write rate just before and after the run, bytes/s (a probe of the
   * host's speed); null for runs of collectors before 0.1.3.
   */
  mem_write_before: number | null;
  mem_write_after: number | null;
  /**
   * CPU time the VM's host took during the run, percent of one CPU (/proc/stat steal); null for
   * runs of collectors before 0.1.6.
   */
  steal_pct: number | null;
}

/** A cell's benchmark runs by mode and repeat. */
export function cellRunsQuery(cellId: string): Query<RunDetailRow> {
  return query(
    `SELECT u.mode, u.repeat, u.status, u.duration_seconds, u.load1_before, u.load1_after,
            count(r.test) FILTER (WHERE r.status = 'ok')::INTEGER AS ok_tests,
            count(r.test) FILTER (WHERE r.status NOT IN ('ok', 'unsupported'))::INTEGER AS failed_tests,
            count(r.test) FILTER (WHERE r.status = 'unsupported')::INTEGER AS unsupported_tests,
            strftime(u.started_at, '%Y-%m-%d %H:%M') AS started_at, u.machine_id,
            ${othersPercentSql('u.other_cpu')} AS busy_pct,
            u.mem_write_before, u.mem_write_after, u.steal_pct
     FROM runs u LEFT JOIN results r ON r.run_id = u.run_id
     WHERE u.cell_id = ?
     GROUP BY u.run_id, u.mode, u.repeat, u.status, u.duration_seconds, u.load1_before, u.load1_after, u.started_at,
              u.machine_id, u.other_cpu, u.mem_write_before, u.mem_write_after, u.steal_pct
     ORDER BY u.mode, u.repeat, u.started_at`,
    [cellId],
  );
}

/**
 * Each run measured again (redone_runs) with how fast it was against the run that replaced it:
 * the median over its tests of its requests/s over the replacement's (in results, or in
 * redone_results when that one was redone too); null when either has no figure.
 */
const REDONE_SPEED = `redone_speed AS (
  SELECT x.run_id, median(x.rps / y.rps)::DOUBLE AS speed
  FROM redone_results x
  JOIN redone_runs d ON d.run_id = x.run_id
  JOIN (SELECT run_id, test, rps FROM results UNION ALL SELECT run_id, test, rps FROM redone_results) y
    ON y.run_id = d.replaced_by AND y.test = x.test
  WHERE x.rps > 0 AND y.rps > 0
  GROUP BY x.run_id
)`;

/** A run of a cell that was measured again: the discarded run as it was, why, and against what. */
export interface RedoneRunRow {
  mode: string;
  repeat: number;
  status: string;
  started_at: string | null;
  /** Why the collector measured it again ("host steal 26.9% > 10%"; see docs/data-schema.md). */
  redo_reason: string;
  /** As in RunDetailRow. */
  busy_pct: number | null;
  steal_pct: number | null;
  /** Median over its tests of its requests/s over its replacement's (0.8 = 20% slower); null without figures. */
  speed: number | null;
  /** When the run that replaced it started. */
  replaced_at: string | null;
}

/** A cell's runs measured again, by mode, repeat and start. */
export function cellRedoneQuery(cellId: string): Query<RedoneRunRow> {
  return query(
    `WITH ${REDONE_SPEED}
     SELECT d.mode, d.repeat, d.status, strftime(d.started_at, '%Y-%m-%d %H:%M') AS started_at, d.redo_reason,
            ${othersPercentSql('d.other_cpu')} AS busy_pct, d.steal_pct,
            s.speed, strftime(n.started_at, '%Y-%m-%d %H:%M') AS replaced_at
     FROM redone_runs d
     LEFT JOIN redone_speed s ON s.run_id = d.run_id
     LEFT JOIN (SELECT run_id, started_at FROM runs UNION ALL SELECT run_id, started_at FROM redone_runs) n ON n.run_id = d.replaced_by
     WHERE d.cell_id = ?
     ORDER BY d.mode, d.repeat, d.started_at`,
    [cellId],
  );
}

/** The runs measured again on the selected hardware, per mode. */
export interface RedoneSummaryRow {
  mode: string;
  runs: number;
  /** Of them, with a speed against their replacement, and its median. */
  compared: number;
  median_speed: number | null;
}

/** How many runs were measured again, per mode, and how fast they were against their replacements. */
export function redoneSummaryQuery(): Query<RedoneSummaryRow> {
  return query(
    `WITH ${REDONE_SPEED}
     SELECT d.mode, count(*)::INTEGER AS runs, count(s.speed)::INTEGER AS compared, median(s.speed)::DOUBLE AS median_speed
     FROM redone_runs d LEFT JOIN redone_speed s ON s.run_id = d.run_id
     GROUP BY d.mode ORDER BY d.mode`,
  );
}
