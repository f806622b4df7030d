/**
 * Turns query rows into chart bars: labels, accessible names and tooltip lines. No numbers are
 * computed here beyond formatting; the figures come from SQL.
 */
import type { ConfigRow, VersionRow } from '../sql/charts';
import type { Standing, VersionVerdictRow, WinnerCall } from '../sql/verdicts';
import { type Bar, type CellStatus, type Metric, MIN_TIME_SECONDS, RPS } from '../vocabulary';
import { formatChange, intervalVerdictText, verdictGlyphs, verdictText } from './changeText';
import { formatFigure, formatMs, formatPercent, formatSpread } from './format';
import { changeGlyph } from './metric';
import { unstable, UNSTABLE_CV } from './stats';
import { minorLine } from './versions';

/**
 * A sentence for why a bar has no figure. A not_collected row's reason, when its metric's table
 * gives one, says it (a latency metric's "not measured: this client prints no latency").
 */
export function statusText(status: Exclude<CellStatus, 'ok'>, reason: string | null): string {
  const why = reason ? `: ${reason}` : '';
  switch (status) {
    case 'unsupported':
      return `not supported by this Redis version${why}`;
    case 'failed':
      return `the test failed${why}`;
    case 'build_failed':
      return `the build failed${why}`;
    case 'server_failed':
      return 'the server failed to start, crashed or hung in this mode';
    case 'not_collected':
      return reason ?? 'not collected yet';
  }
}

/**
 * Other processes' CPU use (percent of one CPU) above which the machine counts as busy while it
 * measured: the collector's own threshold for a quiet machine (-quiet-percent).
 */
export const BUSY_PERCENT = 20;

/**
 * CPU time the VM's host took (steal, percent of one CPU) above which the machine counts as busy:
 * the collector's -redo-steal threshold for this dataset. On the Intel VM, runs with 10% or more
 * steal measured a median 0.76 of their usual speed (README, "Host steal").
 */
export const STEAL_PERCENT = 10;

/** How much of the machine others took during a cell's runs (null: not recorded). */
export interface MachineLoad {
  /** The most CPU other processes used, percent of one CPU. */
  readonly busy_pct: number | null;
  /** The most CPU the VM's host took (steal), percent of one CPU. */
  readonly steal_pct: number | null;
}

/** Whether other processes used more than the quiet threshold. */
export const othersBusy = (busyPct: number | null): boolean => busyPct !== null && busyPct > BUSY_PERCENT;

/** Whether the VM's host took more than the steal threshold. */
export const hostBusy = (stealPct: number | null): boolean => stealPct !== null && stealPct > STEAL_PERCENT;

/** Whether a figure was measured on a busy machine: other processes or the VM's host took too much. */
export const isBusy = (load: MachineLoad): boolean => othersBusy(load.busy_pct) || hostBusy(load.steal_pct);

/** How busy the machine was during a cell's runs, in words. */
export function busyText(load: MachineLoad): string {
  const { busy_pct: others, steal_pct: steal } = load;
  if (others === null && steal === null) return 'Machine load during the runs: not recorded';
  const parts = [
    others === null ? "other processes' CPU not recorded" : `other processes used up to ${Math.round(others)}% of a CPU`,
    ...(steal === null ? [] : [`the VM's host took up to ${steal.toFixed(1)}% (steal)`]),
  ];
  const used = `${parts.join(' and ')} during the runs`;
  return isBusy(load) ? `⚠ Busy machine: ${used}; the figure may be low` : `Quiet machine: ${used}`;
}

/** A row of a precision mode: its figure is the geometric mean over its rounds. */
type Figure = Pick<VersionRow, 'best_value' | 'worst_value' | 'ok_repeats' | 'planned_repeats' | 'protocol' | 'cv' | 'short_rounds'>;

/** Whether a precision figure's coefficient of variation over its rounds is above UNSTABLE_CV. */
export const isUnstable = (row: Pick<VersionRow, 'protocol' | 'cv'>): boolean => row.protocol === 'precision' && row.cv !== null && unstable(row.cv);

/**
 * Whether a precision figure has a round that lasted less than the mode's min_time (the collector
 * measures such a test once more with a longer count; one still short is stored as it is).
 */
export const isShort = (row: Pick<VersionRow, 'protocol' | 'short_rounds'>): boolean => row.protocol === 'precision' && row.short_rounds > 0;

