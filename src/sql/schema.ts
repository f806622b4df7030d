/**
 * The published tables (docs/data-schema.md): their files and columns. Each table is read with
 * exactly these columns and types, so a file that lacks one fails loudly when it is loaded, and an
 * empty table with the same shape stands in for a file the collector has not written yet.
 */

/** Table names, one Parquet file each under <base>/data/. */
export const TABLES = ['plan', 'builds', 'runs', 'results', 'machines', 'redone_runs', 'redone_results', 'counts', 'count_runs', 'count_runs_superseded', 'rebuild_bands'] as const;

/** One of the published tables. */
export type TableName = (typeof TABLES)[number];

/** The table without which nothing can be shown: it defines the matrix. */
export const REQUIRED_TABLE: TableName = 'plan';

/**
 * The name a published file is read under: `all_<table>`, except machines and rebuild_bands. The queries read the
 * names without the prefix, views (src/sql/hardware.ts, src/sql/load.ts planViewsSql) of the
 * configurations shown (the reference ones, or with the extended ones too) and, for builds, runs,
 * results and the redone runs and results, of one hardware class; counts, count_runs and
 * count_runs_superseded are one dataset for every machine (a count does not depend on the CPU).
 */
export function storedName(table: TableName): string {
  return table === 'machines' || table === 'rebuild_bands' ? table : `all_${table}`;
}

/** File name of a table inside the data folder. */
export function tableFile(table: TableName): string {
  return `${table}.parquet`;
}

const RUNS = {
  run_id: 'VARCHAR', cell_id: 'VARCHAR', version: 'VARCHAR', compiler: 'VARCHAR', flag_set: 'VARCHAR',
  build_id: 'VARCHAR', mode: 'VARCHAR', repeat: 'INTEGER', status: 'VARCHAR', client_version: 'VARCHAR',
  client_args: 'VARCHAR', server_cpu: 'INTEGER', client_cpu: 'INTEGER', load1_before: 'DOUBLE',
  load1_after: 'DOUBLE', other_cpu: 'VARCHAR', raw_output: 'VARCHAR', duration_seconds: 'DOUBLE',
  started_at: 'TIMESTAMP', finished_at: 'TIMESTAMP', machine_id: 'VARCHAR', mem_write_before: 'DOUBLE',
  mem_write_after: 'DOUBLE', steal_pct: 'DOUBLE', round_seed: 'BIGINT', round_position: 'INTEGER',
} as const;

const RESULTS = {
  run_id: 'VARCHAR', build_id: 'VARCHAR', cell_id: 'VARCHAR', version: 'VARCHAR', compiler: 'VARCHAR',
  flag_set: 'VARCHAR', mode: 'VARCHAR', repeat: 'INTEGER', test: 'VARCHAR', test_index: 'INTEGER',
  status: 'VARCHAR', rps: 'DOUBLE', avg_latency_ms: 'DOUBLE', min_latency_ms: 'DOUBLE',
  p50_latency_ms: 'DOUBLE', p95_latency_ms: 'DOUBLE', p99_latency_ms: 'DOUBLE', max_latency_ms: 'DOUBLE',
  error: 'VARCHAR', requests: 'BIGINT', server_user_s: 'DOUBLE', server_sys_s: 'DOUBLE', server_busy: 'DOUBLE',
  client_user_s: 'DOUBLE', client_sys_s: 'DOUBLE', client_busy: 'DOUBLE',
} as const;

/** Where the server's and the client's time went in a test (collector 0.3.0 on; NULL before). */
const CPU_COLUMNS = ['server_user_s', 'server_sys_s', 'server_busy', 'client_user_s', 'client_sys_s', 'client_busy'];

const COUNT_RUNS = {
  run_id: 'VARCHAR', cell_id: 'VARCHAR', version: 'VARCHAR', compiler: 'VARCHAR', flag_set: 'VARCHAR',
  build_id: 'VARCHAR', mode: 'VARCHAR', repeat: 'INTEGER', status: 'VARCHAR', valgrind_version: 'VARCHAR',
  command: 'VARCHAR', env: 'VARCHAR', settings: 'VARCHAR', client_version: 'VARCHAR', client_args: 'VARCHAR',
  raw_output: 'VARCHAR', duration_seconds: 'DOUBLE', started_at: 'TIMESTAMP', finished_at: 'TIMESTAMP',
  machine_id: 'VARCHAR', guest_cpu: 'VARCHAR', protocol: 'INTEGER', redone: 'VARCHAR',
} as const;

