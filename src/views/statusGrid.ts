/**
 * The status grid: versions × configurations, each cell saying how far its collection got (ok,
 * repeats still to come, server failed, build failed, not collected) and how many repeats are
 * measured; a click shows the cell's build (flags, compiler, log tail) and its runs.
 */
import { configKey, parseCellId } from '../model/analysisState';
import { hostBusy, othersBusy } from '../model/bars';
import { configName, formatChange } from '../model/changeText';
import { formatBytes } from '../model/format';
import { countCoverageText } from '../model/metricSummary';
import { countCoverageQuery } from '../sql/counted';
import type { AppState } from '../model/state';
import {
  type BuildDetailRow, cellBuildsQuery, cellRedoneQuery, cellRunsQuery, type GridRow, type GridStatus, type RedoneRunRow,
  type RedoneSummaryRow, redoneSummaryQuery, type RunDetailRow, statusGridQuery,
} from '../sql/status';
import { h } from '../ui/dom';
import { type AnalysisContext, type SectionView, showSectionError } from './context';
import { sectionFrame } from '../ui/section';
import { type ConfigRef, type Metric, metricOf } from '../vocabulary';

/** How each status is shown: a glyph (so colour is not needed), a word, and a tint class. */
export const GRID_STYLE: Readonly<Record<GridStatus, { glyph: string; label: string; tint: string }>> = {
  ok: { glyph: '✓', label: 'ok', tint: 'bg-emerald-50 text-emerald-900' },
  partial: { glyph: '◐', label: 'repeats to come', tint: 'bg-sky-50 text-sky-900' },
  server_failed: { glyph: '⚠', label: 'server failed', tint: 'bg-amber-100 text-amber-900' },
  build_failed: { glyph: '✗', label: 'build failed', tint: 'bg-red-100 text-red-900' },
  not_collected: { glyph: '·', label: 'not collected', tint: 'border border-dashed border-slate-400 text-slate-600' },
};

/** The accessible name and tooltip of a grid cell. */
export function gridCellText(row: GridRow): string {
  const where = `Redis ${row.version} ${row.compiler} ${row.flag_set}`;
  const repeats = `${row.min_repeats} of ${row.planned_repeats} repeats measured${row.modes > 1 ? ' in every mode' : ''}`;
  const parts = [`${where}: ${GRID_STYLE[row.status].label}`];
  if (row.status === 'build_failed') parts.push(row.build_error ?? 'no error recorded');
  if (row.status !== 'not_collected' && row.status !== 'build_failed') parts.push(repeats);
  if (row.server_failed_runs) parts.push(`${row.server_failed_runs} run${row.server_failed_runs === 1 ? '' : 's'} where the server failed`);
  if (row.failed_tests) parts.push(`${row.failed_tests} test result${row.failed_tests === 1 ? '' : 's'} failed in every repeat`);
  if (row.build_attempts > 1) parts.push(`${row.build_attempts} builds (retries, or one per machine)`);
  return `${parts.join('; ')}. Show its build and runs.`;
}

function grid(rows: readonly GridRow[], versions: readonly string[], configs: readonly ConfigRef[], open: string | null, onCell: (id: string) => void, metric: Metric): HTMLElement {
  const byId = new Map(rows.map((r) => [r.cell_id, r]));
  const compilers = [...new Set(configs.map((c) => c.compiler))];
  const th = (text: string, attrs: Record<string, string> = {}) =>
    h('th', { class: 'border-b border-slate-300 px-1 py-1 text-center text-xs font-semibold text-slate-700', attrs: { scope: 'col', ...attrs } }, text);
  return h('table', { class: 'status-grid border-collapse text-sm' },
    h('caption', { class: 'mb-1 text-left text-sm font-semibold text-slate-800' },
      `${metric.kind === 'counted' ? 'Counting status (Valgrind, every machine)' : 'Collection status'}: one row per Redis version, one column per configuration`),
    h('thead', {},
      h('tr', {}, h('td'), ...compilers.map((c) => th(c, { colspan: String(configs.filter((x) => x.compiler === c).length) }))),
      h('tr', {}, th('Version'), ...configs.map((c) => th(c.flag_set))),
    ),
    h('tbody', {}, ...versions.map((version) => h('tr', {},
      h('th', { class: 'px-2 py-1 text-left font-medium', attrs: { scope: 'row' } }, version),
      ...configs.map((config) => {
        const id = `${version}|${configKey(config)}`;
        const row = byId.get(id);
        if (!row) return h('td', { class: 'px-1 py-1 text-center text-slate-400' }, '');
        const style = GRID_STYLE[row.status];
        const repeats = row.status === 'not_collected' || row.status === 'build_failed' ? '' : ` ${row.min_repeats}/${row.planned_repeats}`;
        return h('td', { class: 'p-0.5' }, h('button', {
          class: `w-full min-w-14 rounded px-1 py-1 text-center text-xs tabular-nums hover:ring-2 hover:ring-slate-400 aria-pressed:ring-2 aria-pressed:ring-slate-900 ${style.tint}`,
          attrs: {
            type: 'button', 'data-cell': id, 'data-status': row.status, 'aria-pressed': String(open === id),
            'aria-label': gridCellText(row), title: gridCellText(row),
          },
          on: { click: () => onCell(id) },
        }, `${style.glyph}${repeats}`));
      }),
    ))),
  );
}