/** "; ⚠ 1 round shorter than 1.5 s" for a figure with short rounds, else ''. */
function shortText(row: Figure): string {
  if (!isShort(row)) return '';
  return `; ⚠ ${row.short_rounds} round${row.short_rounds === 1 ? '' : 's'} shorter than ${MIN_TIME_SECONDS} s (one millisecond of the client's clock weighs more)`;
}

/**
 * "geometric mean of 5 of 5 rounds, coefficient of variation 0.4%" ("⚠ unstable" above 10%);
 * "1 of 5 rounds: a single round, no interval"; a round shorter than min_time is named.
 */
function roundsText(row: Figure): string {
  const counted = `geometric mean of ${row.ok_repeats ?? '?'} of ${row.planned_repeats ?? '?'} rounds`;
  if (row.ok_repeats === 1) return `${counted}: a single round, no interval${shortText(row)}`;
  if (row.cv === null) return `${counted}${shortText(row)}`;
  return `${counted}, coefficient of variation ${formatPercent(row.cv)}${isUnstable(row) ? ` ⚠ unstable (above ${formatPercent(UNSTABLE_CV)})` : ''}${shortText(row)}`;
}

/** How a figure was made: its repeats and their spread, or (a precision mode) its rounds and their variation. */
function figureText(row: Figure, metric: Metric): string {
  if (row.protocol === 'precision') return roundsText(row);
  return repeatsText(row.best_value ?? 0, row.worst_value, row.ok_repeats, row.planned_repeats, metric);
}

/** "best of 3 of 3 repeats, spread 119,000 – 123,456 req/s (3.6%)" for a figure (a cost: lowest first). */
function repeatsText(best: number, worst: number | null, okRepeats: number | null, planned: number | null, metric: Metric): string {
  const counted = `best of ${okRepeats ?? '?'} of ${planned ?? '?'} repeats`;
  if (okRepeats === 1) return `${counted}: a single repeat, no noise estimate`;
  if (worst === null || !okRepeats || okRepeats < 2) return counted;
  const [low, high] = best < worst ? [best, worst] : [worst, best];
  return `${counted}, spread ${formatFigure(low, metric.unit)} – ${formatFigure(high, metric.unit)} ${metric.unit} (${formatSpread(Math.abs(best - worst) / best)})`;
}

/** The machine's load line for a figure: a count does not depend on it. */
function loadText(load: MachineLoad, metric: Metric): string {
  return metric.kind === 'counted' ? 'Counted under Valgrind: the machine\'s load does not change a count' : busyText(load);
}

/** A latency's missing figure is "not measured" (its runs may be collected, without a latency): the bar says so. */
function missingLabel(status: CellStatus, metric: Metric): Pick<Bar, 'missingLabel'> {
  return status === 'not_collected' && metric.latencyColumn !== null ? { missingLabel: 'not measured' } : {};
}

/** The p50 latency line beside requests/second (a latency metric's bars are latencies already). */
function latencyLines(p50: number | null, metric: Metric): string[] {
  if (metric !== RPS) return [];
  return [p50 === null ? 'p50 latency: not printed by this client' : `p50 latency ${formatMs(p50)}`];
}

function configurationsText(row: VersionRow): string {
  const parts = [`${row.ok_cells} of ${row.planned_cells} configurations measured`];
  const add = (n: number, what: string) => n > 0 && parts.push(`${n} ${what}`);
  add(row.build_failed_cells, 'build failed');
  add(row.server_failed_cells, 'server failed');
  add(row.failed_cells, 'test failed');
  add(row.unsupported_cells, 'unsupported');
  add(row.not_collected_cells, 'not collected');
  return parts.join(' · ');
}

/** The worst repeat, for the whisker: only when two or more repeats were measured, and not for a precision figure (a geometric mean, its variation in words). */
const lowOf = (row: Figure) => (row.protocol !== 'precision' && (row.ok_repeats ?? 0) >= 2 ? row.worst_value : null);

/**
 * The bar of one version: its best configuration, coloured by that configuration's compiler;
 * with `verdict` (versionVerdictsQuery), whether that winner is called and how the version
 * compares with the previous release, beyond noise or not.
 */
