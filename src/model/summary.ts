/**
 * What the summary section shows, made from its query rows (src/sql/summary.ts, counted.ts): one
 * change strip per mode (a row per configuration, a dot per test), one table per mode of the
 * geometric means per version, and the lines that compare the instruments. The view only puts
 * them on the page.
 */
import type { SpreadRow, WinnerTallyRow } from '../sql/counted';
import type { SummaryItemRow, SummaryRow } from '../sql/summary';
import { type ConfigRef, type HeatTableData, INSTRUMENT_IDS, type Metric, metricOf, METRICS, RPS, type StripRow } from '../vocabulary';
import { configKey } from './analysisState';
import { changeText, configName, countsNote, countsText, formatChange, verdictGlyphs, verdictText } from './changeText';
import {
  bestConfig, bestConfigText, bestPerMetricText, correlationText, costThroughputCorrelation, spreadText, winnerTallyText,
} from './metricSummary';

/** The key of "all versions": the scope select's value and the tables' last column. */
export const ALL_VERSIONS = '';

/** The modes the scores cover, in the order they come. */
export function summaryModes(scores: readonly SummaryRow[]): string[] {
  return [...new Set(scores.map((s) => s.mode))];
}

/** The scope in words: "all versions" or "Redis 7.4.1". */
export function scopeText(scope: string | null): string {
  return scope === null ? 'all versions' : `Redis ${scope}`;
}

/** The status line when `base` has nothing to compare in `metric`; '' when there are modes to show. */
export function summaryStatus(modes: readonly string[], base: ConfigRef, metric: Metric): string {
  return modes.length ? '' : `Nothing to compare yet in ${metric.name}: ${configName(base)} has no ${metric.kind} test${metric.kind === 'counted' ? ' (not collected yet)' : ''}.`;
}

/** Per mode, the headline: the best configuration against `base` over all versions. */
export function summaryHeadlines(scores: readonly SummaryRow[], base: ConfigRef, metric: Metric): { mode: string; text: string }[] {
  return summaryModes(scores).map((mode) => ({ mode, text: bestConfigText(bestConfig(scores, mode, metric), mode, configName(base), metric) }));
}

/**
 * One configuration's strip row: its geometric mean against `base` (`score`, absent when the two
 * were never measured together) and a point per test (`items`); `allVersions` says the items
 * are means over versions.
 */
export function stripRow(config: ConfigRef, base: ConfigRef, score: SummaryRow | undefined, items: readonly SummaryItemRow[], allVersions: boolean, metric: Metric): StripRow {
  const name = configName(config);
  const reference = configKey(config) === configKey(base);
  const against = `against ${configName(base)}`;
  const points = items.map((i) => ({
    key: i.test,
    ratio: i.ratio,
    verdict: i.verdict,
    tooltip: [
      `${name}: ${i.test}`,
      `${formatChange(i.ratio)} ${metric.name} ${against}${allVersions ? ` (geometric mean over ${i.versions} version${i.versions === 1 ? '' : 's'})` : ''}`,
      verdictText(i.verdict, i.band, metric, i.interval),
    ],
  }));
  if (!score) {
    const why = `${name}: nothing to compare (not measured where ${configName(base)} was)`;
    return { key: configKey(config), label: name, mean: null, band: null, verdict: null, note: '', points, ariaLabel: why, tooltip: [why], reference };
  }
  const mean = `geometric mean ${changeText(score.ratio, score.band, score.verdict, metric, score.interval)}, ${against} over ${score.tests} tests`;
  const extremes = `largest gain ${score.best_test} ${formatChange(score.best_ratio)}, largest loss ${score.worst_test} ${formatChange(score.worst_ratio)}`;
  const counts = countsText(score, 'tests', metric, score.interval !== undefined);
  return {
    key: configKey(config),
    label: reference ? `${name} (baseline)` : name,
    mean: score.ratio,
    band: score.band,
    ...(score.interval ? { interval: score.interval } : {}),
    verdict: score.verdict,
    note: countsNote(score, metric),
    glyph: verdictGlyphs(metric)[score.verdict],
    points,
    ariaLabel: `${name}: ${mean}; ${counts}; ${extremes}.`,
    tooltip: [name, mean, counts, extremes],
    reference,
  };
}

const sameConfig = (row: { compiler: string; flag_set: string }, config: ConfigRef) =>
  row.compiler === config.compiler && row.flag_set === config.flag_set;

