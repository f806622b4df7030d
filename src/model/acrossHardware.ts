/**
 * What the across-hardware section shows, made from its query rows (src/sql/acrossHardware.ts):
 * which two classes it sets side by side, a headline per mode, a table per mode of B / A per
 * configuration and version, a table of B / A per test, and whether the ranking of
 * configurations carries over from one class to the other. The view only puts them on the page.
 */
import type { HardwareRankingRow, HardwareRatioRow } from '../sql/acrossHardware';
import type { ConfigRef, HeatTableData } from '../vocabulary';
import { configKey } from './analysisState';
import { changeText, configName, countsNote, countsText, formatChange, VERDICT_GLYPH } from './changeText';
import { formatCount } from './format';
import type { HardwareClass } from './hardware';
import { ranks, spearman } from './ranking';

/** The key of "all": the tables' last column (all versions) and last row (all configurations). */
export const ALL = '';

/** The classes a state sets side by side: the shown class and `vs` (or the first other class); null with fewer than two. */
export function comparedClasses(classes: readonly HardwareClass[], shown: HardwareClass | null, vs: string | null): { a: HardwareClass; b: HardwareClass } | null {
  if (!shown) return null;
  const others = classes.filter((c) => c.slug !== shown.slug);
  const b = others.find((c) => c.slug === vs) ?? others[0];
  return b ? { a: shown, b } : null;
}

/** A class label without the core count when both classes have the same: "AMD EPYC". */
export function shortLabel(label: string, other: string): string {
  const cores = /, (\d+ cores?)$/;
  const mine = cores.exec(label)?.[1];
  return mine !== undefined && cores.exec(other)?.[1] === mine ? label.replace(cores, '') : label;
}

/** The middle 80% of the per-test changes: "+12.0% to +31.5%". */
const changeRange = (row: Pick<HardwareRatioRow, 'p10' | 'p90'>) => `${formatChange(row.p10)} to ${formatChange(row.p90)}`;

/** The status line: both classes with how much of the plan each measured, or that no cell was measured on both. */
export function hardwareStatusText(a: HardwareClass, b: HardwareClass, modes: readonly string[]): string {
  return modes.length
    ? `B: ${b.label} (${formatCount(b.measuredCells)} of ${formatCount(b.plannedCells)} cells measured) against A: ${a.label} (${formatCount(a.measuredCells)} of ${formatCount(a.plannedCells)})`
    : `No cell measured on both ${a.label} and ${b.label} yet.`;
}

/** The modes the ratios cover, in the order they come. */
export function ratioModes(ratios: readonly HardwareRatioRow[]): string[] {
  return [...new Set(ratios.map((r) => r.mode))];
}

/** One mode's headline: "data mode: Intel Xeon ? +18.5% against AMD EPYC (geometric mean of 741 tests in 39 cells …)". */
export function headlineText(mode: string, row: HardwareRatioRow, a: string, b: string): string {
  const used = row.min_used === row.max_used ? `${row.min_used}` : `${row.min_used}–${row.max_used}`;
  return `${mode} mode: ${b} ${VERDICT_GLYPH[row.verdict]} ${formatChange(row.ratio)} against ${a} (geometric mean of ${row.items} tests in ${row.cells} cell${row.cells === 1 ? '' : 's'} measured on both, `
    + `best of ${used} repeat${used === '1' ? '' : 's'} on each side; middle 80% of the per-test changes ${changeRange(row)}; ${countsText(row, 'per test')})`;
}

/** The headline of each mode that has an overall row (every configuration, version and test). */
export function hardwareHeadlines(ratios: readonly HardwareRatioRow[], a: string, b: string): { mode: string; text: string }[] {
  return ratioModes(ratios).flatMap((mode) => {
    const overall = ratios.find((r) => r.mode === mode && r.compiler === null && r.version === null && r.test === null);
    return overall ? [{ mode, text: headlineText(mode, overall, a, b) }] : [];
  });
}

/**
 * One mode's table of B / A: a row per configuration measured on both (plan order) and one for
 * all configurations, a column per version measured on both (release order) and one for all.
 * `a` and `b` name the classes.
 */
