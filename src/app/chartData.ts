/**
 * The query results behind the charts, cached: version bars per version range, and each chart's
 * drilldowns (fetched once per chart, on first interest).
 */
import { type AppState, chartKey } from '../model/state';
import { allConfigBarsQuery, configBarsQuery, type ConfigRow, versionBarsQuery, type VersionRow } from '../sql/charts';
import type { Query, QueryRunner } from '../sql/query';
import { versionVerdictsQuery, type VersionVerdictRow } from '../sql/verdicts';
import { type MetricId, metricOf } from '../vocabulary';

/** A state's version range as indexes into the versions in release order (what SQL calls ord). */
export interface VersionRange {
  readonly from: number;
  readonly to: number;
  /** Only the current versions within it (the data has others, and the state shows the current ones). */
  readonly currentOnly: boolean;
  /** Equal for equal ranges: a cache key. */
  readonly key: string;
}

/** Cached chart data. */
export interface ChartData {
  /** The version range a state shows. */
  range(state: AppState): VersionRange;
  /** The query behind every chart's version bars for the state's range (what versionRows runs). */
  versionQuery(state: AppState): Query<VersionRow>;
  /** Version bars of every chart for the state's range, by chart key. */
  versionRows(state: AppState): Promise<ReadonlyMap<string, readonly VersionRow[]>>;
  /** The drilldowns of one chart in a metric (default: requests/second), by version. */
  configRows(mode: string, test: string, metric?: MetricId): Promise<ReadonlyMap<string, readonly ConfigRow[]>>;
  /**
   * Fetches the drilldowns of every chart not yet fetched, in one background query (what the page
   * does once idle, so that no click waits for a query). Until it has arrived, configRows queries
   * its chart on its own rather than wait behind the background work.
   */
  prefetchAllConfigRows(metric?: MetricId): Promise<void>;
  /** Noise verdicts of every version bar in a metric, by verdictKey (fetched on the first call). */
  verdicts(metric?: MetricId): Promise<ReadonlyMap<string, VersionVerdictRow>>;
  /** The verdicts in a metric if they have arrived, else null (charts draw without their marks until then). */
  verdictsIfReady(metric?: MetricId): ReadonlyMap<string, VersionVerdictRow> | null;
}

/** The key of one version bar's verdict: "<chart key>@<version>". */
export function verdictKey(chart: string, version: string): string {
  return `${chart}@${version}`;
}

function groupBy<Row>(rows: readonly Row[], keyOf: (row: Row) => string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

/**
 * Chart data from `db`, whose versions table orders `versions` (release order); the all-charts
 * prefetch goes through `background` (the same database at a lower priority, priority.ts);
 * `current` are the current versions (every version unless the plan marks others).
 */
export function createChartData(db: QueryRunner, versions: readonly string[], background: QueryRunner = db, current: readonly string[] = versions): ChartData {
  // Caches are keyed by metric (and range or chart): switching metrics back costs no query.
  const versionCache = new Map<string, Promise<Map<string, VersionRow[]>>>();
  const configCache = new Map<string, Promise<Map<string, ConfigRow[]>>>();
  const allConfigs = new Map<MetricId, Promise<void>>();
  const verdicts = new Map<MetricId, Promise<Map<string, VersionVerdictRow>>>();
  const verdictsReady = new Map<MetricId, Map<string, VersionVerdictRow>>();
  const range = (state: AppState): VersionRange => {
    const from = state.from ? versions.indexOf(state.from) : 0;
    const to = state.to ? versions.indexOf(state.to) : versions.length - 1;
    const currentOnly = state.releases !== 'all' && current.length < versions.length;
    return { from, to, currentOnly, key: `${from}-${to}${currentOnly ? '-current' : ''}` };
  };
  const versionQuery = (state: AppState) => {
    const { from, to, currentOnly } = range(state);
    return versionBarsQuery(from === 0 && to === versions.length - 1 ? null : { from, to }, metricOf(state.metric), currentOnly);
  };
  return {
    range,
    versionQuery,
    versionRows(state) {
      const key = `${state.metric}|${range(state).key}`;
      let rows = versionCache.get(key);
      if (!rows) {
        rows = db.run(versionQuery(state)).then((found) => groupBy(found, (r) => chartKey(r.mode, r.test)));
        versionCache.set(key, rows);
      }
      return rows;
    },
    configRows(mode, test, metric = 'rps') {
      const key = `${metric}|${chartKey(mode, test)}`;
      let rows = configCache.get(key);
      if (!rows) {
        rows = db.run(configBarsQuery(mode, test, metricOf(metric))).then((found) => groupBy(found, (r) => r.version));
        configCache.set(key, rows);
      }
      return rows;
    },
    prefetchAllConfigRows(metric = 'rps') {
      let all = allConfigs.get(metric);
      if (!all) {
        all = background.run(allConfigBarsQuery(metricOf(metric))).then((found) => {
          for (const [chart, rows] of groupBy(found, (r) => chartKey(r.mode, r.test))) {
            const key = `${metric}|${chart}`;
            if (!configCache.has(key)) configCache.set(key, Promise.resolve(groupBy<ConfigRow>(rows, (r) => r.version)));
          }
        });
        allConfigs.set(metric, all);
      }
      return all;
    },
    verdicts(metric = 'rps') {
      let found = verdicts.get(metric);
      if (!found) {
        found = db.run(versionVerdictsQuery(metricOf(metric))).then((rows) => {
          const ready = new Map(rows.map((r) => [verdictKey(chartKey(r.mode, r.test), r.version), r]));
          verdictsReady.set(metric, ready);
          return ready;
        });
        verdicts.set(metric, found);
      }
      return found;
    },
    verdictsIfReady: (metric = 'rps') => verdictsReady.get(metric) ?? null,
  };
}
