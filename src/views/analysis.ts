/**
 * The sections above the charts (summary, build factors, trends, compare, changes between
 * releases, across hardware, status grid) as tabs above the charts. Each section queries and
 * draws when it is first opened and comes near the screen (ui/nearScreen.ts), then follows the
 * state; the app only calls render() and start().
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

/** The sections' names on their tabs. */
const TITLES: Readonly<Record<SectionId, string>> = { summary: 'Summary', factors: 'Build factors', trends: 'Trends', compare: 'Compare', changes: 'Changes between releases', hardware: 'Across hardware', status: 'Status grid' };

/**
 * The sections are tabs: one open at a time (state.section), none by default, so no section
 * pushes the charts down unasked. A tab's click opens its section (and scrolls to it) or closes it.
 */
function sectionTab(id: SectionId, isOpen: () => boolean, options: AnalysisOptions, frame: HTMLElement): HTMLAnchorElement {
  return h('a', {
    class: 'section-tab rounded-md border border-slate-300 bg-white px-2 py-0.5 text-blue-700 hover:bg-slate-100 aria-[current=true]:border-blue-700 aria-[current=true]:bg-blue-50 aria-[current=true]:font-semibold',
    attrs: { href: `#section-${id}`, 'data-tab': id, 'aria-controls': `section-${id}` },
    on: {
      click: (event) => {
        event.preventDefault();
        const open = isOpen();
        options.update({ section: open ? null : id });
        if (!open) requestAnimationFrame(() => frame.scrollIntoView({ block: 'nearest' }));
      },
    },
  }, TITLES[id]);
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

  const tabs = Object.fromEntries(ids.map((id) => [id, sectionTab(id, () => state?.section === id, options, views[id].frame.element)])) as Record<SectionId, HTMLAnchorElement>;
  // An open section is at most a screen tall (it scrolls inside).
  for (const id of ids) {
    const frame = views[id].frame.element;
    frame.hidden = true;
    frame.classList.add('max-h-[90vh]', 'overflow-y-auto');
  }
  root.replaceChildren(
    h('nav', { class: 'mt-3 flex flex-wrap items-center gap-1.5 text-sm text-slate-700', attrs: { 'aria-label': 'Analysis sections' } },
      h('span', { class: 'font-semibold' }, 'More answers:'),
      ...ids.map((id) => tabs[id]),
      h('a', { class: 'ml-1 text-blue-700 underline hover:no-underline', attrs: { href: '#charts' } }, 'Charts per test ↓'),
    ),
    ...ids.map((id) => views[id].frame.element),
  );
  const showTab = (open: SectionId | null) => {
    for (const id of ids) {
      views[id].frame.element.hidden = id !== open;
      tabs[id].setAttribute('aria-current', String(id === open));
      tabs[id].href = options.link({ section: id === open ? null : id });
    }
  };

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
      showTab(next.section);
      for (const id of ids) show(id);
    },
    start() {
      started = true;
      for (const id of ids) show(id);
    },
    places: () => ids.filter((id) => !views[id].frame.element.hidden).map((id) => ({ key: `#${id}`, element: views[id].frame.element })),
    sectionOf: (key) => (key.startsWith('#') && ids.includes(key.slice(1) as SectionId) ? (key.slice(1) as SectionId) : null),
    scrollTo: (section) => views[section].frame.element.scrollIntoView({ block: 'start' }),
  };
}
