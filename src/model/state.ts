/**
 * The page state: one typed object, one DEFAULTS, and a pure encode/decode to the URL's query
 * string. Everything a user can change lives here, so a URL restores exactly what was on screen.
 *
 * URL form (only values that differ from DEFAULTS are written, in a fixed order):
 *   ?hw=amd-epyc-2-cores&ext=1&metric=ir&view=max&mode=data&q=lrange&from=2.8.24&to=7.4.1&releases=all&open=data:SET@7.4.1&open=pipe:GET@2.6.17&chart=data:SET
 *   &table=data:SET&sql=SELECT+*+FROM+results&limit=100
 *   &base=clang|-O2&scope=7.4.1&a=7.2.6&b=7.4.1&vs=intel-r-xeon-r-processor-2-cores&cell=7.4.1|clang|-Ofast&section=compare
 *   (analysisState.ts)
 */
import { METRIC_IDS, type MetricId, METRICS, type Protocol } from '../vocabulary';
import {
  ANALYSIS_DEFAULTS, ANALYSIS_PARAMS, type AnalysisState, decodeAnalysis, encodeAnalysis, reconcileAnalysis,
} from './analysisState';
import type { AxisView } from './domain';
import { minorLine } from './versions';

/** Which releases the charts show: the current versions, or every release planned. */
export type ReleaseSet = 'current' | 'all';

/**
 * Which benchmark modes are shown: 'all' the reference modes (data and pipe), 'precision' every
 * precision mode (data-long and pipe-long), or one mode by name.
 */
export type ModeFilter = 'all' | 'precision' | (string & {});

/** The whole page state. */
export interface AppState extends AnalysisState {
  /**
   * Slug of the hardware class shown (src/model/hardware.ts), or null for the default. Set
   * whenever the data has more than one class, so a link names its hardware; null with one.
   */
  readonly hw: string | null;
  /**
   * Whether the extended configurations (plan.extended: -O3, -O3 -flto, ...) are shown beside the
   * reference ones. Like the hardware, it decides what every table holds: a change loads the page anew.
   */
  readonly ext: boolean;
  /** The metric every view shows (src/vocabulary.ts): measured requests/second or latency, or a counted cost per request. */
  readonly metric: MetricId;
  /** Axis view for every chart on the page. */
  readonly view: AxisView;
  /** Benchmark modes shown; a precision mode (or 'precision') shows the precision protocol in the sections too. */
  readonly mode: ModeFilter;
  /** Case-insensitive substring a test name must contain ('' shows all). */
  readonly q: string;
  /** Oldest version shown (inclusive), or null for the oldest in the data. */
  readonly from: string | null;
  /** Newest version shown (inclusive), or null for the newest in the data. */
  readonly to: string | null;
  /**
   * Which releases the charts show: 'all', or 'current' (the default) for the current versions
   * only (plan.current: the newest patch of each minor line); the same when the data has no other.
   */
  readonly releases: ReleaseSet;
  /** Open drilldowns: chart key -> the version whose configurations that chart shows. */
  readonly open: Readonly<Record<string, string>>;
  /** The chart key the page is scrolled to, or null for the top. */
  readonly chart: string | null;
  /** Chart keys whose data table is shown under the chart. */
  readonly tables: readonly string[];
  /** The SQL console's text, or null when the console is closed ('' = open and empty). */
  readonly sql: string | null;
  /** Most rows the console shows of a result. */
  readonly limit: number;
}

/** The state of a URL with no parameters. */
export const DEFAULTS: AppState = Object.freeze({
  hw: null,
  ext: false,
  // Counted instructions repeat exactly; requests/second repeats lie a median 12.6% / 11.8% apart
  // on the reference hardware, so only the count can rank builds: it is what a reader sees first.
  metric: 'ir',
  view: 'real',
  mode: 'all',
  q: '',
  from: null,
  to: null,
  releases: 'current',
  open: Object.freeze({}),
  chart: null,
  tables: Object.freeze([]),
  sql: null,
  limit: 1000,
  ...ANALYSIS_DEFAULTS,
});

const VIEWS: readonly AxisView[] = ['real', 'max'];
/** What a mode filter in a URL may look like before the data is known (checked then by reconcileState). */
const MODE_FORM = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
const RELEASE_SETS: readonly ReleaseSet[] = ['current', 'all'];
const MAX_QUERY_LENGTH = 200;
/** Longest console SQL a link may carry (a chart's query is ~2,000 characters). */
export const MAX_SQL_LENGTH = 20_000;
/** Largest console row limit: a table of more rows makes the page slow; the downloads have every row. */
export const MAX_ROW_LIMIT = 10_000;

/** The key naming one chart: "<mode>:<test>", e.g. "data:LRANGE_100 (first 100 elements)". */
export function chartKey(mode: string, test: string): string {
  return `${mode}:${test}`;
}

