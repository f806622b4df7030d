/**
 * The part of the page state behind the summary, build-factor, compare and status sections, and
 * its URL parameters. state.ts makes it part of the one AppState; this module only keeps its
 * parsing and checking out of state.ts.
 *
 *   base=clang|-O2            summary baseline configuration ("compiler|flag set")
 *   scope=7.4.1               version of the summary's per-test distribution (absent: all versions)
 *   trend=pipe:GET            the chart ("mode:test") whose configurations the trends section
 *                             follows across releases (absent: the first chart)
 *   a=7.2.6  b=7.4.1          compare sides: a version at its fastest configuration per test,
 *   a=7.4.1|gcc|-O2              or one cell ("version|compiler|flag set")
 *   vs=intel-r-xeon-r-processor-2-cores
 *                             across hardware: the class (slug) the shown one is set against
 *                             (absent: the first other class; checked in state.ts, which knows the classes)
 *   changes=size              changes between releases: listed by size (absent: by release)
 *   reach=every               changes between releases: only those in every configuration
 *                             compared, or (some) in some only (absent: all)
 *   least=5                   changes between releases: only those of at least 0.1, 0.5, 2 or 5
 *                             percent, or 0 for every change beyond noise (absent, or 1: 1%)
 *   cell=7.4.1|clang|-Ofast   status grid: the cell whose build and runs are shown
 *   section=compare           the section open (a tab above the charts; charts use `chart`)
 */
import type { ConfigRef, SideRef } from '../vocabulary';
import { CHANGE_ORDERS, CHANGE_REACHES, type ChangeLeast, type ChangeOrder, type ChangeReach, DEFAULT_LEAST, isChangeLeast } from './releaseChanges';

/** The sections above the charts, in page order. */
export const SECTIONS = ['summary', 'factors', 'trends', 'compare', 'changes', 'hardware', 'status'] as const;

/** One of the sections above the charts. */
export type SectionId = (typeof SECTIONS)[number];

/** State of the analysis sections. */
export interface AnalysisState {
  /** Summary baseline "compiler|flag set", or null for the plan's first configuration. */
  readonly base: string | null;
  /** Version the summary's per-test distribution is for, or null for all versions. */
  readonly scope: string | null;
  /** The chart key ("mode:test") the trends section shows, or null for the first chart. */
  readonly trend: string | null;
  /** Compare side A: "version" (fastest configuration per test) or a cell id; null = second-newest version. */
  readonly a: string | null;
  /** Compare side B, as A; null = the newest version. */
  readonly b: string | null;
  /** Across hardware: slug of the class set against the shown one, or null for the first other class. */
  readonly vs: string | null;
  /** How the changes between releases are listed: by size, or null for release order. */
  readonly changes: Exclude<ChangeOrder, 'release'> | null;
  /** Which changes between releases are listed: in every configuration, in some only, or null for all. */
  readonly reach: Exclude<ChangeReach, 'any'> | null;
  /** The smallest change between releases listed, in percent ('0': every change beyond noise), or null for DEFAULT_LEAST. */
  readonly least: Exclude<ChangeLeast, typeof DEFAULT_LEAST> | null;
  /** The status grid cell (cell id) whose details are open, or null. */
  readonly cell: string | null;
  /** The section open (one tab at a time), or null for none. */
  readonly section: SectionId | null;
}

/** No parameter: every field at its default. */
export const ANALYSIS_DEFAULTS: AnalysisState = Object.freeze({
  base: null, scope: null, trend: null, a: null, b: null, vs: null, changes: null, reach: null, least: null, cell: null, section: null,
});

/** The URL parameters of this state, in the order they are written. */
export const ANALYSIS_PARAMS = ['base', 'scope', 'trend', 'a', 'b', 'vs', 'changes', 'reach', 'least', 'cell', 'section'] as const;

/** "compiler|flag set", the key of a configuration. */
export function configKey(config: ConfigRef): string {
  return `${config.compiler}|${config.flag_set}`;
}

/** The configuration of a key, or null when it is not "compiler|flag set". */
export function parseConfigKey(key: string): ConfigRef | null {
  const bar = key.indexOf('|');
  if (bar <= 0 || bar === key.length - 1 || key.indexOf('|', bar + 1) >= 0) return null;
  return { compiler: key.slice(0, bar), flag_set: key.slice(bar + 1) };
}

/** "version" or "version|compiler|flag set" (a cell id) for a side. */
export function sideKey(side: SideRef): string {
  return side.config ? `${side.version}|${configKey(side.config)}` : side.version;
}

/** The side of a key, or null when it is neither a version nor a cell id. */
export function parseSideKey(key: string): SideRef | null {
  const bar = key.indexOf('|');
  if (bar < 0) return key ? { version: key, config: null } : null;
  const config = parseConfigKey(key.slice(bar + 1));
  return bar > 0 && config ? { version: key.slice(0, bar), config } : null;
}

/** The cell (version and configuration) of a cell id, or null. */
export function parseCellId(id: string): { version: string; config: ConfigRef } | null {
  const side = parseSideKey(id);
  return side?.config ? { version: side.version, config: side.config } : null;
}

