/**
 * Turns query rows into chart bars: labels, accessible names and tooltip lines. No numbers are
 * computed here beyond formatting; the figures come from SQL.
 */
import type { Bar } from '../chart/barChart';
import type { CellStatus, ConfigRow, VersionRow } from '../sql/charts';
import { formatMs, formatPercent, formatRps } from './format';

/** A sentence for why a bar has no figure. */
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
      return 'not collected yet';
  }
}

/** "best of 3 of 3 repeats, spread 119,000 – 123,456 req/s (3.6%)" for a measured figure. */
function repeatsText(best: number, worst: number | null, okRepeats: number | null, planned: number | null): string {
  const counted = `best of ${okRepeats ?? '?'} of ${planned ?? '?'} repeats`;
  if (worst === null || !okRepeats || okRepeats < 2) return counted;
  return `${counted}, spread ${formatRps(worst)} – ${formatRps(best)} req/s (${formatPercent((best - worst) / best)})`;
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

/** The bar of one version: its best configuration, coloured by that configuration's compiler. */
export function versionBar(row: VersionRow, colorOf: (compiler: string) => string): Bar {
  const config = row.compiler ? `${row.compiler} ${row.flag_set ?? ''}`.trim() : '';
  if (row.status !== 'ok' || row.best_rps === null) {
    const status = row.status === 'ok' ? 'not_collected' : row.status;
    const text = statusText(status, row.reason);
    return {
      key: row.version, label: row.version, group: '', value: null, status, color: '', winner: false,
      ariaLabel: `Redis ${row.version}: no figure, ${text}. Show its configurations.`,
      tooltip: [`Redis ${row.version}: no figure`, capitalize(text), configurationsText(row), 'Click for its configurations'],
    };
  }
  const rps = formatRps(row.best_rps);
  return {
    key: row.version,
    label: row.version,
    group: '',
    value: row.best_rps,
    status: 'ok',
    color: colorOf(row.compiler ?? ''),
    winner: false,
    ariaLabel: `Redis ${row.version}: ${rps} requests per second, best configuration ${config}. Show its configurations.`,
    tooltip: [
      `Redis ${row.version} — ${rps} req/s`,
      `Best configuration: ${config}${row.cc_version ? ` (${row.cc_version})` : ''}`,
      row.p50_ms === null ? 'p50 latency: not printed by this client' : `p50 latency ${formatMs(row.p50_ms)}`,
      capitalize(repeatsText(row.best_rps, row.min_rps, row.ok_repeats, row.planned_repeats)),
      configurationsText(row),
      'Click for all configurations',
    ],
  };
}

/** The bar of one configuration in a version's drilldown, grouped by compiler. */
export function configBar(row: ConfigRow, colorOf: (compiler: string) => string): Bar {
  const { version } = row;
  const name = `${row.compiler} ${row.flag_set}`;
  const flags = [
    row.cflags !== null ? `CFLAGS ${row.cflags || '(none)'}` : '',
    row.ldflags ? `LDFLAGS ${row.ldflags}` : '',
    row.compat_flags ? `compatibility flags ${row.compat_flags}` : '',
  ].filter(Boolean);
  const common = { key: row.cell_id, label: row.flag_set, group: row.compiler };
  if (row.status !== 'ok' || row.best_rps === null) {
    const status = row.status === 'ok' ? 'not_collected' : row.status;
    const text = statusText(status, row.reason);
    return {
      ...common, value: null, status, color: '', winner: false,
      ariaLabel: `Redis ${version} ${name}: no figure, ${text}. Back to all versions.`,
      tooltip: [`${name}: no figure`, capitalize(text), ...flags, 'Click to return to all versions'],
    };
  }
  const rps = formatRps(row.best_rps);
  const standing = row.winner ? 'the fastest configuration' : `${formatPercent(-(row.vs_winner ?? 0))} slower than the fastest`;
  return {
    ...common,
    value: row.best_rps,
    status: 'ok',
    color: colorOf(row.compiler),
    winner: row.winner,
    ariaLabel: `Redis ${version} ${name}: ${rps} requests per second${row.winner ? ', winner' : ''}. Back to all versions.`,
    tooltip: [
      `${name} — ${rps} req/s`,
      `Redis ${version}, ${standing}`,
      ...(row.cc_version ? [row.cc_version] : []),
      ...flags,
      row.p50_ms === null ? 'p50 latency: not printed by this client' : `p50 latency ${formatMs(row.p50_ms)}`,
      capitalize(repeatsText(row.best_rps, row.min_rps, row.ok_repeats, row.planned_repeats)),
      'Click to return to all versions',
    ],
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