/** The mode and test of a chart key, or null when it has no "<mode>:" prefix. */
export function parseChartKey(key: string): { mode: string; test: string } | null {
  const colon = key.indexOf(':');
  if (colon <= 0 || colon === key.length - 1) return null;
  return { mode: key.slice(0, colon), test: key.slice(colon + 1) };
}

/** The query string for a state ('' for DEFAULTS, otherwise starting with '?'). */
export function encodeState(state: AppState): string {
  const params = new URLSearchParams();
  if (state.hw) params.set('hw', state.hw);
  if (state.ext) params.set('ext', '1');
  if (state.metric !== DEFAULTS.metric) params.set('metric', state.metric);
  if (state.view !== DEFAULTS.view) params.set('view', state.view);
  if (state.mode !== DEFAULTS.mode) params.set('mode', state.mode);
  if (state.q) params.set('q', state.q);
  if (state.from) params.set('from', state.from);
  if (state.to) params.set('to', state.to);
  if (state.releases !== DEFAULTS.releases) params.set('releases', state.releases);
  for (const key of Object.keys(state.open).sort()) params.append('open', `${key}@${state.open[key]}`);
  if (state.chart) params.set('chart', state.chart);
  for (const key of [...state.tables].sort()) params.append('table', key);
  if (state.sql !== null) params.set('sql', state.sql);
  if (state.limit !== DEFAULTS.limit) params.set('limit', String(state.limit));
  encodeAnalysis(state, params);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A decoded state and, for every part of the URL that could not be used, a sentence saying so. */
export interface Decoded {
  readonly state: AppState;
  readonly problems: readonly string[];
}

/** The drilldowns open ("<chart key>@<version>", repeated), each unreadable one a problem. */
function decodeOpen(params: URLSearchParams, problems: string[]): Record<string, string> {
  const open: Record<string, string> = {};
  for (const entry of params.getAll('open')) {
    const at = entry.lastIndexOf('@');
    const key = at > 0 ? entry.slice(0, at) : '';
    const version = at > 0 ? entry.slice(at + 1) : '';
    if (!parseChartKey(key) || !version) {
      problems.push(`Could not read the drilldown "${entry}"; ignored.`);
      continue;
    }
    open[key] = version;
  }
  return open;
}

/** The console's query and row limit; one too long or out of range is a problem. */
function decodeConsole(params: URLSearchParams, problems: string[]): Pick<AppState, 'sql' | 'limit'> {
  let sql = params.get('sql');
  if (sql !== null && sql.length > MAX_SQL_LENGTH) {
    problems.push(`The console query is longer than ${MAX_SQL_LENGTH} characters; ignored.`);
    sql = '';
  }
  const rawLimit = params.get('limit');
  let limit = DEFAULTS.limit;
  if (rawLimit !== null) {
    if (/^\d+$/.test(rawLimit) && Number(rawLimit) >= 1 && Number(rawLimit) <= MAX_ROW_LIMIT) limit = Number(rawLimit);
    else problems.push(`The row limit "${rawLimit}" is not a whole number from 1 to ${MAX_ROW_LIMIT}; using ${DEFAULTS.limit}.`);
  }
  return { sql, limit };
}

/** The mode filter: a mode's name of the right form (whether the data has it is checked later). */
function decodeMode(params: URLSearchParams, problems: string[]): ModeFilter {
  const rawMode = params.get('mode');
  if (rawMode === null) return DEFAULTS.mode;
  if (MODE_FORM.test(rawMode)) return rawMode;
  problems.push(`Unknown mode "${rawMode}"; using "${DEFAULTS.mode}".`);
  return DEFAULTS.mode;
}

/**
 * Reads a state from a query string ("?view=max..." or "view=max..."). Every value that is
 * malformed falls back to its default and adds a problem; unknown parameters are ignored with a
 * problem. Whether versions and charts exist in the data is checked later by reconcileState.
 */
export function decodeState(search: string): Decoded {
  const params = new URLSearchParams(search);
  const problems: string[] = [];
  const pick = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = params.get(name);
    if (raw === null) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    problems.push(`Unknown ${name} "${raw}"; using "${fallback}".`);
    return fallback;
  };
  const text = (name: string): string | null => {
    const raw = params.get(name)?.trim() ?? '';
    if (raw.length > MAX_QUERY_LENGTH) {
      problems.push(`The ${name} parameter is too long; ignored.`);
      return null;
    }
    return raw || null;
  };

  const open = decodeOpen(params, problems);
  const chart = text('chart');
  if (chart !== null && !parseChartKey(chart)) problems.push(`Could not read the chart "${chart}"; ignored.`);

  const tables = params.getAll('table').filter((key) => {
    if (parseChartKey(key)) return true;
    problems.push(`Could not read the data table "${key}"; ignored.`);
    return false;
  });
  const { sql, limit } = decodeConsole(params, problems);
  const mode = decodeMode(params, problems);

  const rawExt = params.get('ext');
  if (rawExt !== null && rawExt !== '1' && rawExt !== '0') problems.push(`Could not read ext="${rawExt}" (1 shows the extended builds); showing the reference builds.`);

  const known = new Set(['hw', 'ext', 'metric', 'view', 'mode', 'q', 'from', 'to', 'releases', 'open', 'chart', 'table', 'sql', 'limit', ...ANALYSIS_PARAMS]);
  for (const name of new Set(params.keys())) {
    if (!known.has(name)) problems.push(`Unknown parameter "${name}"; ignored.`);
  }

  return {
    state: {
      hw: text('hw'),
      ext: rawExt === '1',
      metric: pick('metric', METRIC_IDS, DEFAULTS.metric),
      view: pick('view', VIEWS, DEFAULTS.view),
      mode,
      q: text('q') ?? '',
      from: text('from'),
      to: text('to'),
      releases: pick('releases', RELEASE_SETS, DEFAULTS.releases),
      open,
      chart: chart !== null && parseChartKey(chart) ? chart : null,
      tables: [...new Set(tables)],
      sql,
      limit,
      ...decodeAnalysis(text, problems),
    },
    problems,
  };
}