/** Column name -> DuckDB type, in the documented order. */
export const SCHEMA: Readonly<Record<TableName, Readonly<Record<string, string>>>> = {
  plan: {
    cell_id: 'VARCHAR', version: 'VARCHAR', version_index: 'INTEGER', compiler: 'VARCHAR',
    compiler_index: 'INTEGER', flag_set: 'VARCHAR', flag_index: 'INTEGER', cc: 'VARCHAR',
    cflags: 'VARCHAR', modes: 'VARCHAR', repeats: 'INTEGER', current: 'BOOLEAN', extended: 'BOOLEAN',
  },
  builds: {
    build_id: 'VARCHAR', cell_id: 'VARCHAR', version: 'VARCHAR', compiler: 'VARCHAR', flag_set: 'VARCHAR',
    status: 'VARCHAR', error: 'VARCHAR', log_tail: 'VARCHAR', cc: 'VARCHAR', cc_path: 'VARCHAR',
    cc_version: 'VARCHAR', cflags: 'VARCHAR', ldflags: 'VARCHAR', compat_flags: 'VARCHAR',
    deps_get_flags: 'BOOLEAN', make_args: 'VARCHAR', source_kind: 'VARCHAR', source_ref: 'VARCHAR',
    source_commit: 'VARCHAR', source_sha256: 'VARCHAR', source_verified: 'BOOLEAN',
    source_seconds: 'DOUBLE', deps_seconds: 'DOUBLE', build_seconds: 'DOUBLE', binary_bytes: 'BIGINT',
    started_at: 'TIMESTAMP', finished_at: 'TIMESTAMP', machine_id: 'VARCHAR', collector_version: 'VARCHAR',
    redis_build_id: 'VARCHAR', code_sha256: 'VARCHAR', code_identified_by: 'VARCHAR', jemalloc_lg_vaddr: 'INTEGER',
    pgo_training: 'VARCHAR', pgo_profile_sha256: 'VARCHAR',
    deps_jemalloc: 'VARCHAR', deps_lua: 'VARCHAR', deps_hiredis: 'VARCHAR', deps_linenoise: 'VARCHAR',
  },
  runs: RUNS,
  results: RESULTS,
  machines: {
    machine_id: 'VARCHAR', hostname: 'VARCHAR', cpu_model: 'VARCHAR', cores: 'INTEGER',
    memory_bytes: 'BIGINT', kernel: 'VARCHAR', os: 'VARCHAR', mem_write_bytes_per_s: 'DOUBLE',
    measured_at: 'TIMESTAMP', collector_version: 'VARCHAR', cpu_id: 'VARCHAR', hardware_class: 'VARCHAR',
  },
  // Runs measured again (collector 0.1.7): the discarded run as it was, why, and its replacement.
  redone_runs: { ...RUNS, redo_reason: 'VARCHAR', replaced_by: 'VARCHAR' },
  redone_results: RESULTS,
  // The counted instrument (collector count): one row per counting run and test, per request
  // figures NULL unless status is ok; one row per counting run (cell x mode x repeat).
  counts: {
    run_id: 'VARCHAR', build_id: 'VARCHAR', cell_id: 'VARCHAR', version: 'VARCHAR', compiler: 'VARCHAR',
    flag_set: 'VARCHAR', mode: 'VARCHAR', repeat: 'INTEGER', test: 'VARCHAR', test_index: 'INTEGER',
    status: 'VARCHAR', requests: 'BIGINT', instructions_per_request: 'DOUBLE', l1_misses_per_request: 'DOUBLE',
    ll_misses_per_request: 'DOUBLE', branch_misses_per_request: 'DOUBLE', est_cycles_per_request: 'DOUBLE',
    ir: 'BIGINT', dr: 'BIGINT', dw: 'BIGINT', i1mr: 'BIGINT', d1mr: 'BIGINT', d1mw: 'BIGINT', ilmr: 'BIGINT',
    dlmr: 'BIGINT', dlmw: 'BIGINT', bc: 'BIGINT', bcm: 'BIGINT', bi: 'BIGINT', bim: 'BIGINT', error: 'VARCHAR',
  },
  count_runs: COUNT_RUNS,
  // Counting runs set aside (collector count): earlier protocols' runs, and runs counted again
  // (repeats that differed, a build without a code hash, ...), with why (redone). In count_runs,
  // redone marks a run to be counted again: it counts until its recount replaces it.
  count_runs_superseded: COUNT_RUNS,
  // How far each counted metric moves between two builds of one cell from the same inputs: the
  // floor of its noise bands (src/sql/noise.ts), written by the collector with the counts; a data
  // folder without the file (written before it) has an empty table, and the floor is 0.
  rebuild_bands: {
    metric: 'VARCHAR', band: 'DOUBLE', p50: 'DOUBLE', p95: 'DOUBLE', max: 'DOUBLE', pairs: 'INTEGER',
    identical_code_pairs: 'INTEGER', cells: 'INTEGER', tests: 'INTEGER', runs: 'INTEGER', superseded_runs: 'INTEGER',
    protocol: 'INTEGER',
  },
};