function legend(): HTMLElement {
  return h('ul', { class: 'mb-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700', attrs: { 'aria-label': 'Status legend' } },
    ...Object.values(GRID_STYLE).map((s) => h('li', {}, h('span', { class: `mr-1 rounded px-1 ${s.tint}` }, s.glyph), s.label)),
    h('li', {}, 'n/m: repeats measured of planned (the mode with fewest)'));
}

function item(term: string, value: string | Node): HTMLElement[] {
  return [h('dt', { class: 'font-semibold text-slate-700' }, term), h('dd', { class: 'mb-1 break-words font-mono text-xs text-slate-900' }, value)];
}

function buildDetails(builds: readonly BuildDetailRow[]): HTMLElement {
  const build = builds[0];
  if (!build) return h('p', { class: 'text-sm text-slate-700' }, 'Not built yet: the collector has not reached this cell.');
  const source = `${build.source_kind} ${build.source_ref}${build.source_commit ? ` (commit ${build.source_commit})` : ''}${build.source_verified ? ', checksum verified' : ''}`;
  return h('div', {},
    h('dl', { class: 'build-flags grid grid-cols-1 gap-x-4 sm:grid-cols-[12rem_1fr]' },
      ...item('Build', `${build.status}${build.error ? `: ${build.error}` : ''}${build.finished_at ? `, ${build.finished_at} UTC` : ''}, machine ${build.machine_id}`),
      ...item('Compiler', `${build.cc} (${build.cc_path}): ${build.cc_version}`),
      ...item('CFLAGS (OPTIMIZATION)', build.cflags || '(none)'),
      ...item('LDFLAGS (REDIS_LDFLAGS)', build.ldflags || '(none)'),
      ...item('Compatibility flags', build.compat_flags || '(none)'),
      ...item('Dependencies built with the flags', build.deps_get_flags ? 'yes' : 'no'),
      ...item('Make command', build.make_args),
      ...item('Source', source),
      ...(build.status === 'ok' ? item('Build time, binary', buildFigures(build)) : []),
      ...(builds.length > 1 ? item(`All ${builds.length} builds`, allBuilds(builds)) : []),
    ),
    h('p', { class: 'mt-2 text-sm font-semibold text-slate-700' }, 'Build log (last lines)'),
    h('pre', { class: 'build-log mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-100 p-2 font-mono text-xs text-slate-900' }, build.log_tail || '(empty)'),
  );
}

function buildFigures(build: BuildDetailRow): string {
  return `${build.build_seconds.toFixed(0)} s (+${build.deps_seconds.toFixed(0)} s dependencies), redis-server ${formatBytes(build.binary_bytes)}`;
}

/**
 * Every build of the cell, one line each: a retry after a failure, or the rebuild on each machine
 * that measured it (each machine's runs use its own build; equal binary sizes show they match).
 */
function allBuilds(builds: readonly BuildDetailRow[]): HTMLElement {
  return h('ul', { class: 'all-builds' }, ...builds.map((b) => h('li', {},
    `${b.status} on machine ${b.machine_id}${b.finished_at ? `, ${b.finished_at} UTC` : ''}${b.status === 'ok' ? `: ${buildFigures(b)}` : b.error ? `: ${b.error}` : ''}`)));
}

/** Other processes' CPU use during a run, flagged when the run counts as busy. */
function othersText(busyPct: number | null): string {
  if (busyPct === null) return 'not recorded';
  return `${othersBusy(busyPct) ? '⚠ ' : ''}${Math.round(busyPct)}%`;
}