/** What the data holds, for checking a state against it. */
export interface Catalog {
  /** Versions in release order. */
  readonly versions: readonly string[];
  /** Keys of every chart the data can draw. */
  readonly charts: ReadonlySet<string>;
  /** Every mode with charts, and those of them measured by the precision protocol. */
  readonly modes: readonly string[];
  readonly precisionModes: readonly string[];
  /** Keys ("compiler|flag set") of the planned configurations. */
  readonly configs: ReadonlySet<string>;
  /** The hardware classes in the data (slug and label), and the default class's slug (null without classes). */
  readonly hardware: readonly { readonly slug: string; readonly label: string }[];
  readonly defaultHardware: string | null;
  /** Whether the data has extended configurations (plan.extended) to show. */
  readonly hasExtended: boolean;
}

/**
 * Drops from a state what the data does not hold (a stale link: a version, test or hardware that
 * is not there, or a range whose ends are swapped), with a sentence for each. The hardware is
 * made explicit when the data has more than one class (a link then names what it shows) and
 * left out with one.
 */
export function reconcileState(state: AppState, catalog: Catalog): Decoded {
  const problems: string[] = [];
  const hw = reconcileHardware(state.hw, catalog, problems);
  const ext = state.ext && catalog.hasExtended;
  if (state.ext && !ext) problems.push('The data has no extended builds; showing the reference builds.');
  const versions = new Set(catalog.versions);
  const bound = (name: 'from' | 'to'): string | null => {
    const value = state[name];
    if (value === null || versions.has(value)) return value;
    problems.push(`Version ${value} is not in the data; the range starts or ends at the data's own limit.`);
    return null;
  };
  const bounded = { ...state, from: bound('from'), to: bound('to') };
  const { from, to } = orderRange(bounded, catalog.versions);
  if (from !== bounded.from) problems.push(`The version range ${bounded.from} – ${bounded.to} was reversed; swapped.`);

  const open: Record<string, string> = {};
  for (const [key, version] of Object.entries(state.open)) {
    if (catalog.charts.has(key) && versions.has(version)) open[key] = version;
    else problems.push(`The drilldown ${key} @ ${version} is not in the data; closed.`);
  }
  let chart = state.chart;
  if (chart !== null && !catalog.charts.has(chart)) {
    problems.push(`The chart ${chart} is not in the data; showing the top of the page.`);
    chart = null;
  }
  const tables = state.tables.filter((key) => {
    if (catalog.charts.has(key)) return true;
    problems.push(`The chart ${key} is not in the data; its table is not shown.`);
    return false;
  });
  const analysis = reconcileAnalysis(state, catalog, problems);
  const vs = reconcileVs(state.vs, hw ?? catalog.defaultHardware, catalog, problems);
  const { mode, metric } = reconcileMode(state, catalog, problems);
  return { state: { ...state, ...analysis, hw, ext, vs, from, to, open, chart, tables, mode, metric }, problems };
}

/**
 * The mode filter the data can show ('all', 'precision' when it has precision modes, or one of
 * its modes), else 'all'; the precision modes measure requests/second only, so with one of them
 * the metric is requests/second.
 */