const LATENCIES = ['avg_latency_ms', 'min_latency_ms', 'p95_latency_ms', 'p99_latency_ms', 'max_latency_ms'];

/**
 * Columns that nothing on the first screen reads and that make up most of their file: a run's raw
 * client output, a build's log tail, the latency figures other than p50, the tests' CPU figures
 * (read by "Server time" only), the counters behind the counted figures. The build splits each
 * such table into a lean file without them and a file of (key, columns) (scripts/siteData.ts), so
 * the page fetches them only when something asks for them (the status grid's build logs, the SQL
 * console, a p95 or p99 latency metric: src/sql/load.ts, lazyReaders). `key` identifies a row (the
 * build checks it is unique); every key column is VARCHAR.
 */
/**
 * Columns a table's file may lack, read as NULL then: written by newer collectors only
 * (plan.current, collector 0.2.0: null in older plans, which held only current versions;
 * plan.extended: null in plans written before the extended flag sets).
 */
export const OPTIONAL_COLUMNS: Readonly<Partial<Record<TableName, readonly string[]>>> = {
  plan: ['current', 'extended'],
  // Recorded from the profile-guided builds on, and the bundled dependencies as the release
  // ships them, and the counting run that identified a build without a code hash (docs/data-schema.md):
  // null in builds recorded before the columns.
  builds: ['pgo_training', 'pgo_profile_sha256', 'deps_jemalloc', 'deps_lua', 'deps_hiredis', 'deps_linenoise', 'code_identified_by'],
  // Recorded from collector 0.2.0 on (docs/data-schema.md).
  count_runs: ['guest_cpu', 'protocol', 'redone'],
  count_runs_superseded: ['guest_cpu', 'protocol', 'redone'],
  results: CPU_COLUMNS,
  redone_results: CPU_COLUMNS,
};

export const LAZY_COLUMNS: Readonly<Partial<Record<TableName, { readonly key: readonly string[]; readonly columns: readonly string[] }>>> = {
  builds: { key: ['build_id'], columns: ['log_tail'] },
  runs: { key: ['run_id'], columns: ['raw_output'] },
  redone_runs: { key: ['run_id'], columns: ['raw_output'] },
  results: { key: ['run_id', 'test'], columns: [...LATENCIES, ...CPU_COLUMNS] },
  redone_results: { key: ['run_id', 'test'], columns: [...LATENCIES, ...CPU_COLUMNS] },
  count_runs: { key: ['run_id'], columns: ['raw_output'] },
  count_runs_superseded: { key: ['run_id'], columns: ['raw_output'] },
  // The simulated misses and the counters behind the per-request figures: the first screen reads
  // instructions and cycles only; a query on a misses metric's view fetches them (lazyReaders).
  counts: {
    key: ['run_id', 'test'],
    columns: ['l1_misses_per_request', 'll_misses_per_request', 'branch_misses_per_request', 'ir', 'dr', 'dw', 'i1mr', 'd1mr', 'd1mw', 'ilmr', 'dlmr', 'dlmw', 'bc', 'bcm', 'bi', 'bim'],
  },
};

/** The lean file of a split table (all columns but its lazy ones), inside the data folder. */
export function leanFile(table: TableName): string {
  return `split/${table}.parquet`;
}

/** The file of a split table's lazy columns, with its key. */
export function lazyFile(table: TableName): string {
  return `split/${table}.lazy.parquet`;
}

/**
 * The table the page loads a split table's lazy columns into (empty until asked for), in a schema
 * of its own so that the console's list of tables (schema main) does not show it.
 */
export function lazyTable(table: TableName): string {
  return `lazy.${storedName(table)}`;
}
