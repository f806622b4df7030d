/**
 * The query results behind the charts, cached: version bars and their noise verdicts per version
 * range, asked in two parts (the charts at the top of the page, then the rest), and each chart's
 * drilldowns (fetched once per chart, on first interest). The precision modes' verdicts are the
 * bootstrap's (src/model/precision.ts), asked only when asked for.
 */
import { precisionStats } from '../data/precisionStats';
import { groupBy } from '../model/group';
import { type AppState, chartKey, protocolOf } from '../model/state';
import { type ChartId, type ChartSubset, configBarsQuery, type ConfigRow, versionBarsQuery, type VersionRow } from '../sql/charts';
import { precisionVerdictsQuery } from '../sql/precision';
import type { Query, QueryRunner } from '../sql/query';
import { versionVerdictsQuery, type VersionVerdictRow } from '../sql/verdicts';
import { type MetricId, metricOf } from '../vocabulary';

/** Charts drawn before the first frame is let through, so the top of the page paints early: the first part's charts. */
export const FIRST_CHUNK = 4;

/**
 * The parts in which the page asks for every chart's version bars and verdicts: the first
 * FIRST_CHUNK charts of `charts` (page order), then the others; one part when there are no others.
 */
export function chartParts(charts: readonly ChartId[]): readonly ChartSubset[] {
  if (charts.length <= FIRST_CHUNK) return [null];
  const first = charts.slice(0, FIRST_CHUNK).map(({ mode, test }) => ({ mode, test }));
  return [{ only: first }, { except: first }];
}

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
  /** The query behind every chart's version bars for the state's range (the parts' rows together). */
  versionQuery(state: AppState): Query<VersionRow>;
  /** One chart's version bars for the state's range (its part's query). */
  chartRows(state: AppState, key: string): Promise<readonly VersionRow[]>;
  /** Version bars of every chart for the state's range, by chart key (every part). */
  versionRows(state: AppState): Promise<ReadonlyMap<string, readonly VersionRow[]>>;
  /** The drilldowns of one chart in a metric (default: requests/second), by version. */
  configRows(mode: string, test: string, metric?: MetricId): Promise<ReadonlyMap<string, readonly ConfigRow[]>>;
  /**
   * Noise verdicts of every version bar a state may show, by verdictKey (every part, fetched on the
   * first call): in its metric, of the current versions alone when it shows those, whatever its range;
   * when it shows the precision protocol in requests/second, the precision charts' too.
   */
  verdicts(state: AppState): Promise<ReadonlyMap<string, VersionVerdictRow>>;
  /** The noise verdicts a state may show of the version bars of one chart's part, by verdictKey (fetched on the first call). */
  chartVerdicts(state: AppState, key: string): Promise<ReadonlyMap<string, VersionVerdictRow>>;
  /** Those verdicts if they have arrived, else null (charts draw without their marks until then); a precision chart's once asked for. */
  verdictsIfReady(state: AppState, key: string): ReadonlyMap<string, VersionVerdictRow> | null;
  /** Equal for states that show the same verdicts: metric, whether of the current versions alone, and whether the precision charts'. */
  verdictsKey(state: AppState): string;
}

/** The key of one version bar's verdict: "<chart key>@<version>". */
export function verdictKey(chart: string, version: string): string {
  return `${chart}@${version}`;
}

/** Merges maps with disjoint keys. */
const merged = <V>(maps: readonly ReadonlyMap<string, V>[]): Map<string, V> => new Map(maps.flatMap((m) => [...m]));

/**
 * The precision charts' verdicts (requests/second only): one query over them all, judged here
 * (by the bootstrap), asked on the first call to `found`; a failed query is asked again next time.
 */
function precisionVerdictsOf(db: QueryRunner, precisionModes: readonly string[]) {
  let found: Promise<Map<string, VersionVerdictRow>> | null = null;
  let ready: Map<string, VersionVerdictRow> | null = null;
  return {
    found(): Promise<Map<string, VersionVerdictRow>> {
      if (!found) {
        const asked = (precisionModes.length ? db.run(precisionVerdictsQuery()) : Promise.resolve([])).then((rows) => precisionStats('verdicts', rows)).then((judged) => {
          ready = new Map(judged.map((r) => [verdictKey(chartKey(r.mode, r.test), r.version), r]));
          return ready;
        });
        asked.catch(() => (found = null));
        found = asked;
      }
      return found;
    },
    /** The verdicts once they have arrived, else null. */
    ready: () => ready,
  };
}