export function hardwareTable(
  mode: string, ratios: readonly HardwareRatioRow[], versions: readonly string[], configs: readonly ConfigRef[], a: string, b: string,
): HeatTableData {
  const inMode = ratios.filter((r) => r.mode === mode && r.test === null);
  const shownVersions = versions.filter((v) => inMode.some((r) => r.version === v));
  const rows = [...configs.filter((c) => inMode.some((r) => r.compiler === c.compiler && r.flag_set === c.flag_set)), null];
  return {
    caption: `${mode} mode: ${b} / ${a}, per configuration and version`,
    columns: [...shownVersions.map((v) => ({ key: v, label: v })), { key: ALL, label: 'all' }],
    rows: rows.map((config) => ({
      key: config ? configKey(config) : ALL,
      label: config ? configName(config) : 'all configurations',
      cells: [...shownVersions, null].map((version) => {
        const r = inMode.find((x) => x.compiler === (config?.compiler ?? null) && x.flag_set === (config?.flag_set ?? null) && x.version === version);
        const where = `${config ? configName(config) : 'all configurations'}, ${version === null ? 'all versions' : `Redis ${version}`}, ${mode} mode`;
        return r
          ? { ratio: r.ratio, verdict: r.verdict, title: `${where}: ${b} ${changeText(r.ratio, r.band, r.verdict)} against ${a}; ${countsText(r, `${r.items} tests`)} (${countsNote(r)})` }
          : { ratio: null, verdict: null, title: `${where}: not measured on both classes` };
      }),
    })),
  };
}

/** B / A per test (rows, in the client's order) and mode (columns): where the two CPUs differ most. */
export function hardwareTestsTable(ratios: readonly HardwareRatioRow[], modes: readonly string[], a: string, b: string): HeatTableData {
  const testRows = ratios.filter((r) => r.test !== null);
  const tests = [...new Map(testRows.map((r) => [r.test, r.test_index ?? 0])).entries()].sort((x, y) => x[1] - y[1]).map(([t]) => t as string);
  return {
    caption: `Per test: ${b} / ${a} over every cell measured on both, per mode`,
    columns: modes.map((m) => ({ key: m, label: `${m} mode` })),
    rows: tests.map((test) => ({
      key: test,
      label: test,
      cells: modes.map((mode) => {
        const r = testRows.find((x) => x.mode === mode && x.test === test);
        return r
          ? { ratio: r.ratio, verdict: r.verdict, title: `${test}, ${mode} mode: ${b} ${changeText(r.ratio, r.band, r.verdict)} against ${a}, over ${r.cells} cell${r.cells === 1 ? '' : 's'} (middle 80% ${changeRange(r)}); ${countsText(r, 'per cell')}` }
          : { ratio: null, verdict: null, title: `${test}, ${mode} mode: not measured on both classes` };
      }),
    })),
  };
}

/** The ranking of one mode, with each side's rank and the rank correlation. */
export interface ModeRanking {
  rows: (HardwareRankingRow & { a_rank: number; b_rank: number })[];
  /** Spearman's rank correlation of the two columns, null with fewer than three configurations. */
  rho: number | null;
}

/** Ranks a mode's configurations on each class (1 = fastest against the baseline). */
export function rankMode(rows: readonly HardwareRankingRow[]): ModeRanking {
  const ra = ranks(rows.map((r) => r.a_ratio));
  const rb = ranks(rows.map((r) => r.b_ratio));
  return {
    rows: rows.map((r, i) => ({ ...r, a_rank: ra[i]!, b_rank: rb[i]! })),
    rho: spearman(rows.map((r) => r.a_ratio), rows.map((r) => r.b_ratio)),
  };
}

/** A rank as the table shows it: "2", or "2=" for a shared (fractional) rank. */
export function rankText(rank: number): string {
  return Number.isInteger(rank) ? String(rank) : `${Math.floor(rank)}=`;
}

/** "Fastest on A: clang -O2 -flto (+4.0%); on B: gcc -O2 -flto (+3.1%); rank correlation 0.71 over 12 configurations." */
export function rankingText(ranking: ModeRanking, a: string, b: string): string {
  const top = (side: 'a' | 'b') => {
    const rank = side === 'a' ? 'a_rank' : 'b_rank';
    const best = ranking.rows.filter((r) => r[rank] === Math.min(...ranking.rows.map((x) => x[rank])));
    return best.map((r) => `${configName(r)} (${formatChange(side === 'a' ? r.a_ratio : r.b_ratio)})`).join(' and ');
  };
  const rho = ranking.rho === null
    ? 'too few configurations for a rank correlation'
    : `rank correlation (Spearman) ${ranking.rho.toFixed(2)} over ${ranking.rows.length} configurations`;
  // One repeat per cell on the class with fewer: each side's best is one run, with no spread.
  const single = ranking.rows.length > 0 && ranking.rows.every((r) => r.a_verdict === 'unknown' && r.b_verdict === 'unknown');
  const caveat = single
    ? ' One repeat per cell on each side so far (as many as the class with fewer has): no spread is known, and the rankings are as noisy as single runs.'
    : '';
  return `Fastest on ${a}: ${top('a')}; on ${b}: ${top('b')}; ${rho}.${caveat}`;
}
