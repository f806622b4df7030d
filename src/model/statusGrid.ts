/**
 * What the status grid shows, made from its query rows (src/sql/status.ts): the grid's layout and
 * each cell's mark and description, and, for the cell a reader opens, its build's facts, its runs
 * and its runs measured again, as text. The view only puts them on the page.
 */
import type { CountRunRow, SupersededCountRunRow } from '../sql/countRuns';
import type { BuildDetailRow, GridRow, GridStatus, RedoneRunRow, RedoneSummaryRow, RunDetailRow } from '../sql/status';
import type { ConfigRef, Metric } from '../vocabulary';
import { configKey } from './analysisState';
import { hostBusy, othersBusy } from './bars';
import { formatChange } from './changeText';
import { formatBytes } from './format';

/** How each status is marked: a glyph (so colour is not needed) and a word. */
export const GRID_STATUS: Readonly<Record<GridStatus, { readonly glyph: string; readonly label: string }>> = {
  ok: { glyph: '✓', label: 'ok' },
  partial: { glyph: '◐', label: 'repeats to come' },
  server_failed: { glyph: '⚠', label: 'server failed' },
  build_failed: { glyph: '✗', label: 'build failed' },
  not_collected: { glyph: '·', label: 'not collected' },
};

/** The legend's last entry, after one per status. */
export const REPEATS_LEGEND = 'n/m: repeats measured of planned (the mode with fewest)';

/** The grid's caption in `metric`'s instrument. */
export function gridCaption(metric: Metric): string {
  return `${metric.kind === 'counted' ? 'Counting status (Valgrind, every machine)' : 'Collection status'}: one row per Redis version, one column per configuration`;
}

/** The accessible name and tooltip of a grid cell. */
export function gridCellText(row: GridRow): string {
  const where = `Redis ${row.version} ${row.compiler} ${row.flag_set}`;
  const repeats = `${row.min_repeats} of ${row.planned_repeats} repeats measured${row.modes > 1 ? ' in every mode' : ''}`;
  const parts = [`${where}: ${GRID_STATUS[row.status].label}`];
  if (row.status === 'build_failed') parts.push(row.build_error ?? 'no error recorded');
  if (row.status !== 'not_collected' && row.status !== 'build_failed') parts.push(repeats);
  if (row.server_failed_runs) parts.push(`${row.server_failed_runs} run${row.server_failed_runs === 1 ? '' : 's'} where the server failed`);
  if (row.failed_tests) parts.push(`${row.failed_tests} test result${row.failed_tests === 1 ? '' : 's'} failed in every repeat`);
  if (row.build_attempts > 1) parts.push(`${row.build_attempts} builds (retries, or one per machine)`);
  return `${parts.join('; ')}. Show its build and runs.`;
}

/** A grid cell's mark: its status glyph and, once anything ran, "repeats/planned" ("✓ 3/3"). */
export function gridCellMark(row: GridRow): string {
  const repeats = row.status === 'not_collected' || row.status === 'build_failed' ? '' : ` ${row.min_repeats}/${row.planned_repeats}`;
  return `${GRID_STATUS[row.status].glyph}${repeats}`;
}

/** The grid's layout: compilers over their flag sets, and a row per version with a cell per configuration (null: no row for it). */
export interface GridLayout {
  /** Each compiler with the number of its configurations (the header's column span). */
  readonly compilers: readonly { readonly compiler: string; readonly span: number }[];
  readonly rows: readonly { readonly version: string; readonly cells: readonly { readonly id: string; readonly row: GridRow | null }[] }[];
}

/** Lays `rows` out by version (release order) and configuration (plan order). */
export function gridLayout(rows: readonly GridRow[], versions: readonly string[], configs: readonly ConfigRef[]): GridLayout {
  const byId = new Map(rows.map((r) => [r.cell_id, r]));
  const compilers = [...new Set(configs.map((c) => c.compiler))];
  return {
    compilers: compilers.map((compiler) => ({ compiler, span: configs.filter((x) => x.compiler === compiler).length })),
    rows: versions.map((version) => ({
      version,
      cells: configs.map((config) => {
        const id = `${version}|${configKey(config)}`;
        return { id, row: byId.get(id) ?? null };
      }),
    })),
  };
}

/** A build's time and binary: "95 s (+40 s dependencies), redis-server 2.3 MiB". */
export function buildFigures(build: BuildDetailRow): string {
  return `${build.build_seconds.toFixed(0)} s (+${build.deps_seconds.toFixed(0)} s dependencies), redis-server ${formatBytes(build.binary_bytes)}`;
}