/** A state's version range among `versions` (release order), `current` the current versions. */
function rangeOf(state: AppState, versions: readonly string[], current: readonly string[]): VersionRange {
  const from = state.from ? versions.indexOf(state.from) : 0;
  const to = state.to ? versions.indexOf(state.to) : versions.length - 1;
  const currentOnly = state.releases !== 'all' && current.length < versions.length;
  return { from, to, currentOnly, key: `${from}-${to}${currentOnly ? '-current' : ''}` };
}

/**
 * Chart data from `db`, whose versions table orders `versions` (release order), for `charts` in
 * page order (chartParts); `current` are the current versions (every version unless the plan
 * marks others).
 */
export function createChartData(
  db: QueryRunner, versions: readonly string[], charts: readonly ChartId[], current: readonly string[] = versions, precisionModes: readonly string[] = [],
): ChartData {
  const parts = chartParts(charts);
  const precise = (key: string) => precisionModes.some((m) => key.startsWith(`${m}:`));
  const precision = precisionVerdictsOf(db, precisionModes);
  const partIndex = new Map(charts.map((c, i) => [chartKey(c.mode, c.test), i < FIRST_CHUNK || parts.length === 1 ? 0 : 1]));
  const partOf = (key: string) => partIndex.get(key) ?? parts.length - 1;
  // Caches are keyed by metric, part (and range or chart): switching metrics back costs no query.
  const versionCache = new Map<string, Promise<Map<string, VersionRow[]>>>();
  const configCache = new Map<string, Promise<Map<string, ConfigRow[]>>>();
  const verdictCache = new Map<string, Promise<Map<string, VersionVerdictRow>>>();
  const verdictsReady = new Map<string, Map<string, VersionVerdictRow>>();
  const range = (state: AppState): VersionRange => rangeOf(state, versions, current);
  // The whole range needs no condition (null).
  const bounds = (state: AppState) => {
    const { from, to } = range(state);
    return from === 0 && to === versions.length - 1 ? null : { from, to };
  };
  const partRows = (state: AppState, part: number) => {
    const key = `${state.metric}|${range(state).key}|${part}`;
    let rows = versionCache.get(key);
    if (!rows) {
      rows = db.run(versionBarsQuery(bounds(state), metricOf(state.metric), range(state).currentOnly, parts[part] ?? null))
        .then((found) => groupBy(found, (r) => chartKey(r.mode, r.test)));
      versionCache.set(key, rows);
    }
    return rows;
  };
  const partKey = (state: AppState) => `${state.metric}|${range(state).currentOnly ? 'current' : 'all'}`;
  // The precision charts' verdicts are the bootstrap's, in requests/second when the precision protocol is shown.
  const withPrecision = (state: AppState) => state.metric === 'rps' && protocolOf(state.mode, precisionModes) === 'precision';
  const partVerdicts = (state: AppState, part: number) => {
    const key = `${partKey(state)}|${part}`;
    let found = verdictCache.get(key);
    if (!found) {
      found = db.run(versionVerdictsQuery(metricOf(state.metric), range(state).currentOnly, parts[part] ?? null)).then((rows) => {
        const ready = new Map(rows.map((r) => [verdictKey(chartKey(r.mode, r.test), r.version), r]));
        verdictsReady.set(key, ready);
        return ready;
      });
      verdictCache.set(key, found);
    }
    return found;
  };
  return {
    range,
    versionQuery: (state) => versionBarsQuery(bounds(state), metricOf(state.metric), range(state).currentOnly),
    chartRows: async (state, key) => (await partRows(state, partOf(key))).get(key) ?? [],
    versionRows: async (state) => merged(await Promise.all(parts.map((_, i) => partRows(state, i)))),
    configRows(mode, test, metric = 'rps') {
      const key = `${metric}|${chartKey(mode, test)}`;
      let rows = configCache.get(key);
      if (!rows) {
        rows = db.run(configBarsQuery(mode, test, metricOf(metric))).then((found) => groupBy(found, (r) => r.version));
        configCache.set(key, rows);
      }
      return rows;
    },
    verdicts: async (state) => merged(await Promise.all([
      ...parts.map((_, i) => partVerdicts(state, i)),
      ...(withPrecision(state) ? [precision.found()] : []),
    ])),
    chartVerdicts: (state, key) => partVerdicts(state, partOf(key)),
    verdictsIfReady: (state, key) => (precise(key)
      ? (state.metric === 'rps' ? precision.ready() : new Map())
      : verdictsReady.get(`${partKey(state)}|${partOf(key)}`) ?? null),
    verdictsKey: (state) => `${partKey(state)}${withPrecision(state) ? '|precision' : ''}`,
  };
}