function reconcileMode(state: AppState, catalog: Catalog, problems: string[]): Pick<AppState, 'mode' | 'metric'> {
  const known = state.mode === 'all' || catalog.modes.includes(state.mode) || (state.mode === 'precision' && catalog.precisionModes.length > 0);
  if (!known) {
    problems.push(`The mode "${state.mode}" is not in the data; showing ${DEFAULTS.mode === 'all' ? 'the reference modes' : DEFAULTS.mode}.`);
    return { mode: DEFAULTS.mode, metric: state.metric };
  }
  if (protocolOf(state.mode, catalog.precisionModes) === 'precision' && state.metric !== 'rps') {
    // The default metric gives way silently: only a metric the link names is worth a notice.
    if (state.metric !== DEFAULTS.metric) problems.push(METRICS[state.metric].kind === 'measured'
      ? 'The precision modes are judged in requests/second only (their rounds\' statistics); showing requests/second.'
      : 'The precision modes are measured in requests/second only (nothing is counted under Valgrind in them); showing requests/second.');
    return { mode: state.mode, metric: 'rps' };
  }
  return { mode: state.mode, metric: state.metric };
}

/** The protocol a mode filter shows: 'precision' for 'precision' or a precision mode, else 'reference'. */
export function protocolOf(mode: ModeFilter, precisionModes: readonly string[]): Protocol {
  return mode === 'precision' || precisionModes.includes(mode) ? 'precision' : 'reference';
}

/** The class to set against the shown one (`shown`): another class of the data, or null for the default. */
function reconcileVs(vs: string | null, shown: string | null, catalog: Catalog, problems: string[]): string | null {
  if (vs === null) return null;
  const other = catalog.hardware.find((c) => c.slug === vs);
  if (!other) {
    problems.push(`The hardware "${vs}" to compare with is not in the data; comparing with the default instead.`);
    return null;
  }
  if (vs === shown) {
    problems.push(`${other.label} is the hardware shown; it is compared with another class instead.`);
    return null;
  }
  return vs;
}

function reconcileHardware(hw: string | null, catalog: Catalog, problems: string[]): string | null {
  const known = catalog.hardware.some((c) => c.slug === hw);
  if (hw !== null && !known) {
    const fallback = catalog.hardware.find((c) => c.slug === catalog.defaultHardware);
    problems.push(`The hardware "${hw}" is not in the data${fallback ? `; showing ${fallback.label}` : ''}.`);
  }
  if (catalog.hardware.length < 2) return null;
  return known ? hw : catalog.defaultHardware;
}

/** The state with its version range in release order (`versions` oldest first): a reversed range is swapped. */
export function orderRange(state: AppState, versions: readonly string[]): AppState {
  const { from, to } = state;
  if (from === null || to === null || versions.indexOf(from) <= versions.indexOf(to)) return state;
  return { ...state, from: to, to: from };
}

/**
 * The state showing only the releases of the minor line `line` (`versions` in release order);
 * every release again when it shows just those already.
 */
export function zoomedToLine(state: AppState, versions: readonly string[], line: string): AppState {
  const releases = versions.filter((v) => minorLine(v) === line);
  const from = releases[0] ?? null;
  const to = releases.at(-1) ?? null;
  return from === state.from && to === state.to ? { ...state, from: null, to: null } : { ...state, from, to };
}

/** True when two states encode to the same URL. */
export function sameState(a: AppState, b: AppState): boolean {
  return encodeState(a) === encodeState(b);
}

/**
 * Whether the chart of `mode` and `test` passes the state's filters: the mode filter ('all' the
 * modes that are not among `precisionModes`, 'precision' those that are), and every
 * whitespace-separated word of the search appearing in the test name (case-insensitive).
 */
export function chartMatches(state: AppState, mode: string, test: string, precisionModes: readonly string[] = []): boolean {
  const precise = precisionModes.includes(mode);
  const shown = state.mode === 'all' ? !precise : state.mode === 'precision' ? precise : state.mode === mode;
  if (!shown) return false;
  const name = test.toLowerCase();
  return state.q.toLowerCase().split(/\s+/).every((word) => name.includes(word));
}

/** The versions inside the state's range (`versions` in release order; a bound not in the list is open). */
export function versionsInRange(state: Pick<AppState, 'from' | 'to'>, versions: readonly string[]): string[] {
  const from = state.from ? versions.indexOf(state.from) : 0;
  const to = state.to ? versions.indexOf(state.to) : -1;
  return versions.slice(Math.max(0, from), to < 0 ? versions.length : to + 1);
}

/**
 * The versions the state shows (release order): those in its range, and of those only the
 * current ones (`current`) unless it shows every release.
 */
export function shownVersions(state: Pick<AppState, 'from' | 'to' | 'releases'>, versions: readonly string[], current: readonly string[]): string[] {
  const inRange = versionsInRange(state, versions);
  return state.releases === 'all' ? inRange : inRange.filter((v) => current.includes(v));
}