/** The host-speed probe around a run: "45.1 → 44.8 GB/s". */
function memWriteText(before: number | null, after: number | null): string {
  if (before === null || after === null) return 'not recorded';
  return `${(before / 1e9).toFixed(1)} → ${(after / 1e9).toFixed(1)} GB/s`;
}

/** The host's steal during a run: "1.2%", "⚠ 24.1%" above the busy threshold, "not recorded" before collector 0.1.6. */
function stealText(stealPct: number | null): string {
  return stealPct === null ? 'not recorded' : `${hostBusy(stealPct) ? '⚠ ' : ''}${stealPct.toFixed(1)}%`;
}

/** A small table of a cell's runs: `className` names it for tests and styles. */
function detailTable(className: string, caption: string, headers: readonly string[], rows: readonly (readonly string[])[]): HTMLElement {
  const th = (text: string) => h('th', { class: 'border-b border-slate-300 px-2 py-1 text-left font-semibold', attrs: { scope: 'col' } }, text);
  return h('table', { class: `${className} mt-2 border-collapse text-xs tabular-nums` },
    h('caption', { class: 'mb-1 text-left text-sm font-semibold text-slate-700' }, caption),
    h('thead', {}, h('tr', {}, ...headers.map(th))),
    h('tbody', {}, ...rows.map((cells) => h('tr', { class: 'border-b border-slate-100' },
      ...cells.map((v) => h('td', { class: 'px-2 py-1' }, v))))),
  );
}

function runsTable(runs: readonly RunDetailRow[]): HTMLElement {
  if (!runs.length) return h('p', { class: 'mt-2 text-sm text-slate-700' }, 'No benchmark run recorded.');
  return detailTable('runs-table', 'Benchmark runs', ['Mode', 'Repeat', 'Run', 'Tests ok / failed / unsupported', 'Duration',
    'Load before → after', 'Others\' CPU', 'Memory write before → after', 'Host steal', 'Machine', 'Started (UTC)'],
  runs.map((r) => [r.mode, String(r.repeat), r.status, `${r.ok_tests} / ${r.failed_tests} / ${r.unsupported_tests}`,
    `${r.duration_seconds.toFixed(0)} s`, `${r.load1_before.toFixed(2)} → ${r.load1_after.toFixed(2)}`, othersText(r.busy_pct),
    memWriteText(r.mem_write_before, r.mem_write_after), stealText(r.steal_pct), r.machine_id, r.started_at ?? '']));
}

/** A run's speed against the run that replaced it: "−20.0% (0.80×)"; "no figures to compare" without. */
function speedText(speed: number | null): string {
  return speed === null ? 'no figures to compare' : `${formatChange(speed)} (${speed.toFixed(2)}×)`;
}

/**
 * The cell's runs measured again (-redo-noisy, -redo-steal, -retry-failed, -redo-before): kept as
 * they were, with why, and how fast they were against the run that replaced them. The charts use
 * only the replacements.
 */
function redoneTable(redone: readonly RedoneRunRow[]): HTMLElement {
  if (!redone.length) return h('p', { class: 'redone-none mt-2 text-xs text-slate-700' }, 'No run of this cell was measured again.');
  return detailTable('redone-table', 'Runs measured again (kept here, not used by the charts)', ['Mode', 'Repeat', 'Run',
    'Why measured again', 'Others\' CPU', 'Host steal', 'Speed against its replacement (median over tests)', 'Started (UTC)',
    'Replacement started (UTC)'],
  redone.map((r) => [r.mode, String(r.repeat), r.status, r.redo_reason, othersText(r.busy_pct), stealText(r.steal_pct),
    speedText(r.speed), r.started_at ?? '', r.replaced_at ?? '']));
}

/** One line on the runs measured again on this hardware: how many per mode, and how much slower they were. */
function redoneSummary(rows: readonly RedoneSummaryRow[]): string {
  const total = rows.reduce((n, r) => n + r.runs, 0);
  if (!total) return 'No run on this hardware was measured again.';
  const perMode = rows.map((r) => `${r.mode} mode ${r.runs}${r.median_speed === null ? '' : `, a median ${formatChange(r.median_speed)} against their replacements (${r.compared} compared)`}`);
  return `Runs measured again on this hardware (busy machine, host steal, failed server or an older measurement; kept, not charted; each cell lists its own): ${total}: ${perMode.join('; ')}.`;
}