/** A code hash as shown: its first 12 hex digits. */
export function shortCode(sha: string): string {
  return sha.slice(0, 12);
}

/**
 * Every build of the cell, one line each: a retry after a failure, or the rebuild on each machine
 * that measured it (each machine's runs use its own build; one code hash shows they are the same binary).
 */
export function allBuildsLines(builds: readonly BuildDetailRow[]): string[] {
  return builds.map((b) => `${b.status} on machine ${b.machine_id}${b.finished_at ? `, ${b.finished_at} UTC` : ''}`
    + `${b.status === 'ok' ? `: ${buildFigures(b)}${b.code_sha256 ? `, code ${shortCode(b.code_sha256)}${b.code_identified_by ? ' (identified by its counts)' : ''}` : ''}` : b.error ? `: ${b.error}` : ''}`);
}

/**
 * What a build's code hash, build ID and jemalloc's virtual address bits say:
 * "sha256 3d4667a4…; REDIS_BUILD_ID 1700000000; jemalloc for 48-bit addresses".
 */
export function codeText(build: Pick<BuildDetailRow, 'code_sha256' | 'redis_build_id' | 'jemalloc_lg_vaddr'>): string {
  const id = build.redis_build_id === null ? 'REDIS_BUILD_ID not recorded (host name and build time)'
    : build.redis_build_id === '' ? 'no REDIS_BUILD_ID (2.6)' : `REDIS_BUILD_ID ${build.redis_build_id}`;
  const lg = build.jemalloc_lg_vaddr === null ? "jemalloc's address bits not recorded (then the build host's)"
    : build.jemalloc_lg_vaddr === 0 ? 'jemalloc without address bits (before 5.0)'
      : `jemalloc for ${build.jemalloc_lg_vaddr}-bit addresses${build.jemalloc_lg_vaddr === 48 ? '' : ' (the build host\'s, not the fixed 48)'}`;
  return `${build.code_sha256 ? `sha256 ${build.code_sha256}` : 'not recorded'}; ${id}; ${lg}`;
}

/** One fact of a build: a term and its value, or its lines (a list). */
export interface BuildFact {
  readonly term: string;
  readonly value: string | readonly string[];
}

/** The facts of a cell's build (the first of `builds`, the one the site uses), and every build when there are several. */
export function buildFacts(builds: readonly BuildDetailRow[]): BuildFact[] {
  const build = builds[0];
  if (!build) return [];
  const source = `${build.source_kind} ${build.source_ref}${build.source_commit ? ` (commit ${build.source_commit})` : ''}${build.source_verified ? ', checksum verified' : ''}`;
  return [
    { term: 'Build', value: `${build.status}${build.error ? `: ${build.error}` : ''}${build.finished_at ? `, ${build.finished_at} UTC` : ''}, machine ${build.machine_id}` },
    { term: 'Compiler', value: `${build.cc} (${build.cc_path}): ${build.cc_version}` },
    { term: 'CFLAGS (OPTIMIZATION)', value: build.cflags || '(none)' },
    { term: 'LDFLAGS (REDIS_LDFLAGS)', value: build.ldflags || '(none)' },
    { term: 'Compatibility flags', value: build.compat_flags || '(none)' },
    { term: 'Dependencies built with the flags', value: build.deps_get_flags ? 'yes' : 'no' },
    { term: 'Make command', value: build.make_args },
    { term: 'Source', value: source },
    ...(build.status === 'ok' ? [{ term: 'Build time, binary', value: buildFigures(build) }, { term: 'Code (mapped sections)', value: codeText(build) }] : []),
    ...(builds.length > 1 ? [{ term: `All ${builds.length} builds`, value: allBuildsLines(builds) }] : []),
  ];
}

/** Other processes' CPU use during a run, flagged when the run counts as busy. */
export function othersText(busyPct: number | null): string {
  if (busyPct === null) return 'not recorded';
  return `${othersBusy(busyPct) ? '⚠ ' : ''}${Math.round(busyPct)}%`;
}

/** The host-speed probe around a run: "45.1 → 44.8 GB/s". */
export function memWriteText(before: number | null, after: number | null): string {
  if (before === null || after === null) return 'not recorded';
  return `${(before / 1e9).toFixed(1)} → ${(after / 1e9).toFixed(1)} GB/s`;
}

