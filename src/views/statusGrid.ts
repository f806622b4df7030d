/**
 * The status grid: versions × configurations, each cell saying how far its collection got (ok,
 * repeats still to come, server failed, build failed, not collected) and how many repeats are
 * measured; a click shows the cell's build (flags, compiler, log tail) and its runs.
 */
import { parseCellId } from '../model/analysisState';
import { configName } from '../model/changeText';
import { countCoverageText } from '../model/metricSummary';
import type { AppState } from '../model/state';
import {
  buildFacts, countRunsTable, GRID_STATUS, gridCaption, gridCellMark, gridCellText, gridLayout, redoneSummaryText, redoneTable, REPEATS_LEGEND, runsTable, supersededCountRunsTable,
  type TextTable,
} from '../model/statusGrid';
import { countCoverageQuery } from '../sql/counted';
import { cellCountRunsQuery, cellSupersededCountRunsQuery, countRunOutputQuery, type CountRunRow, type SupersededCountRunRow } from '../sql/countRuns';
import {
  type BuildDetailRow, cellBuildsQuery, cellRedoneQuery, cellRunsQuery, type GridRow, type GridStatus, type RedoneRunRow,
  redoneSummaryQuery, type RunDetailRow, statusGridQuery,
} from '../sql/status';
import { h } from '../ui/dom';
import { sectionFrame } from '../ui/section';
import { type ConfigRef, type Metric, metricOf } from '../vocabulary';
import { type AnalysisContext, type SectionView, showSectionError } from './context';

/** The tint of each status (its glyph and word are GRID_STATUS's). */
const TINT: Readonly<Record<GridStatus, string>> = {
  ok: 'bg-emerald-50 text-emerald-900',
  partial: 'bg-sky-50 text-sky-900',
  server_failed: 'bg-amber-100 text-amber-900',
  build_failed: 'bg-red-100 text-red-900',
  not_collected: 'border border-dashed border-slate-400 text-slate-600',
};

function grid(rows: readonly GridRow[], versions: readonly string[], configs: readonly ConfigRef[], open: string | null, onCell: (id: string) => void, metric: Metric): HTMLElement {
  const layout = gridLayout(rows, versions, configs);
  const th = (text: string, attrs: Record<string, string> = {}) =>
    h('th', { class: 'border-b border-slate-300 px-1 py-1 text-center text-xs font-semibold text-slate-700', attrs: { scope: 'col', ...attrs } }, text);
  return h('table', { class: 'status-grid border-collapse text-sm' },
    h('caption', { class: 'mb-1 text-left text-sm font-semibold text-slate-800' }, gridCaption(metric)),
    h('thead', {},
      h('tr', {}, h('td'), ...layout.compilers.map((c) => th(c.compiler, { colspan: String(c.span) }))),
      h('tr', {}, th('Version'), ...configs.map((c) => th(c.flag_set))),
    ),
    h('tbody', {}, ...layout.rows.map(({ version, cells }) => h('tr', {},
      h('th', { class: 'px-2 py-1 text-left font-medium', attrs: { scope: 'row' } }, version),
      ...cells.map(({ id, row }) => {
        if (!row) return h('td', { class: 'px-1 py-1 text-center text-slate-400' }, '');
        return h('td', { class: 'p-0.5' }, h('button', {
          class: `w-full min-w-14 rounded px-1 py-1 text-center text-xs tabular-nums hover:ring-2 hover:ring-slate-400 aria-pressed:ring-2 aria-pressed:ring-slate-900 ${TINT[row.status]}`,
          attrs: {
            type: 'button', 'data-cell': id, 'data-status': row.status, 'aria-pressed': String(open === id),
            'aria-label': gridCellText(row), title: gridCellText(row),
          },
          on: { click: () => onCell(id) },
        }, gridCellMark(row)));
      }),
    ))),
  );
}

function legend(): HTMLElement {
  return h('ul', { class: 'mb-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700', attrs: { 'aria-label': 'Status legend' } },
    ...(Object.keys(GRID_STATUS) as GridStatus[]).map((status) => h('li', {}, h('span', { class: `mr-1 rounded px-1 ${TINT[status]}` }, GRID_STATUS[status].glyph), GRID_STATUS[status].label)),
    h('li', {}, REPEATS_LEGEND));
}

function buildDetails(builds: readonly BuildDetailRow[]): HTMLElement {
  const build = builds[0];
  if (!build) return h('p', { class: 'text-sm text-slate-700' }, 'Not built yet: the collector has not reached this cell.');
  return h('div', {},
    h('dl', { class: 'build-flags grid grid-cols-1 gap-x-4 sm:grid-cols-[12rem_1fr]' },
      ...buildFacts(builds).flatMap(({ term, value }) => [
        h('dt', { class: 'font-semibold text-slate-700' }, term),
        h('dd', { class: 'mb-1 break-words font-mono text-xs text-slate-900' },
          typeof value === 'string' ? value : h('ul', { class: 'all-builds' }, ...value.map((line) => h('li', {}, line)))),
      ]),
    ),
    h('p', { class: 'mt-2 text-sm font-semibold text-slate-700' }, 'Build log (last lines)'),
    h('pre', { class: 'build-log mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-100 p-2 font-mono text-xs text-slate-900' }, build.log_tail || '(empty)'),
  );
}

