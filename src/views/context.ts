/** What the analysis sections get from the app, and a query cache they share. */
import type { AnalysisState } from '../model/analysisState';
import type { HardwareClass } from '../model/hardware';
import type { AppState } from '../model/state';
import type { Query, QueryRunner } from '../sql/query';
import type { SectionFrame, SectionTools } from '../ui/section';
import type { ConfigRef } from '../vocabulary';

/** The app's side of the analysis sections. */
export interface AnalysisContext {
  /** Runs queries, each distinct query (SQL and parameters) once. */
  readonly run: <Row>(q: Query<Row>) => Promise<Row[]>;
  /** Planned versions in release order, and configurations in plan order. */
  readonly versions: readonly string[];
  readonly configs: readonly ConfigRef[];
  /** The current versions (the newest patch of each minor line), in release order. */
  readonly currentVersions: readonly string[];
  /** Compilers in plan order, and the colour of each (as in the charts). */
  readonly compilers: readonly string[];
  colorOf(compiler: string): string;
  /** The charts (test and mode), in page order. */
  readonly charts: readonly { readonly mode: string; readonly test: string }[];
  /** The precision modes, and the rounds each version has in each on the class shown. */
  readonly precisionModes: readonly string[];
  readonly rounds: readonly { readonly mode: string; readonly version: string; readonly rounds: number }[];
  /** The versions with at least one counted figure, in release order. */
  readonly countedVersions: readonly string[];
  /** The builds columns holding a bundled dependency's version (deps_jemalloc, ...), when the builds record them. */
  readonly depColumns: readonly string[];
  /** The versions with a finished run of the reference modes on the class shown, in release order. */
  readonly measuredVersions: readonly string[];
  /** Every hardware class in the data, and the one the page shows (null without classes). */
  readonly hardware: readonly HardwareClass[];
  readonly selectedHardware: HardwareClass | null;
  /** A user action: the current state with `patch` applied, pushed to history. */
  update(patch: Partial<AnalysisState>): void;
  /** The absolute deep link to the current state with `patch` applied. */
  link(patch: Partial<AppState>): string;
  /** The console and downloads, for the queries behind each section. */
  readonly tools: SectionTools;
}

/** One section: its frame on the page, and how it shows a state. */
export interface SectionView {
  readonly frame: SectionFrame;
  /** Shows `state` (queries what it needs; resolves when drawn). */
  render(state: AppState): Promise<void>;
  /** What of a state the section shows: it is drawn again only when this changes. */
  key(state: AppState): string;
}

/** A runner that keeps every query's promise, so a state shown twice costs one query. */
export function cachedRunner(db: QueryRunner): <Row>(q: Query<Row>) => Promise<Row[]> {
  const cache = new Map<string, Promise<unknown[]>>();
  return <Row>(q: Query<Row>) => {
    const key = JSON.stringify([q.sql, q.params]);
    let rows = cache.get(key);
    if (!rows) {
      rows = db.run(q);
      cache.set(key, rows);
      // A failed query is tried again next time.
      rows.catch(() => cache.delete(key));
    }
    return rows as Promise<Row[]>;
  };
}

/** Shows an error in a section's status line (text only). */
export function showSectionError(frame: SectionFrame, what: string, err: unknown): void {
  frame.status.textContent = `${what} failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
  frame.status.dataset.status = 'error';
}
