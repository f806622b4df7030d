/** The header's "how this was measured" and "how much is collected" parts, from the data. */
import { formatBytes, formatCount } from '../model/format';
import type { RebuildBandRow } from '../sql/counted';
import type { CompilerRow, CountProtocolRow, CoverageRow, DatesRow, MachineRow, ProtocolRow } from '../sql/meta';
import { COUNT_WORKLOAD_NOTE, metricOf } from '../vocabulary';
import { h } from './dom';

/** Everything the header shows, as queried. */
export interface HeaderInfo {
  readonly coverage: CoverageRow;
  readonly machines: readonly MachineRow[];
  readonly compilers: readonly CompilerRow[];
  readonly protocol: readonly ProtocolRow[];
  /** The counting runs' protocol per mode (empty: nothing counted). */
  readonly countProtocol: readonly CountProtocolRow[];
  /** The counted metrics' rebuild bands (empty: the data has none). */
  readonly rebuildBands: readonly RebuildBandRow[];
  readonly dates: DatesRow | undefined;
}

/** The values `pick` gives over `rows`, each once, in order, leaving out null and empty ones. */
function distinct<T>(rows: readonly CountProtocolRow[], pick: (r: CountProtocolRow) => T | null): T[] {
  return [...new Set(rows.map(pick))].filter((v): v is T => v !== null && v !== '');
}

/** The counted instrument in one line: the tool, the modes and the counting protocol. */
export function countProtocolSummary(rows: readonly CountProtocolRow[]): string {
  const modes = distinct(rows, (r) => r.mode);
  const versions = distinct(rows, (r) => r.valgrind_version);
  const protocols = distinct(rows, (r) => r.protocol);
  return `instructions per request under ${versions.join(', ')} (callgrind), ${modes.join(' and ')} mode${modes.length === 1 ? '' : 's'}`
    + `${protocols.length ? `, counting protocol ${protocols.join(', ')}` : ''}: the workload and why it differs from the throughput modes'`;
}

/**
 * The counted instrument's lines: per mode the client's arguments (of the mode's most runs) and
 * the server environment only that mode has, then Valgrind's command, the environment every mode
 * shares, the settings and the client.
 */
export function countProtocolLines(rows: readonly CountProtocolRow[]): string[] {
  const main = rows.filter((r, i) => rows.findIndex((o) => o.mode === r.mode) === i);
  const joined = (pick: (r: CountProtocolRow) => string) => distinct(main, pick).join(' | ');
  const envs = main.map((r) => r.env.split(/\s+/).filter(Boolean));
  const shared = envs[0]?.filter((v) => envs.every((e) => e.includes(v))) ?? [];
  const protocols = distinct(main, (r) => r.protocol);
  const older = rows.length - main.length;
  return [
    ...main.map((r, i) => {
      const own = envs[i]?.filter((v) => !shared.includes(v)) ?? [];
      return `${r.mode}: redis-benchmark ${r.client_args}${own.length ? `; server env ${own.join(' ')}` : ''}`;
    }),
    `server: ${joined((r) => r.command)} (${joined((r) => r.valgrind_version)})`,
    shared.length ? `server env: ${shared.join(' ')}` : '',
    joined((r) => r.settings) ? `CONFIG SET: ${joined((r) => r.settings)}` : '',
    [
      `client: ${joined((r) => r.client_version)}`,
      protocols.length ? `counting protocol ${protocols.join(', ')}` : '',
      older ? `${older} older run setting${older === 1 ? '' : 's'} besides (each run's own in the status grid)` : '',
    ].filter(Boolean).join('; '),
  ].filter(Boolean);
}

/** A band as a percentage: two decimals below 10%, one above, "<0.01%" for a difference above 0 below that. */
function bandPercent(fraction: number): string {
  if (fraction > 0 && fraction < 0.0001) return '<0.01%';
  return `${(fraction * 100).toFixed(fraction < 0.1 ? 2 : 1)}%`;
}

/**
 * What the rebuild bands are and, per counted metric, its band from the data (docs/method.md,
 * "Rebuild bands"); without the table, that counted verdicts have no floor.
 */
export function rebuildBandLines(rows: readonly RebuildBandRow[]): string[] {
  if (!rows.length) {
    return ['The data has no rebuild bands (rebuild_bands.parquet): a counted figure\'s noise band is its repeats\' spread alone, '
      + '0 where they agree, so a counted verdict here has no floor for what a rebuild of the same cell can change.'];
  }
  return [
    'A counted figure\'s noise band is at least its metric\'s rebuild band: the largest difference between two builds of one cell '
      + 'from the same source, compiler and settings, both counted, over every such pair, mode and test. A build\'s repeats agree exactly; '
      + 'another build of the cell can be other code, or the same code placed elsewhere.',
    ...rows.map((r) => `${metricOf(r.metric).name}: ${r.pairs
      ? `${bandPercent(r.band)} (95% of differences within ${bandPercent(r.p95 ?? 0)}), over ${formatCount(r.pairs)} rebuild pair${r.pairs === 1 ? '' : 's'} of ${formatCount(r.cells)} cell${r.cells === 1 ? '' : 's'}, ${formatCount(r.identical_code_pairs)} of identical code`
      : 'no rebuild compared yet, floor 0'}`),
  ];
}

