/**
 * What the build-factor section shows, made from its query rows (src/sql/effects.ts): per mode a
 * headline of every factor's effect over all versions, and a table of the effects per version.
 * The view only puts them on the page.
 */
import type { EffectRow } from '../sql/effects';
import type { HeatTableData, Metric } from '../vocabulary';
import { changeText, countsText, formatChange, verdictGlyphs } from './changeText';
import { versionColumns } from './summary';

/** "clang vs gcc", "-Os vs -O2", "LTO (-flto) on vs off". */
export function effectName(row: Pick<EffectRow, 'factor' | 'level' | 'base'>): string {
  return row.factor === 'lto' ? 'LTO (-flto) on vs off' : `${row.level} vs ${row.base}`;
}

/** What an effect holds fixed, in words. */
const HELD: Readonly<Record<EffectRow['factor'], string>> = {
  compiler: 'same flags',
  level: 'same compiler, same LTO',
  lto: 'same compiler, same level',
};

/** The modes the effects cover, in the order they come. */
export function effectModes(rows: readonly EffectRow[]): string[] {
  return [...new Set(rows.map((r) => r.mode))];
}

/** The status line: why there is nothing to show, or nothing. */
export function factorsStatus(modes: readonly string[]): string {
  return modes.length ? '' : 'Nothing to compare yet: no two builds that differ in one factor were both measured.';
}

/** Per mode, its lead ("data mode, all versions: ") and every factor's effect over all versions ("clang vs gcc ▲ +4.1% · …"). */
export function factorHeadlines(rows: readonly EffectRow[], metric: Metric): { mode: string; lead: string; text: string }[] {
  const glyph = verdictGlyphs(metric);
  return effectModes(rows).map((mode) => ({
    mode,
    lead: `${mode} mode, all versions${metric.id === 'rps' ? '' : `, ${metric.name}`}: `,
    text: rows.filter((r) => r.mode === mode && r.version === null).map((r) => `${effectName(r)} ${glyph[r.verdict]} ${formatChange(r.ratio)}`).join(' · '),
  }));
}

/**
 * One mode's table: a row per effect (in the rows' order), a column per version shown (`shown`)
 * that was measured (release order `versions`) and one for all.
 */
export function factorTable(mode: string, rows: readonly EffectRow[], versions: readonly string[], metric: Metric, shown: readonly string[] = versions): HeatTableData {
  const glyph = verdictGlyphs(metric);
  const inMode = rows.filter((r) => r.mode === mode);
  const effects = [...new Map(inMode.map((r) => [`${r.factor}:${r.level}`, r])).values()];
  const { versions: shownVersions, columns, note } = versionColumns(versions.filter((v) => inMode.some((r) => r.version === v)), shown);
  return {
    caption: `${mode} mode: effect of each factor on ${metric.name} (${metric.direction}), per version${note}`,
    columns,
    rows: effects.map((effect) => ({
      key: `${effect.factor}:${effect.level}`,
      label: effectName(effect),
      cells: [...shownVersions, null].map((version) => {
        const r = inMode.find((x) => x.factor === effect.factor && x.level === effect.level && x.version === version);
        const where = `${effectName(effect)}, ${version === null ? 'all versions' : `Redis ${version}`}, ${mode} mode`;
        return r
          ? { ratio: r.ratio, verdict: r.verdict, glyph: glyph[r.verdict], title: `${where}: ${changeText(r.ratio, r.band, r.verdict, metric, r.interval)}; ${countsText(r, `${r.pairs} pairs (${HELD[r.factor]})`, metric, r.interval !== undefined)}` }
          : { ratio: null, verdict: null, title: `${where}: no pair of builds measured` };
      }),
    })),
  };
}
