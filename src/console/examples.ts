/** Example queries offered in the SQL console: starting points over the published tables. */

/** An example: a name for the menu and its SQL. */
export interface Example {
  readonly name: string;
  readonly sql: string;
}

/** The examples, in menu order. */
export const EXAMPLES: readonly Example[] = [
  {
    name: 'Every configuration of one test, fastest first',
    sql: `-- Best and worst repeat of every configuration for SET in data mode
SELECT version, compiler, flag_set, max(rps) AS best_rps, min(rps) AS worst_rps, count(rps) AS repeats
FROM results
WHERE test = 'SET' AND mode = 'data' AND status = 'ok'
GROUP BY ALL
ORDER BY best_rps DESC`,
  },
  {
    name: 'gcc against clang per version (geometric mean over tests)',
    sql: `-- Each configuration's best repeat per test, then the geometric mean per compiler
WITH best AS (
  SELECT version, compiler, flag_set, mode, test, max(rps) AS rps
  FROM results WHERE status = 'ok' GROUP BY ALL
)
SELECT version, mode, compiler, round(exp(avg(ln(rps)))) AS geomean_rps, count(*) AS tests
FROM best JOIN versions USING (version)
GROUP BY version, ord, mode, compiler
ORDER BY ord, mode, compiler`,
  },
  {
    name: 'Run-to-run spread of each measurement',
    sql: `-- How far apart the repeats of one cell, mode and test are, largest spread first
SELECT version, compiler, flag_set, mode, test, count(*) AS repeats,
       min(rps) AS min_rps, max(rps) AS max_rps,
       round(100 * (max(rps) - min(rps)) / max(rps), 2) AS spread_percent
FROM results
WHERE status = 'ok'
GROUP BY ALL
HAVING count(*) > 1
ORDER BY spread_percent DESC`,
  },
  {
    name: 'Instructions per request of every configuration (counted), cheapest first',
    sql: `-- The counted instrument (collector count, one dataset for every machine): Valgrind's
-- instructions and estimated cycles per request for GET in data mode, each configuration's
-- cheapest repeat and the spread of its repeats; lower is better.
SELECT version, compiler, flag_set, count(*) AS repeats,
       round(min(instructions_per_request), 1) AS instructions_per_request,
       round(min(est_cycles_per_request), 1) AS est_cycles_per_request,
       round(100 * (max(instructions_per_request) - min(instructions_per_request)) / min(instructions_per_request), 4) AS spread_percent
FROM counts
WHERE test = 'GET' AND mode = 'data' AND status = 'ok'
GROUP BY ALL
ORDER BY version, instructions_per_request`,
  },
  {
    name: 'Simulated cache misses and branch mispredictions per request (counted), per configuration',
    sql: `-- Callgrind's simulated caches (32 KiB 8-way L1s, 8 MiB 16-way last level, 64-byte lines) and
-- branch predictor, not the hardware's counters: per request for SET in pipe mode, each
-- configuration's cheapest repeat; lower is better.
SELECT version, compiler, flag_set, count(*) AS repeats,
       round(min(l1_misses_per_request), 3) AS l1_misses_per_request,
       round(min(ll_misses_per_request), 5) AS ll_misses_per_request,
       round(min(branch_misses_per_request), 3) AS branch_misses_per_request
FROM counts
WHERE test = 'SET' AND mode = 'pipe' AND status = 'ok'
GROUP BY ALL
ORDER BY version, l1_misses_per_request`,
  },
  {
    name: 'Builds that failed, and why',
    sql: `SELECT version, compiler, flag_set, cc_version, error
FROM builds
WHERE status = 'failed'
ORDER BY version, compiler, flag_set`,
  },
  {
    name: 'Tests a server did not run',
    sql: `SELECT version, mode, test, status, any_value(error) AS error, count(*) AS results
FROM results
WHERE status <> 'ok'
GROUP BY ALL
ORDER BY version, mode, test`,
  },
  {
    name: 'Machine load around the runs',
    sql: `SELECT machine_id, mode, count(*) AS runs,
       round(avg(load1_before), 2) AS avg_load_before, round(max(load1_after), 2) AS max_load_after,
       round(avg(duration_seconds), 1) AS avg_seconds
FROM runs
GROUP BY ALL
ORDER BY machine_id, mode`,
  },
];
