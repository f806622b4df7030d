/**
 * What the builds say about a change between two releases, per configuration: whether both
 * releases' counted builds are the same code (builds.code_sha256) or come from one source commit,
 * whether their compatibility flags differ (builds.compat_flags: -fcommon on 5.0.0-5.0.7), and
 * whether the bundled jemalloc changed version (builds.deps_jemalloc, when the builds table has
 * it: depColumnsQuery finds it; jemalloc is the one bundled dependency on the server's request
 * path: lua, hiredis and linenoise are not). The counted builds are those the
 * counting runs used (count_runs.build_id), read from every machine's builds (all_builds): a count
 * does not depend on the machine.
 */
import { query, type Query } from './query';

/** One configuration of one pair of releases where the builds know something. */
export interface ReleaseCauseRow {
  /** Position of the pair in the list given (0 = the oldest pair). */
  pair_index: number;
  compiler: string;
  flag_set: string;
  /** Both releases' counted builds are one and the same code (one code_sha256 on each side, equal). */
  same_code: boolean;
  /** Both releases were built from one source commit (builds.source_commit). */
  same_commit: boolean;
  /** The older and the newer build's compatibility flags ('' for none) when they differ, else null. */
  compat_from: string | null;
  compat_to: string | null;
  /** The bundled dependencies whose version differs ('' read as none), "jemalloc 4.0.3 → 4.4.0" joined by "; "; null for none. */
  deps_changed: string | null;
}

/** The builds columns of bundled dependencies whose version change is a likely cause of a change in the server's counts. */
const CAUSE_DEPS = ['deps_jemalloc'];

/**
 * Those of CAUSE_DEPS that the builds table has (all_builds: the schema lists them, or not in
 * data older than the columns).
 */
export function depColumnsQuery(): Query<{ column_name: string }> {
  return query(
    `SELECT column_name FROM information_schema.columns
     WHERE table_name = 'all_builds' AND column_name IN (${CAUSE_DEPS.map((c) => `'${c}'`).join(', ')})
     ORDER BY column_name`,
  );
}

/** A dependency column's name as people read it: deps_jemalloc -> jemalloc. */
export function depName(column: string): string {
  return column.replace(/^deps_/, '');
}


/**
 * Every configuration of `pairs` (each [older, newer]) whose builds share code or a source commit,
 * or differ in compatibility flags or in a dependency of `depColumns` (from depColumnsQuery: a column
 * the builds table lacks is never named);
 * ordered by pair and plan order.
 */
export function releaseCausesQuery(pairs: readonly (readonly [string, string])[], depColumns: readonly string[] = []): Query<ReleaseCauseRow> {
  if (!pairs.length) return query('SELECT * FROM (SELECT 0 AS pair_index) WHERE false');
  const deps = depColumns.filter((c) => CAUSE_DEPS.includes(c));
  const values = pairs.map((_, i) => `(?, ?, ${i})`).join(', ');
  const depAggregates = deps.map((c) => `, min("${c}")::VARCHAR AS "${c}"`).join('');
  const depChanges = deps.length
    ? `nullif(concat_ws('; ', ${deps.map((c) => `CASE WHEN a."${c}" <> b."${c}" THEN '${depName(c)} ' || coalesce(nullif(a."${c}", ''), 'none') || ' → ' || coalesce(nullif(b."${c}", ''), 'none') END`).join(', ')}), '')`
    : 'NULL::VARCHAR';
  return query(
    `WITH pairs(from_version, to_version, pair_index) AS (VALUES ${values}),
     counted AS (
       SELECT r.cell_id, min(b.code_sha256) AS code_min, max(b.code_sha256) AS code_max,
              min(b.source_commit) AS commit_min, max(b.source_commit) AS commit_max,
              min(coalesce(b.compat_flags, '')) AS compat${depAggregates}
       FROM (SELECT DISTINCT cell_id, build_id FROM count_runs) r JOIN all_builds b ON b.build_id = r.build_id
       GROUP BY r.cell_id
     ),
     compared AS (
       SELECT p.pair_index, pa.compiler, pa.flag_set, pa.compiler_index, pa.flag_index,
              coalesce(a.code_min = a.code_max AND b.code_min = b.code_max AND a.code_min = b.code_min AND a.code_min <> '', false) AS same_code,
              coalesce(a.commit_min = a.commit_max AND b.commit_min = b.commit_max AND a.commit_min = b.commit_min AND a.commit_min <> '', false) AS same_commit,
              CASE WHEN a.compat <> b.compat THEN a.compat END AS compat_from,
              CASE WHEN a.compat <> b.compat THEN b.compat END AS compat_to,
              ${depChanges} AS deps_changed
       FROM pairs p
       JOIN plan pa ON pa.version = p.from_version
       JOIN plan pb ON pb.version = p.to_version AND pb.compiler = pa.compiler AND pb.flag_set = pa.flag_set
       JOIN counted a ON a.cell_id = pa.cell_id
       JOIN counted b ON b.cell_id = pb.cell_id
     )
     SELECT pair_index::INTEGER AS pair_index, compiler, flag_set, same_code, same_commit, compat_from, compat_to, deps_changed
     FROM compared
     WHERE same_code OR same_commit OR compat_from IS NOT NULL OR deps_changed IS NOT NULL
     ORDER BY pair_index, compiler_index, flag_index`,
    pairs.flatMap(([a, b]) => [a, b]),
  );
}
