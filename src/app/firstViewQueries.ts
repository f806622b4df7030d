/**
 * The queries the page runs for its first screenful in the default state, as the sections ask
 * them (their own default rules: comparedSides, comparedClasses): what the build answers into
 * data/first-view.json, first-view-sections.json and first-view-drilldowns.json
 * (src/data/firstView.ts). A query asked differently (another state, or a builder changed since
 * the build) simply goes to the engine.
 */
import type { Catalog } from '../data/tables';
import { comparedClasses } from '../model/acrossHardware';
import { comparedSides } from '../model/analysisState';
import { DEFAULTS } from '../model/state';
import { hardwareRankingQuery, hardwareRatiosQuery } from '../sql/acrossHardware';
import { allConfigBarsQuery, configBarsQuery, versionBarsQuery } from '../sql/charts';
import { compareQuery } from '../sql/compare';
import { countedFiguresQuery, spreadQuery, winnerTallyQuery } from '../sql/counted';
import { effectsQuery } from '../sql/effects';
import { compilersQuery, coverageQuery, datesQuery, machinesQuery, protocolQuery } from '../sql/meta';
import type { Query } from '../sql/query';
import { summaryItemsQuery, summaryQuery } from '../sql/summary';
import { versionVerdictsQuery } from '../sql/verdicts';
import { METRICS, RPS } from '../vocabulary';

/** The first view's queries: what the first paint needs, and what the sections above the charts ask as they open. */
export interface FirstViewQueries {
  /** All charts' version bars over every version (the default range), their noise verdicts, the header's facts. */
  readonly paint: readonly Query<unknown>[];
  /** Summary, build factors, trends, compare and across hardware in their default state, and the counted figures. */
  readonly sections: readonly Query<unknown>[];
  /** Every chart's drilldowns: what the page prefetches once idle, so that no click waits. */
  readonly drilldowns: readonly Query<unknown>[];
}

/** The queries the page runs first with the default state, for `catalog`. */
export function firstViewQueries(catalog: Catalog): FirstViewQueries {
  const base = catalog.configs[0];
  const chart = catalog.charts[0];
  const sides = comparedSides(DEFAULTS, catalog.versions);
  const classes = comparedClasses(catalog.hardware, catalog.selectedHardware, DEFAULTS.vs);
  return {
    paint: [versionBarsQuery(null, RPS, catalog.currentVersions.length < catalog.versions.length), versionVerdictsQuery(), coverageQuery(), machinesQuery(), compilersQuery(), protocolQuery(), datesQuery()],
    sections: [
      countedFiguresQuery(), effectsQuery(RPS), winnerTallyQuery(), spreadQuery(),
      ...(base ? [summaryQuery(base, RPS), summaryItemsQuery(base, null, RPS), summaryQuery(base, METRICS.ir)] : []),
      ...(chart ? [configBarsQuery(chart.mode, chart.test, RPS)] : []),
      ...(sides ? [compareQuery(sides.a, sides.b, RPS)] : []),
      ...(classes && base ? [hardwareRatiosQuery(classes.a.label, classes.b.label), hardwareRankingQuery(classes.a.label, classes.b.label, base)] : []),
    ],
    drilldowns: [allConfigBarsQuery(RPS)],
  };
}