export function versionBar(row: VersionRow, colorOf: (compiler: string) => string, verdict?: VersionVerdictRow, metric: Metric = RPS): Bar {
  const config = row.compiler ? `${row.compiler} ${row.flag_set ?? ''}`.trim() : '';
  if (row.status !== 'ok' || row.best_value === null) {
    const status = row.status === 'ok' ? 'not_collected' : row.status;
    const text = statusText(status, row.reason);
    return {
      key: row.version, label: row.version, group: '', value: null, status, color: '', winner: false, ...missingLabel(status, metric),
      ariaLabel: `Redis ${row.version}: no figure, ${text}. Show its configurations.`,
      tooltip: [`Redis ${row.version}: no figure`, capitalize(text), configurationsText(row), 'Click for its configurations'],
    };
  }
  const figure = formatFigure(row.best_value, metric.unit);
  const change = verdict?.change_verdict === 'faster' || verdict?.change_verdict === 'slower' ? verdict.change_verdict : null;
  return {
    key: row.version,
    label: row.version,
    group: '',
    value: row.best_value,
    status: 'ok',
    color: colorOf(row.compiler ?? ''),
    winner: false,
    low: lowOf(row),
    busy: isBusy(row),
    unstable: isUnstable(row),
    short: isShort(row),
    change,
    ...(change ? { changeMark: changeGlyph(metric, change) } : {}),
    ariaLabel: `Redis ${row.version}: ${figure} ${metric.spoken}${row.protocol === 'precision' ? ' (geometric mean over the rounds)' : ''}, best configuration ${config}${verdict ? `, ${winnerCallText(verdict, row.best_value, metric)}` : ''}${verdict ? previousReleaseText(verdict, ', ', metric) : ''}${isBusy(row) ? ', measured on a busy machine' : ''}${isUnstable(row) ? ', unstable (coefficient of variation above 10%)' : ''}. Show its configurations.`,
    tooltip: [
      `Redis ${row.version} — ${figure} ${metric.unit}`,
      `Best configuration: ${config}${row.cc_version ? ` (${row.cc_version})` : ''}`,
      ...(verdict ? [capitalize(winnerCallText(verdict, row.best_value, metric)), previousReleaseText(verdict, '', metric)].filter(Boolean) : []),
      ...latencyLines(row.p50_ms, metric),
      capitalize(figureText(row, metric)),
      loadText(row, metric),
      configurationsText(row),
      'Click for all configurations',
    ],
  };
}

/**
 * The bar of one configuration in a version's drilldown, grouped by compiler; `call` is whether
 * the version's winner is called (versionVerdictsQuery): in a tie, the fastest and every
 * configuration within noise of it are marked as tied. In a precision mode `standing` is this
 * configuration against the fastest, by its bootstrap interval (src/model/precision.ts).
 */
export function configBar(row: ConfigRow, colorOf: (compiler: string) => string, call?: WinnerCall, metric: Metric = RPS, standing?: Standing): Bar {
  const { version } = row;
  const name = `${row.compiler} ${row.flag_set}`;
  const flags = [
    row.cflags !== null ? `CFLAGS ${row.cflags || '(none)'}` : '',
    row.ldflags ? `LDFLAGS ${row.ldflags}` : '',
    row.compat_flags ? `compatibility flags ${row.compat_flags}` : '',
  ].filter(Boolean);
  const common = { key: row.cell_id, label: row.flag_set, group: row.compiler };
  if (row.status !== 'ok' || row.best_value === null) {
    const status = row.status === 'ok' ? 'not_collected' : row.status;
    const text = statusText(status, row.reason);
    return {
      ...common, value: null, status, color: '', winner: false, ...missingLabel(status, metric),
      ariaLabel: `Redis ${version} ${name}: no figure, ${text}. Back to all versions.`,
      tooltip: [`${name}: no figure`, capitalize(text), ...flags, 'Click to return to all versions'],
    };
  }
  const figure = formatFigure(row.best_value, metric.unit);
  const precise = row.protocol === 'precision';
  const versus = precise ? standing?.verdict ?? null : row.vs_winner_verdict;
  const tie = call === 'tie' && (row.winner || versus === 'tie');
  const noise = tie ? 'tie' : row.winner && call === 'unknown' ? 'unknown' : null;
  const called = row.winner && (call === 'clear' || call === 'alone');
  const few = precise ? 'fewer than two rounds: no interval' : 'too few repeats to judge the noise';
  const against = precise && standing
    ? `: ${formatChange(standing.ratio)} in paired rounds, ${intervalVerdictText(standing.verdict, standing.interval, metric)}`
    : versus === 'tie' ? ', within noise' : versus === 'slower' ? ', beyond noise' : '';
  const place = row.winner
    ? `the ${metric.best} configuration${tie ? `, but a tie within noise${precise ? ' (an interval against it holds 0)' : ''}` : called || call === undefined ? '' : `, not called a winner (${few})`}`
    : row.vs_winner === null
      ? `${metric.worse} than the ${metric.best}, which counts none`
      : `${formatPercent(Math.abs(row.vs_winner))} ${metric.worse} than the ${metric.best}${against}`;
  return {
    ...common,
    value: row.best_value,
    status: 'ok',
    color: colorOf(row.compiler),
    winner: row.winner,
    noise,
    low: lowOf(row),
    busy: isBusy(row),
    unstable: isUnstable(row),
    short: isShort(row),
    ariaLabel: `Redis ${version} ${name}: ${figure} ${metric.spoken}${called || (row.winner && call === undefined) ? ', winner' : tie ? ', tie within noise' : row.winner ? `, ${metric.best}` : ''}${isBusy(row) ? ', measured on a busy machine' : ''}${isUnstable(row) ? ', unstable (coefficient of variation above 10%)' : ''}. Back to all versions.`,
    tooltip: [
      `${name} — ${figure} ${metric.unit}`,
      `Redis ${version}, ${place}`,
      ...(row.cc_version ? [row.cc_version] : []),
      ...flags,
      ...latencyLines(row.p50_ms, metric),
      capitalize(figureText(row, metric)),
      loadText(row, metric),
      'Click to return to all versions',
    ],
  };
}