/** A small table of a cell's runs: `className` names it for tests and styles. */
function detailTable(className: string, caption: string, { headers, rows }: TextTable): HTMLElement {
  const th = (text: string) => h('th', { class: 'border-b border-slate-300 px-2 py-1 text-left font-semibold', attrs: { scope: 'col' } }, text);
  return h('table', { class: `${className} mt-2 border-collapse text-xs tabular-nums` },
    h('caption', { class: 'mb-1 text-left text-sm font-semibold text-slate-700' }, caption),
    h('thead', {}, h('tr', {}, ...headers.map(th))),
    h('tbody', {}, ...rows.map((cells) => h('tr', { class: 'border-b border-slate-100' },
      ...cells.map((v) => h('td', { class: 'px-2 py-1' }, v))))),
  );
}

function runsElement(runs: readonly RunDetailRow[]): HTMLElement {
  if (!runs.length) return h('p', { class: 'mt-2 text-sm text-slate-700' }, 'No benchmark run recorded.');
  return detailTable('runs-table', 'Benchmark runs', runsTable(runs));
}

/** A details element with a counting run's raw output, fetched from `table` when opened. */
function countOutput(r: { run_id: string; mode: string; repeat: number }, label: string, table: 'count_runs' | 'count_runs_superseded', run: AnalysisContext['run']): HTMLElement {
  const pre = h('pre', { class: 'count-output mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-100 p-2 font-mono text-xs text-slate-900' }, 'Loading…');
  const details = h('details', { class: 'text-xs', attrs: { 'data-run': r.run_id } },
    h('summary', { class: 'cursor-pointer text-slate-700' }, `${label}: ${r.mode} mode, repeat ${r.repeat}`), pre);
  details.addEventListener('toggle', () => {
    if (!details.open || pre.dataset.loaded) return;
    pre.dataset.loaded = 'true';
    run(countRunOutputQuery(r.run_id, table)).then(
      ([row]) => { pre.textContent = row?.raw_output || '(empty)'; },
      (err: unknown) => { delete pre.dataset.loaded; pre.textContent = `Could not load the output: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`; },
    );
  });
  return details;
}

/** The cell's counting runs, and under the table each run's raw output, fetched when opened. */
function countRunsElement(runs: readonly CountRunRow[], run: AnalysisContext['run']): HTMLElement {
  if (!runs.length) return h('p', { class: 'count-runs-none mt-2 text-sm text-slate-700' }, 'No counting run recorded.');
  return h('div', {}, detailTable('count-runs-table', 'Counting runs (Valgrind; every machine\'s)', countRunsTable(runs)),
    h('div', { class: 'mt-1 space-y-1' }, ...runs.map((r) => countOutput(r, 'Raw output', 'count_runs', run))));
}

/** The cell's counting runs set aside (counted again, or an earlier protocol), with their raw output. */
function supersededCountRunsElement(runs: readonly SupersededCountRunRow[], run: AnalysisContext['run']): HTMLElement {
  if (!runs.length) return h('p', { class: 'superseded-none mt-2 text-xs text-slate-700' }, 'No counting run of this cell was set aside.');
  return h('div', {}, detailTable('superseded-count-runs-table', 'Counting runs set aside (kept as evidence, not used by the charts)', supersededCountRunsTable(runs)),
    h('div', { class: 'mt-1 space-y-1' }, ...runs.map((r) => countOutput(r, 'Raw output of a run set aside', 'count_runs_superseded', run))));
}

function redoneElement(redone: readonly RedoneRunRow[]): HTMLElement {
  if (!redone.length) return h('p', { class: 'redone-none mt-2 text-xs text-slate-700' }, 'No run of this cell was measured again.');
  return detailTable('redone-table', 'Runs measured again (kept here, not used by the charts)', redoneTable(redone));
}

/** The status grid section. */
export function createStatusGrid(ctx: AnalysisContext): SectionView {
  const frame = sectionFrame('status', 'Status grid: what has been collected', [
    'Every planned build, and how far its collection got. Failures are data: a build that failed or a server that would not run ',
    'is shown with its reason, never left out. Click a cell for its compiler, flags, build log, runs and counting runs. ',
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
    const [builds, runs, redone, countRuns, superseded] = await Promise.all([ctx.run(cellBuildsQuery(id)), ctx.run(cellRunsQuery(id)),
      ctx.run(cellRedoneQuery(id)), ctx.run(cellCountRunsQuery(id)), ctx.run(cellSupersededCountRunsQuery(id))]);
    if (shownCell !== id) return;
    const row = rows?.find((r) => r.cell_id === id);
    const close = h('button', {
      class: 'rounded-md border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-100',
      attrs: { type: 'button', 'data-action': 'close-cell' },
      on: { click: () => ctx.update({ cell: null, section: 'status' }) },
    }, 'Close');
    detail.replaceChildren(h('article', { class: 'rounded-md border border-slate-300 p-3', attrs: { 'data-cell': id, 'aria-label': `Build and runs of Redis ${cell.version} ${configName(cell.config)}` } },
      h('div', { class: 'flex items-start justify-between gap-2' },
        h('h3', { class: 'text-base font-semibold' }, `Redis ${cell.version} · ${configName(cell.config)}`, row ? ` — ${GRID_STATUS[row.status].label}` : ''),
        close),
      buildDetails(builds),
      h('div', { class: 'overflow-x-auto' }, runsElement(runs)),
      h('div', { class: 'overflow-x-auto' }, redoneElement(redone)),
      h('div', { class: 'overflow-x-auto' }, countRunsElement(countRuns, ctx.run)),
      h('div', { class: 'overflow-x-auto' }, supersededCountRunsElement(superseded, ctx.run)),
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
      redoneLine.textContent = redoneSummaryText(redone);
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
