/**
 * The sections above the charts (summary, build factors, trends, compare, changes between
 * releases, across hardware, status grid) and the page's table of contents. Each section queries
 * and draws when it first comes near the screen (ui/nearScreen.ts), then follows the state; the
 * app only calls render() and start().
 */
import type { SectionId } from '../model/analysisState';
import type { AppState } from '../model/state';
import type { QueryRunner } from '../sql/query';
import { h } from '../ui/dom';
import { onceNearScreen } from '../ui/nearScreen';
import { createAcrossHardware } from './acrossHardware';
import { createCompare } from './compare';
import { type AnalysisContext, cachedRunner, type SectionView } from './context';
import { createFactors } from './factors';
import { createReleaseChanges } from './releaseChanges';
import { createStatusGrid } from './statusGrid';
import { createSummary } from './summary';
import { createTrends } from './trends';

/** What the sections need from the app: their context, with the database instead of the cached runner. */
export interface AnalysisOptions extends Omit<AnalysisContext, 'run'> {
  readonly db: QueryRunner;
}

/** The sections, driven by the app. */
export interface Analysis {
  /** Shows `state` in every section that has come near the screen (once started). */
  render(state: AppState): void;
  /** Lets sections query: called once the charts are painted, so page load is not slowed. */
  start(): void;
  /** The sections as scroll targets, keyed "#<section id>", in page order. */
  places(): { key: string; element: HTMLElement }[];
  /** The section of a scroll-target key, or null for anything else (a chart). */
  sectionOf(key: string): SectionId | null;
  /** Scrolls a section into view. */
  scrollTo(section: SectionId): void;
}

/** Builds the sections and the contents line into `root`. */
export function createAnalysis(root: HTMLElement, options: AnalysisOptions): Analysis {
  const ctx = { ...options, run: cachedRunner(options.db) };
  const views: Record<SectionId, SectionView> = {
    summary: createSummary(ctx),
    factors: createFactors(ctx),
    trends: createTrends(ctx),
    compare: createCompare(ctx),
    changes: createReleaseChanges(ctx),
    hardware: createAcrossHardware(ctx),
    status: createStatusGrid(ctx),
  };
  const ids = Object.keys(views) as SectionId[];
  const near = new Set<SectionId>();
  let started = false;
  let state: AppState | null = null;

  const link = (label: string, target: () => HTMLElement | null, section: SectionId | null) =>
    h('a', {
      class: 'text-blue-700 underline hover:no-underline',
      attrs: { href: section ? `#section-${section}` : '#charts' },
      on: {
        click: (event) => {
          event.preventDefault();
          if (section) options.update({ section });
          target()?.scrollIntoView({ block: 'start' });
        },
      },
    }, label);
  const titles: Record<SectionId, string> = { summary: 'Summary', factors: 'Build factors', trends: 'Trends', compare: 'Compare', changes: 'Changes between releases', hardware: 'Across hardware', status: 'Status grid' };
  root.replaceChildren(
    h('nav', { class: 'mt-3 text-sm text-slate-700', attrs: { 'aria-label': 'On this page' } },
      h('span', { class: 'font-semibold' }, 'On this page: '),
      ...ids.flatMap((id) => [link(titles[id], () => views[id].frame.element, id), ' · ']),
      link('Charts per test', () => document.getElementById('charts'), null),
    ),
    ...ids.map((id) => views[id].frame.element),
  );

  // What each section last drew: a state change that does not concern it leaves it alone.
  const drawn = new Map<SectionId, string>();
  const show = (id: SectionId) => {
    if (!started || !state || !near.has(id)) return;
    const key = views[id].key(state);
    if (drawn.get(id) === key) return;
    drawn.set(id, key);
    void views[id].render(state);
  };
  void onceNearScreen(ids.map((id) => ({
    element: views[id].frame.element,
    act: () => {
      near.add(id);
      show(id);
    },
  })));

  return {
    render(next) {
      state = next;
      for (const id of ids) show(id);
    },
    start() {
      started = true;
      for (const id of ids) show(id);
    },
    places: () => ids.map((id) => ({ key: `#${id}`, element: views[id].frame.element })),
    sectionOf: (key) => (key.startsWith('#') && ids.includes(key.slice(1) as SectionId) ? (key.slice(1) as SectionId) : null),
    scrollTo: (section) => views[section].frame.element.scrollIntoView({ block: 'start' }),
  };
}