function item(term: string, ...details: (Node | string)[]): HTMLElement[] {
  return [h('dt', { class: 'font-semibold text-slate-700' }, term), h('dd', { class: 'mb-2 text-slate-800' }, ...details)];
}

function lines(values: readonly string[]): HTMLElement {
  return h('ul', { class: 'list-none' }, ...values.map((v) => h('li', {}, v)));
}

/**
 * The repeats the plan asks of each build and mode: "3 repeats planned per build and mode", or when
 * the plan varies "3 repeats planned per build and mode for 132 of 1,896 cells, 1 for the others".
 */
export function plannedRepeatsText(
  c: Pick<CoverageRow, 'planned_repeats' | 'min_planned_repeats' | 'next_planned_repeats' | 'most_repeats_cells' | 'planned_cells'>,
): string {
  const most = `${c.planned_repeats} repeat${c.planned_repeats === 1 ? '' : 's'} planned per build and mode`;
  if (c.min_planned_repeats === c.planned_repeats) return most;
  const others = c.min_planned_repeats === c.next_planned_repeats ? String(c.min_planned_repeats) : `${c.min_planned_repeats} to ${c.next_planned_repeats}`;
  return `${most} for ${c.most_repeats_cells.toLocaleString('en-US')} of ${c.planned_cells.toLocaleString('en-US')} cells, ${others} for the others`;
}

/** Renders the measurement details into `dl`. */
export function renderMeasurement(dl: HTMLElement, info: HeaderInfo): void {
  const protocol = info.protocol.length
    ? lines([
        ...info.protocol.map((p) => `${p.mode}: redis-benchmark ${p.client_args}`),
        `client: ${[...new Set(info.protocol.map((p) => p.client_version))].join(', ')}`,
        `${plannedRepeatsText(info.coverage)}, the best one kept; server and client ${info.protocol.every((p) => p.pinned) ? 'pinned to separate CPUs' : 'not pinned to CPUs'}`,
      ])
    : 'no benchmark run recorded yet';
  const machines = info.machines.length
    ? lines(
        info.machines.map((m) =>
          [
            `${m.cpu_model}${m.cpu_id ? ` (${m.cpu_id})` : ''}, ${m.cores} cores, ${formatBytes(m.memory_bytes)} RAM`,
            m.mem_write_bytes_per_s ? `memory write ${formatBytes(m.mem_write_bytes_per_s)}/s` : '',
            `${m.os}, Linux ${m.kernel}`,
            info.machines.length > 1 ? `(${m.runs} runs)` : '',
          ].filter(Boolean).join('; '),
        ),
      )
    : 'not recorded yet';
  const compilers = info.compilers.length
    ? lines(info.compilers.map((c) => `${c.compiler}: ${c.cc_version || c.cc}`))
    : 'no build recorded yet';
  const dates = info.dates?.first ? `${info.dates.first} – ${info.dates.last} UTC` : 'not yet';
  // One line until opened: the header stays short enough for the first section to show.
  const counted = info.countProtocol.length
    ? item('Counted', h('details', { class: 'count-protocol min-w-0 [overflow-wrap:anywhere]' },
      h('summary', { class: 'cursor-pointer' }, countProtocolSummary(info.countProtocol)),
      lines(countProtocolLines(info.countProtocol)),
      h('p', { class: 'count-workload mt-1 text-slate-700' }, COUNT_WORKLOAD_NOTE)))
    : [];
  const bands = info.countProtocol.length ? item('Rebuild bands', h('div', { class: 'rebuild-bands' }, lines(rebuildBandLines(info.rebuildBands)))) : [];
  dl.replaceChildren(
    ...item('Protocol', protocol),
    ...counted,
    ...bands,
    ...item('Machine', machines),
    ...item('Compilers', compilers),
    ...item('Collected', dates, info.dates?.collector_versions ? ` (collector ${info.dates.collector_versions})` : ''),
  );
}

/**
 * One sentence for how much of the planned matrix is in the data (the counts, and on the
 * hardware class shown; `hardware` names it when the data has more than one).
 */
export function renderCoverage(box: HTMLElement, c: CoverageRow, hardware?: string): void {
  const complete = c.planned_cells > 0 && c.counted_cells === c.planned_cells && c.collected_cells === c.planned_cells && c.finished_runs + c.server_failed_runs >= c.planned_runs;
  // What is measured and what is planned, from the data alone: the data says nothing about
  // whether a collector is running, so neither does the page.
  const counted = c.counted_cells === c.planned_cells
    ? `all ${formatCount(c.planned_cells)} planned cells`
    : `${formatCount(c.counted_cells)} of ${formatCount(c.planned_cells)} planned cells`;
  const text = [
    `Instructions per request counted for ${counted} (${c.versions} Redis versions × compilers × flag sets)`,
    `requests/second measured for ${formatCount(c.measured_cells)} of them${hardware ? ` on ${hardware}` : ''} (${formatCount(c.finished_runs)} of ${formatCount(c.planned_runs)} planned runs, ${formatCount(c.collected_cells)} cells built)`,
    c.failed_builds ? `${formatCount(c.failed_builds)} failed to build` : '',
    c.server_failed_runs ? `${c.server_failed_runs} run${c.server_failed_runs === 1 ? '' : 's'} where the server failed` : '',
  ].filter(Boolean).join('; ');
  box.replaceChildren(h('strong', {}, complete ? 'Dataset complete. ' : 'Dataset: '), `${text}.`);
  box.dataset.complete = String(complete);
}
