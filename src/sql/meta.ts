/** Queries behind the header: coverage of the matrix and how the numbers were measured. */
import { query, type Query } from './query';

/** How much of the planned matrix is in the data. */
export interface CoverageRow {
  planned_cells: number;
  /** Cells with a build attempt (built or failed). */
  collected_cells: number;
  failed_builds: number;
  /** Cells with at least one finished benchmark run. */
  measured_cells: number;
  /** Cells with at least one instructions-per-request count (any machine: counts do not depend on the CPU). */
  counted_cells: number;
  /** cells x modes x repeats, as planned. */
  planned_runs: number;
  finished_runs: number;
  server_failed_runs: number;
  versions: number;
  tests: number;
  /** Repeats planned per cell and mode (the largest, if the plan varies). */
  planned_repeats: number;
  /** The fewest repeats planned for a cell, the most below planned_repeats (0 when the plan does
   * not vary), and the cells planned the most (planned_repeats). */
  min_planned_repeats: number;
  next_planned_repeats: number;
  most_repeats_cells: number;
}

/** Coverage counts (one row). One-row aggregates joined side by side: DuckDB 0.9 runs this
 * form far faster than the same counts as scalar subqueries (4 ms against 160 ms measured). */
export function coverageQuery(): Query<CoverageRow> {
  return query(
    `SELECT * FROM
       (SELECT count(*)::INTEGER AS planned_cells,
               coalesce(sum(repeats * len(string_split(modes, ','))), 0)::INTEGER AS planned_runs,
               count(DISTINCT version)::INTEGER AS versions,
               coalesce(max(repeats), 0)::INTEGER AS planned_repeats,
               coalesce(min(repeats), 0)::INTEGER AS min_planned_repeats,
               coalesce(max(repeats) FILTER (WHERE repeats < (SELECT max(repeats) FROM plan)), 0)::INTEGER AS next_planned_repeats,
               count(*) FILTER (WHERE repeats = (SELECT max(repeats) FROM plan))::INTEGER AS most_repeats_cells
        FROM plan) p,
       (SELECT count(*)::INTEGER AS collected_cells, count(*) FILTER (WHERE NOT ok)::INTEGER AS failed_builds
        FROM (SELECT cell_id, bool_or(status = 'ok') AS ok FROM builds SEMI JOIN plan USING (cell_id) GROUP BY cell_id)) b,
       (SELECT count(DISTINCT cell_id) FILTER (WHERE status <> 'server_failed')::INTEGER AS measured_cells,
               count(*) FILTER (WHERE status <> 'server_failed')::INTEGER AS finished_runs,
               count(*) FILTER (WHERE status = 'server_failed')::INTEGER AS server_failed_runs
        FROM runs WHERE round_seed IS NULL) r,
       (SELECT count(DISTINCT test)::INTEGER AS tests FROM cell_status) t,
       (SELECT count(DISTINCT cell_id)::INTEGER AS counted_cells FROM counts WHERE status = 'ok' AND cell_id IN (SELECT cell_id FROM plan)) c`,
  );
}

/** A machine the numbers were measured on. */
export interface MachineRow {
  machine_id: string;
  hostname: string;
  cpu_model: string;
  /** "family 25 model 17 stepping 1"; null before collector 0.1.8 or off x86. */
  cpu_id: string | null;
  cores: number;
  memory_bytes: number;
  kernel: string;
  os: string;
  mem_write_bytes_per_s: number | null;
  measured_at: string | null;
  runs: number;
}

/** The machines of the selected hardware class (machine_hardware.selected), those with the most runs first. */
export function machinesQuery(): Query<MachineRow> {
  return query(
    `SELECT m.machine_id, m.hostname, m.cpu_model, m.cpu_id, m.cores::INTEGER AS cores, m.memory_bytes::DOUBLE AS memory_bytes,
            m.kernel, m.os, m.mem_write_bytes_per_s::DOUBLE AS mem_write_bytes_per_s,
            strftime(m.measured_at::TIMESTAMP, '%Y-%m-%d') AS measured_at,
            (SELECT count(*) FROM runs r WHERE r.machine_id = m.machine_id)::INTEGER AS runs
     FROM machines m SEMI JOIN (SELECT machine_id FROM machine_hardware WHERE selected) USING (machine_id)
     ORDER BY runs DESC, m.machine_id`,
  );
}

/** A compiler as the builds recorded it. */
export interface CompilerRow {
  compiler: string;
  cc: string;
  cc_version: string;
  builds: number;
}

/** Compilers in the plan's order, with the exact version line of each binary used. */
export function compilersQuery(): Query<CompilerRow> {
  return query(
    `SELECT b.compiler, b.cc, b.cc_version, count(*)::INTEGER AS builds
     FROM builds b LEFT JOIN (SELECT compiler, min(compiler_index) AS i FROM plan GROUP BY compiler) p USING (compiler)
     GROUP BY b.compiler, b.cc, b.cc_version, p.i
     ORDER BY p.i NULLS LAST, b.compiler, b.cc_version`,
  );
}

/** How one benchmark mode was run. */
export interface ProtocolRow {
  mode: string;
  client_version: string;
  client_args: string;
  runs: number;
  pinned: boolean;
}

/** The client and its arguments per mode, from the runs. */
export function protocolQuery(): Query<ProtocolRow> {
  return query(
    `SELECT mode, client_version, client_args, count(*)::INTEGER AS runs,
            bool_and(server_cpu >= 0 AND client_cpu >= 0) AS pinned
     FROM runs GROUP BY mode, client_version, client_args ORDER BY mode, runs DESC`,
  );
}

/** How one count mode was counted: Valgrind's command, the server's environment and settings, the client. */
export interface CountProtocolRow {
  mode: string;
  protocol: number | null;
  valgrind_version: string;
  command: string;
  env: string;
  settings: string;
  client_version: string;
  client_args: string;
  runs: number;
}

/**
 * The counting runs' protocol per mode, most runs first, with the paths that differ from run to run
 * left out (Valgrind's output file; the preloaded library's folder).
 */
export function countProtocolQuery(): Query<CountProtocolRow> {
  return query(
    `SELECT mode, protocol, valgrind_version,
            regexp_replace(command, '\\s+--callgrind-out-file=.*$', '') AS command,
            regexp_replace(env, 'LD_PRELOAD=\\S*/', 'LD_PRELOAD=') AS env,
            settings, client_version, client_args, count(*)::INTEGER AS runs
     FROM count_runs GROUP BY ALL ORDER BY mode, protocol DESC NULLS LAST, runs DESC`,
  );
}

/** When the data was collected (UTC, minutes), and by which collector versions. */
export interface DatesRow {
  first: string | null;
  last: string | null;
  collector_versions: string | null;
}

/** First and last timestamps over builds and runs. */
export function datesQuery(): Query<DatesRow> {
  return query(
    `WITH t AS (
       SELECT started_at::TIMESTAMP AS s, finished_at::TIMESTAMP AS f FROM builds
       UNION ALL SELECT started_at::TIMESTAMP, finished_at::TIMESTAMP FROM runs
     )
     SELECT strftime(min(s), '%Y-%m-%d %H:%M') AS first, strftime(max(f), '%Y-%m-%d %H:%M') AS last,
            (SELECT string_agg(DISTINCT collector_version, ', ') FROM builds) AS collector_versions
     FROM t`,
  );
}