/** Whether the version's best configuration (`best`, in the metric's unit) is a winner, in words. */
function winnerCallText(v: VersionVerdictRow, best: number, metric: Metric): string {
  const gap = (runner: number) => (metric.lower ? runner / best - 1 : 1 - runner / best);
  const runner = v.runner_compiler && v.runner_best
    ? ` (runner-up ${v.runner_compiler} ${v.runner_flag_set ?? ''}, ${formatPercent(gap(v.runner_best))} ${metric.worse})`
    : '';
  if (v.standings) {
    switch (v.winner_call) {
      case 'clear':
        return `a clear winner: ${metric.better} than every other configuration, each 95% interval of the paired rounds below 0${runner}`;
      case 'tie':
        return `a tie within noise with ${v.ties} other configuration${v.ties === 1 ? '' : 's'}: ${v.ties === 1 ? 'its' : 'their'} 95% interval${v.ties === 1 ? '' : 's'} hold${v.ties === 1 ? 's' : ''} 0${runner}`;
      case 'unknown':
        return `no winner called: fewer than two rounds, no interval${runner}`;
      case 'alone':
        return 'the only configuration measured';
    }
  }
  switch (v.winner_call) {
    case 'clear':
      return `a clear winner: ${metric.better} than every other configuration beyond noise${runner}`;
    case 'tie':
      return `a tie within noise with ${v.ties} other configuration${v.ties === 1 ? '' : 's'}${runner}`;
    case 'unknown':
      return `no winner called: too few repeats to judge the noise${runner}`;
    case 'alone':
      return 'the only configuration measured';
  }
}

/** "▼ 7.7% slower than 6.2.16, beyond the ±1.3% noise band" ('' for the first release). */
function previousReleaseText(v: VersionVerdictRow, prefix: string, metric: Metric): string {
  if (v.prev_version === null || v.change === null || v.change_verdict === null) return '';
  const paired = v.change_interval ? ' (rounds paired by number)' : '';
  return `${prefix}${verdictGlyphs(metric)[v.change_verdict]} ${formatChange(1 + v.change)} against ${v.prev_version}${paired}, ${verdictText(v.change_verdict, v.change_band, metric, v.change_interval)}`;
}

/** The text with its first letter in upper case. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Version bars grouped by minor line (2.6, 2.8, ... 7.4) when some line has two releases or more
 * in them: at every release of every line (~158 bars) the chart labels the lines, not each
 * release. With one release per line they stay ungrouped, each labelled with its version.
 */
export function groupedByLine(bars: readonly Bar[]): readonly Bar[] {
  const lines = bars.map((b) => minorLine(b.key));
  if (new Set(lines).size === lines.length) return bars;
  return bars.map((b, i) => ({ ...b, group: lines[i] ?? '' }));
}
