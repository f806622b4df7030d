/**
 * The queries the page runs in the default state, as the charts and sections ask them (their own
 * default rules: chartParts, comparedSides, comparedClasses): what the build answers into
 * data/first-view.json and the further answer files it names (src/data/firstView.ts). A query
 * asked differently (another state, or a builder changed since the build) simply goes to the engine.
 */
import { ANSWER_DIR } from '../data/firstView';
import type { Catalog } from '../data/tables';
import { comparedClasses } from '../model/acrossHardware';
import { compareCandidates, comparedSides } from '../model/analysisState';
import { releaseSpans } from '../model/releaseChanges';
import { DEFAULTS, shownVersions } from '../model/state';
import { hardwareRankingQuery, hardwareRatiosQuery } from '../sql/acrossHardware';
import { configBarsQuery, versionBarsQuery } from '../sql/charts';
import { answerNoiseQuery, answerQuery } from '../sql/answer';
import { compareQuery } from '../sql/compare';
import { countedFiguresQuery, rebuildBandsQuery, spreadQuery, winnerTallyQuery } from '../sql/counted';
import { effectsQuery } from '../sql/effects';
import { compilersQuery, countProtocolQuery, coverageQuery, datesQuery, machinesQuery, protocolQuery } from '../sql/meta';
import { testDurationQuery } from '../sql/precision';
import type { Query } from '../sql/query';
import { releaseCausesQuery } from '../sql/releaseCauses';
import { releaseChangesQuery } from '../sql/releaseChanges';
import { summaryItemsQuery, summaryQuery } from '../sql/summary';
import { versionVerdictsQuery } from '../sql/verdicts';
import { INSTRUMENT_IDS, type MetricId, METRICS, metricOf, RPS } from '../vocabulary';
import { chartParts } from '../views/chartData';

/** Queries whose answers the build writes into one file. */
export interface AnswerGroup {
  /** The file, relative to the data folder. */
  readonly file: string;
  readonly queries: readonly Query<unknown>[];
}

/** The first view's queries, and those of the further answer files, each fetched when one of its queries is first asked. */
export interface FirstViewQueries {
  /** In first-view.json, what the first paint needs: the first charts' version bars and verdicts, the header's facts. */
  readonly paint: readonly Query<unknown>[];
  /**
   * The other charts' version bars and verdicts (asked as soon as the first charts are drawn);
   * summary, build factors, trends, compare, across hardware and the changes between releases in
   * their default state, and the counted figures (asked once the charts are painted); when the
   * charts show the current versions alone by default, every release's verdicts (asked when every
   * release is shown).
   */
  readonly files: readonly AnswerGroup[];
  /**
   * Each chart's drilldowns, a file per chart and metric (the default metric's and
   * requests/second's; fetched, in the metric shown, once the page is idle as the chart comes
   * near the screen, or when a pointer or focus enters the chart, or a bar is opened); the build
   * puts them all in DRILLDOWNS_FILE instead when they are small.
   */
  readonly drilldowns: readonly AnswerGroup[];
}

/**
 * The file of every chart's version bars and noise verdicts in requests/second (the default
 * release set). index.html preloads it for a link to requests/second, with the first view.
 */
export const RPS_CHARTS_FILE = `${ANSWER_DIR}charts-rps.json`;

/** The file of every chart's drilldowns, when the build keeps them together. */
export const DRILLDOWNS_FILE = `${ANSWER_DIR}drilldowns.json`;

/**
 * A chart's drilldown file in one metric: its place on the page, mode and test, readable and
 * unique; the default metric's has no suffix, another's ends in its id ("-rps").
 */
const drilldownFile = (index: number, mode: string, test: string, metric: MetricId) =>
  `${ANSWER_DIR}drilldowns/${String(index).padStart(2, '0')}-${mode}-${test.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')}${metric === DEFAULTS.metric ? '' : `-${metric}`}.json`;

/** The queries the page runs with the default state, for `catalog`. */
export function firstViewQueries(catalog: Catalog): FirstViewQueries {
  const base = catalog.configs[0];
  // The page's default metric: every chart and section below opens in it.
  const metric = metricOf(DEFAULTS.metric);
  const shown = shownVersions(DEFAULTS, catalog.versions, catalog.currentVersions);
  // Compare's default sides, as the section picks them under the default metric.
  const sides = comparedSides(DEFAULTS, compareCandidates(shown, metric.kind === 'counted' ? catalog.countedVersions : catalog.measuredVersions));
  const classes = comparedClasses(catalog.hardware, catalog.selectedHardware, DEFAULTS.vs);
  const [first = null, ...others] = chartParts(catalog.charts);
  // The charts show the current versions alone by default when the plan marks others.
  const currentOnly = catalog.currentVersions.length < catalog.versions.length;
  // The changes between releases: consecutive releases shown that have counts, in instructions per request.
  const pairs = releaseSpans(shown, catalog.countedVersions).spans.map((s) => [s.from, s.to] as const);
  // Requests/second too, the other instrument a reader switches to: its charts and drilldowns
  // draw from files as well, without waiting for the engine. A file per metric: the page fetches
  // the drilldowns of the metric shown.
  const drilldowns = catalog.charts.flatMap(({ mode, test }, i) => [metric, RPS].map((m) => ({ file: drilldownFile(i, mode, test, m.id), queries: [configBarsQuery(mode, test, m)] })));
  return {
    paint: [answerQuery(), answerNoiseQuery(), versionBarsQuery(null, metric, currentOnly, first), versionVerdictsQuery(metric, currentOnly, first), coverageQuery(), machinesQuery(), compilersQuery(), protocolQuery(), countProtocolQuery(), datesQuery(), rebuildBandsQuery()],
    files: [
      ...(others.length ? [{ file: `${ANSWER_DIR}charts.json`, queries: others.flatMap((part) => [versionBarsQuery(null, metric, currentOnly, part), versionVerdictsQuery(metric, currentOnly, part)]) }] : []),
      { file: RPS_CHARTS_FILE, queries: [first, ...others].flatMap((part) => [versionBarsQuery(null, RPS, currentOnly, part), versionVerdictsQuery(RPS, currentOnly, part)]) },
      // Every release's verdicts (releases=all), whose bars the engine draws: then it has them at once.
      ...(currentOnly ? [{ file: `${ANSWER_DIR}every-release-verdicts.json`, queries: [first, ...others].map((part) => versionVerdictsQuery(metric, false, part)) }] : []),
      {
        file: `${ANSWER_DIR}sections.json`,
        queries: [
          countedFiguresQuery(), effectsQuery(metric), winnerTallyQuery(), spreadQuery(), testDurationQuery(),
          // The summary's scores in every metric (its line on the best build under each).
          ...(base ? [summaryItemsQuery(base, null, metric), ...INSTRUMENT_IDS.map((id) => summaryQuery(base, metricOf(id)))] : []),
          ...(sides ? [compareQuery(sides.a, sides.b, metric)] : []),
          ...(classes && base ? [hardwareRatiosQuery(classes.a.label, classes.b.label), hardwareRankingQuery(classes.a.label, classes.b.label, base)] : []),
          ...(pairs.length ? [releaseChangesQuery(pairs, METRICS.ir), releaseCausesQuery(pairs, catalog.depColumns)] : []),
        ],
      },
    ],
    // The trends section's default chart (the first) reads its drilldowns too.
    drilldowns,
  };
}