/** The status grid section. */
export function createStatusGrid(ctx: AnalysisContext): SectionView {
  const frame = sectionFrame('status', 'Status grid: what has been collected', [
    'Every planned build, and how far its collection got. Failures are data: a build that failed or a server that would not run ',
    'is shown with its reason, never left out. Click a cell for its compiler, flags, build log and runs. ',
    'Under a counted metric the grid shows the counting runs (every machine\'s) against the counting protocol\'s repeats; the line under it says how far the counted instrument got.',
  ], () => ctx.link({ section: 'status' }), ctx.tools);
  const gridBox = h('div', { class: 'overflow-x-auto' });
  const detail = h('div', { class: 'cell-detail mt-4', attrs: { 'aria-live': 'polite' } });
  const redoneLine = h('p', { class: 'redone-summary mt-2 text-xs text-slate-700' });
  const countLine = h('p', { class: 'count-coverage mt-1 text-xs text-slate-700' });
  frame.body.append(legend(), gridBox, redoneLine, countLine, detail);
  let shownCell: string | null | undefined;
  let rows: GridRow[] | null = null;
  // The grid of each metric's instrument, fetched once each.
  const grids = new Map<string, Promise<GridRow[]>>();

  async function showDetail(id: string | null): Promise<void> {
    shownCell = id;
    const cell = id === null ? null : parseCellId(id);
    if (!id || !cell) return void detail.replaceChildren();
    const [builds, runs, redone] = await Promise.all([ctx.run(cellBuildsQuery(id)), ctx.run(cellRunsQuery(id)), ctx.run(cellRedoneQuery(id))]);
    if (shownCell !== id) return;
    const row = rows?.find((r) => r.cell_id === id);
    const close = h('button', {
      class: 'rounded-md border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-100',
      attrs: { type: 'button', 'data-action': 'close-cell' },
      on: { click: () => ctx.update({ cell: null, section: 'status' }) },
    }, 'Close');
    detail.replaceChildren(h('article', { class: 'rounded-md border border-slate-300 p-3', attrs: { 'data-cell': id, 'aria-label': `Build and runs of Redis ${cell.version} ${configName(cell.config)}` } },
      h('div', { class: 'flex items-start justify-between gap-2' },
        h('h3', { class: 'text-base font-semibold' }, `Redis ${cell.version} · ${configName(cell.config)}`, row ? ` — ${GRID_STYLE[row.status].label}` : ''),
        close),
      buildDetails(builds),
      h('div', { class: 'overflow-x-auto' }, runsTable(runs)),
      h('div', { class: 'overflow-x-auto' }, redoneTable(redone)),
    ));
  }

  async function render(state: AppState): Promise<void> {
    const metric = metricOf(state.metric);
    const instrument = metric.kind;
    frame.status.textContent = 'Loading…';
    try {
      let found = grids.get(instrument);
      if (!found) {
        found = ctx.run(statusGridQuery(metric));
        grids.set(instrument, found);
      }
      const [grid, redone, counted] = await Promise.all([found, ctx.run(redoneSummaryQuery()), ctx.run(countCoverageQuery())]);
      rows = grid;
      redoneLine.textContent = redoneSummary(redone);
      countLine.textContent = countCoverageText(counted);
    } catch (err) {
      grids.delete(instrument);
      showSectionError(frame, 'The status grid', err);
      return;
    }
    frame.status.textContent = '';
    const counting = instrument === 'counted';
    frame.setQueries([
      { label: 'cells', title: `Status grid: every planned cell and how far its ${counting ? 'counting' : 'collection'} got`, query: statusGridQuery(metric), file: `redis-benchmarks-status${counting ? '-counted' : ''}` },
      { label: 'runs measured again', title: 'Runs measured again, per mode, against their replacements', query: redoneSummaryQuery(), file: 'redis-benchmarks-redone' },
      { label: 'counted coverage', title: 'The counted instrument: cells counted per mode, counting runs and tests by status', query: countCoverageQuery(), file: 'redis-benchmarks-count-coverage' },
    ]);
    gridBox.replaceChildren(grid(rows, ctx.versions, ctx.configs, state.cell, (id) =>
      ctx.update({ cell: state.cell === id ? null : id, section: 'status' }), metric));
    if (state.cell !== shownCell) await showDetail(state.cell);
  }

  return { frame, render, key: (s) => `${s.cell ?? ''}|${metricOf(s.metric).kind}` };
}