/** One mode's change strip: a row per configuration (plan order), its points from `scope` (null: all versions). */
export function summaryStrip(
  mode: string, configs: readonly ConfigRef[], base: ConfigRef, scores: readonly SummaryRow[], items: readonly SummaryItemRow[], scope: string | null, metric: Metric,
): { rows: StripRow[]; label: string; caption: string } {
  const rows = configs.map((config) => stripRow(
    config, base,
    scores.find((s) => s.mode === mode && s.version === scope && sameConfig(s, config)),
    items.filter((i) => i.mode === mode && sameConfig(i, config)),
    scope === null,
    metric,
  ));
  const where = scopeText(scope);
  return {
    rows,
    label: `${mode} mode, ${where}: change in ${metric.name} (${metric.direction}) of each configuration against ${configName(base)}, one dot per test`,
    caption: `${mode} mode${metric.id === 'rps' ? '' : ` · ${metric.name}`} · ${where} · against ${configName(base)}`,
  };
}

/**
 * A per-version table's columns: the versions compared (release order) that are shown, then
 * "all" over every version compared, named with their number when some are not shown (a release
 * set of 11 under a counted metric compared on 158), and the caption's words for that.
 */
export function versionColumns(compared: readonly string[], shown: readonly string[]): {
  versions: string[]; columns: { key: string; label: string }[]; note: string;
} {
  const versions = compared.filter((v) => shown.includes(v));
  const every = versions.length === compared.length;
  const all = every ? 'all' : `all ${compared.length}`;
  return {
    versions,
    columns: [...versions.map((v) => ({ key: v, label: v })), { key: ALL_VERSIONS, label: all }],
    note: every ? '' : `; the ${versions.length} shown of the ${compared.length} versions compared, and "${all}" over every one`,
  };
}

/**
 * One mode's table: a row per configuration, a column per version shown (`shown`) that has a
 * score in the mode (release order `allVersions`: a version nothing was compared on has no
 * column) and one for all versions (ALL_VERSIONS).
 */
export function summaryTable(
  mode: string, allVersions: readonly string[], configs: readonly ConfigRef[], base: ConfigRef, scores: readonly SummaryRow[], metric: Metric,
  shown: readonly string[] = allVersions,
): HeatTableData {
  const { versions, columns, note } = versionColumns(allVersions.filter((v) => scores.some((r) => r.mode === mode && r.version === v)), shown);
  return {
    caption: `${mode} mode: geometric mean of ${metric.name} (${metric.direction}) against ${configName(base)}, per version${note} (click a cell for its per-test changes)`,
    columns,
    rows: configs.map((config) => ({
      key: configKey(config),
      label: configName(config),
      cells: [...versions, null].map((version) => {
        const s = scores.find((r) => r.mode === mode && r.version === version && sameConfig(r, config));
        const where = `${configName(config)}, ${scopeText(version)}, ${mode} mode`;
        return s
          ? { ratio: s.ratio, verdict: s.verdict, glyph: verdictGlyphs(metric)[s.verdict], title: `${where}: ${changeText(s.ratio, s.band, s.verdict, metric, s.interval)} against ${configName(base)}; ${countsText(s, `${s.tests} tests`, metric, s.interval !== undefined)}` }
          : { ratio: null, verdict: null, title: `${where}: not compared (one of the two builds was not measured)` };
      }),
    })),
  };
}

/** Which line of the instruments' comparison a sentence is. */
export type InstrumentLine = 'best' | 'winners' | 'spread' | 'correlation';

/**
 * Per mode, how the instruments compare: the best configuration under each metric, how many
 * chart winners each decides beyond noise, each one's repeat spread, and how cost and speed order
 * the builds. `scores` holds each metric's summary rows against `base` (INSTRUMENT_IDS order);
 * `metric` is the one shown, whose cost (or instructions, under a measured metric) is correlated.
 */
export function instrumentLines(
  base: ConfigRef, metric: Metric, tally: readonly WinnerTallyRow[], spreads: readonly SpreadRow[], scores: readonly (readonly SummaryRow[])[],
): { mode: string; line: InstrumentLine; text: string }[] {
  const cost = metric.kind === 'counted' ? metric : METRICS.ir;
  const scoresOf = (m: Metric) => scores[INSTRUMENT_IDS.indexOf(m.id)] ?? [];
  const modes = [...new Set([...tally.map((r) => r.mode), ...scoresOf(RPS).map((r) => r.mode)])];
  return modes.flatMap((mode) => [
    { mode, line: 'best' as const, text: bestPerMetricText(INSTRUMENT_IDS.map((id) => [metricOf(id), scoresOf(metricOf(id))] as const), mode, configName(base)) },
    { mode, line: 'winners' as const, text: winnerTallyText(tally, mode) },
    { mode, line: 'spread' as const, text: spreadText(spreads, mode) },
    { mode, line: 'correlation' as const, text: correlationText(costThroughputCorrelation(scoresOf(cost), scoresOf(RPS), mode), mode, cost) },
  ]);
}