/**
 * The versions compare defaults from: those shown (`shown`: the release set and range, release
 * order) that have figures in the metric (`measured`), when at least two have; else those shown.
 */
export function compareCandidates(shown: readonly string[], measured: readonly string[]): readonly string[] {
  const both = shown.filter((v) => measured.includes(v));
  return both.length >= 2 ? both : shown;
}

/** The sides a state compares: its a and b, or the two newest versions (`versions`: release order) at their fastest. */
export function comparedSides(state: Pick<AnalysisState, 'a' | 'b'>, versions: readonly string[]): { a: SideRef; b: SideRef } | null {
  const newest = versions.at(-1);
  if (newest === undefined) return null;
  const fallbackA = { version: versions.at(-2) ?? newest, config: null };
  return {
    a: (state.a !== null ? parseSideKey(state.a) : null) ?? fallbackA,
    b: (state.b !== null ? parseSideKey(state.b) : null) ?? { version: newest, config: null },
  };
}

/** Writes the non-default fields into `params`. */
export function encodeAnalysis(state: AnalysisState, params: URLSearchParams): void {
  for (const name of ANALYSIS_PARAMS) {
    const value = state[name];
    if (value !== null) params.set(name, value);
  }
}

/**
 * Reads the fields with `text` (the trimmed parameter, or null when absent or unusable); a value
 * of the wrong form falls back to null and adds a problem.
 */
export function decodeAnalysis(text: (name: string) => string | null, problems: string[]): AnalysisState {
  const checked = (name: string, what: string, valid: (value: string) => boolean): string | null => {
    const value = text(name);
    if (value === null || valid(value)) return value;
    problems.push(`Could not read the ${what} "${value}"; ignored.`);
    return null;
  };
  const side = (name: 'a' | 'b') => checked(name, `compared build ${name.toUpperCase()}`, (v) => parseSideKey(v) !== null);
  return {
    base: checked('base', 'baseline configuration', (v) => parseConfigKey(v) !== null),
    scope: text('scope'),
    trend: checked('trend', 'trend chart', (v) => /^[^:]+:./.test(v)),
    a: side('a'),
    b: side('b'),
    vs: text('vs'),
    changes: checked('changes', 'order of the changes', (v) => v !== 'release' && (CHANGE_ORDERS as readonly string[]).includes(v)) as AnalysisState['changes'],
    reach: checked('reach', 'reach of the changes', (v) => v !== 'any' && (CHANGE_REACHES as readonly string[]).includes(v)) as AnalysisState['reach'],
    // least=1, the default, is what links before the default was 1% wrote for it: read as absent.
    least: (() => {
      const least = checked('least', 'smallest change listed', isChangeLeast);
      return least === DEFAULT_LEAST ? null : least as AnalysisState['least'];
    })(),
    cell: checked('cell', 'status grid cell', (v) => parseCellId(v) !== null),
    section: checked('section', 'section', (v) => (SECTIONS as readonly string[]).includes(v)) as SectionId | null,
  };
}

/** What the data holds, for checking the analysis state against it. */
export interface AnalysisCatalog {
  /** Versions in release order. */
  readonly versions: readonly string[];
  /** Keys ("compiler|flag set") of the planned configurations. */
  readonly configs: ReadonlySet<string>;
  /** Keys ("mode:test") of the charts. */
  readonly charts: ReadonlySet<string>;
}

/** Drops what the data does not hold (a stale link), with a sentence for each. */
export function reconcileAnalysis(state: AnalysisState, catalog: AnalysisCatalog, problems: string[]): AnalysisState {
  const hasVersion = (v: string) => catalog.versions.includes(v);
  const hasConfig = (c: ConfigRef | null) => c === null || catalog.configs.has(configKey(c));
  const keep = (value: string | null, ok: (v: string) => boolean, problem: (v: string) => string): string | null => {
    if (value === null || ok(value)) return value;
    problems.push(problem(value));
    return null;
  };
  const side = (value: string | null) =>
    keep(value, (v) => {
      const s = parseSideKey(v);
      return s !== null && hasVersion(s.version) && hasConfig(s.config);
    }, (v) => `The compared build ${v.replaceAll('|', ' ')} is not in the data; comparing the default instead.`);
  return {
    ...state,
    base: keep(state.base, (v) => catalog.configs.has(v), (v) => `The configuration ${v.replace('|', ' ')} is not in the data; the baseline is the default.`),
    scope: keep(state.scope, hasVersion, (v) => `Version ${v} is not in the data; the summary covers all versions.`),
    trend: keep(state.trend, (v) => catalog.charts.has(v), (v) => `The chart ${v} is not in the data; the trends show the first chart.`),
    a: side(state.a),
    b: side(state.b),
    cell: keep(state.cell, (v) => {
      const c = parseCellId(v);
      return c !== null && hasVersion(c.version) && hasConfig(c.config);
    }, (v) => `The cell ${v.replaceAll('|', ' ')} is not in the data; no build details shown.`),
  };
}