/** The host's steal during a run: "1.2%", "⚠ 24.1%" above the busy threshold, "not recorded" before collector 0.1.6. */
export function stealText(stealPct: number | null): string {
  return stealPct === null ? 'not recorded' : `${hostBusy(stealPct) ? '⚠ ' : ''}${stealPct.toFixed(1)}%`;
}

/** A run's speed against the run that replaced it: "−20.0% (0.80×)"; "no figures to compare" without. */
export function speedText(speed: number | null): string {
  return speed === null ? 'no figures to compare' : `${formatChange(speed)} (${speed.toFixed(2)}×)`;
}

/** A table of text: its header cells and a row of cells per item. */
export interface TextTable {
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** A cell's benchmark runs, a row each. */
export function runsTable(runs: readonly RunDetailRow[]): TextTable {
  return {
    headers: ['Mode', 'Repeat', 'Run', 'Tests ok / failed / unsupported', 'Duration', 'Load before → after', 'Others\' CPU',
      'Memory write before → after', 'Host steal', 'Machine', 'Started (UTC)'],
    rows: runs.map((r) => [r.mode, String(r.repeat), r.status, `${r.ok_tests} / ${r.failed_tests} / ${r.unsupported_tests}`,
      `${r.duration_seconds.toFixed(0)} s`, `${r.load1_before.toFixed(2)} → ${r.load1_after.toFixed(2)}`, othersText(r.busy_pct),
      memWriteText(r.mem_write_before, r.mem_write_after), stealText(r.steal_pct), r.machine_id, r.started_at ?? '']),
  };
}

/**
 * A cell's counting runs under Valgrind (the counted instrument), a row each; a run marked to be
 * counted again says why (its counts stand until its recount replaces it).
 */
export function countRunsTable(runs: readonly CountRunRow[]): TextTable {
  return {
    headers: ['Mode', 'Repeat', 'Run', 'Tests counted / failed / unsupported', 'Valgrind', 'Duration', 'Machine', 'Started (UTC)',
      'To be counted again'],
    rows: runs.map((r) => [r.mode, String(r.repeat), r.status, `${r.ok_tests} / ${r.failed_tests} / ${r.unsupported_tests}`,
      r.valgrind_version, `${r.duration_seconds.toFixed(0)} s`, r.machine_id, r.started_at ?? '', r.redone ? `yes: ${r.redone}` : 'no']),
  };
}

/**
 * The cell's counting runs set aside: why each was (counted again because the repeats differed,
 * or an earlier counting protocol), with its machine and start.
 */
export function supersededCountRunsTable(runs: readonly SupersededCountRunRow[]): TextTable {
  return {
    headers: ['Mode', 'Repeat', 'Run', 'Why set aside', 'Protocol', 'Machine', 'Started (UTC)'],
    rows: runs.map((r) => [r.mode, String(r.repeat), r.status, r.redone ? `counted again: ${r.redone}` : 'an earlier counting protocol',
      String(r.protocol ?? 1), r.machine_id, r.started_at ?? '']),
  };
}

/**
 * The cell's runs measured again (-redo-noisy, -redo-steal, -retry-failed, -redo-before): kept as
 * they were, with why, and how fast they were against the run that replaced them. The charts use
 * only the replacements.
 */
export function redoneTable(redone: readonly RedoneRunRow[]): TextTable {
  return {
    headers: ['Mode', 'Repeat', 'Run', 'Why measured again', 'Others\' CPU', 'Host steal', 'Speed against its replacement (median over tests)',
      'Started (UTC)', 'Replacement started (UTC)'],
    rows: redone.map((r) => [r.mode, String(r.repeat), r.status, r.redo_reason, othersText(r.busy_pct), stealText(r.steal_pct),
      speedText(r.speed), r.started_at ?? '', r.replaced_at ?? '']),
  };
}

/** One line on the runs measured again on this hardware: how many per mode, and how much slower they were. */
export function redoneSummaryText(rows: readonly RedoneSummaryRow[]): string {
  const total = rows.reduce((n, r) => n + r.runs, 0);
  if (!total) return 'No run on this hardware was measured again.';
  const perMode = rows.map((r) => `${r.mode} mode ${r.runs}${r.median_speed === null ? '' : `, a median ${formatChange(r.median_speed)} against their replacements (${r.compared} compared)`}`);
  return `Runs measured again on this hardware (busy machine, host steal, failed server or an older measurement; kept, not charted; each cell lists its own): ${total}: ${perMode.join('; ')}.`;
}
