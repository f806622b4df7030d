/**
 * Drawing the page's state: the legend, the chart cards (src/views/charts.ts), then the controls,
 * the console and the sections. The first render paces itself so the top of the page paints early.
 */
import type { ScaleOrdinal } from 'd3-scale';
import type { AppState } from '../model/state';
import type { Controls } from '../ui/controls';
import { byId } from '../ui/dom';
import { renderLegend } from '../ui/legend';
import type { Analysis } from '../views/analysis';
import { FIRST_CHUNK } from '../views/chartData';
import type { Charts, FocusRequest } from '../views/charts';
import { type MetricId, metricOf } from '../vocabulary';
import type { OpenResults } from './openResults';

/** How far the page's drawing got. */
export interface Painting {
  /** The first cards painted (the engine may start), and every card painted once. */
  firstPainted: boolean;
  allPainted: boolean;
  /** The metric the legend was drawn for. */
  legendMetric: MetricId;
}

/** What a render reads and writes: the page's state and the parts it draws. */
export interface PageView {
  /** The state shown: the one in the URL. */
  state: AppState;
  /**
   * A keyboard focus asked for and not yet given: a render that supersedes the one that was to
   * give it (the redraw when the noise verdicts arrive) gives it instead.
   */
  pendingFocus: FocusRequest | undefined;
  readonly painting: Painting;
  /** Whether there are precomputed answers (a first view); starts the engine (once the first charts are painted). */
  readonly source: { readonly view: object | null; readonly wanted: () => void };
  readonly main: HTMLElement;
  readonly colors: ScaleOrdinal<string, string>;
  readonly charts: Charts;
  readonly controls: Controls;
  readonly results: OpenResults;
  readonly analysis: Analysis;
}

/** Lets other tasks run (DuckDB's module starting its worker, a click) between charts. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const nextFrame = () =>
  new Promise<void>((resolve) => {
    // rAF does not run in a background tab; the timeout keeps rendering going there.
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() => setTimeout(() => (clearTimeout(timer), resolve()), 0));
  });

/** Main-thread work longer than this is a long task (a click waits for it): later renders yield after it. */
const SLICE_MS = 50;

/** Work in slices of about SLICE_MS: after() lets other tasks run once the slice is spent. */
function timeSlices(): { after(): Promise<void> | undefined } {
  let start = performance.now();
  return {
    after() {
      if (performance.now() - start < SLICE_MS) return undefined;
      return nextTask().then(() => void (start = performance.now()));
    },
  };
}

/**
 * Draws the page's state: the legend, every chart the filters show (only those whose inputs
 * changed), then the controls, console and sections. The first render lets a frame through after the
 * first charts, and other tasks between later ones. A later render draws the charts on screen
 * first and lets a frame through (charts:in-view marks them painted), then draws the others in
 * slices, other tasks between them. A render begun after this one stops it.
 */
export async function render(page: PageView, focus?: FocusRequest): Promise<void> {
  const { painting } = page;
  // Until every chart has been painted once, whichever render gets there marks it.
  const initial = !painting.allPainted;
  const s = page.state;
  // The legend names the metric above the charts on screen, which are drawn first.
  if (painting.legendMetric !== s.metric) {
    painting.legendMetric = s.metric;
    renderLegend(byId('legend'), page.colors.domain(), (compiler) => page.colors(compiler), metricOf(s.metric));
  }
  const slices = timeSlices();
  const drawn = await page.charts.draw(s, focus, initial ? {
    drawn: (count) => {
      if (!painting.firstPainted && count === FIRST_CHUNK) return firstPaint(page);
      // Drawing every chart takes a while: the engine's start and a reader's click go between.
      return count % FIRST_CHUNK === 0 ? nextTask() : undefined;
    },
  } : {
    drawn: () => slices.after(),
    inView: (left) => {
      const painted = nextFrame().then(() => void performance.mark('charts:in-view'));
      // The charts left are drawn once the ones on screen have painted.
      return left ? painted : undefined;
    },
  });
  if (!drawn) return;
  page.controls.sync(s, drawn.visible, drawn.ofProtocol);
  page.results.sync(s);
  page.analysis.render(s);
  page.main.setAttribute('aria-busy', 'false');
  // Every render that draws to the end marks it: the benchmark times a metric switch by it.
  performance.mark('charts:drawn');
  if (initial) {
    if (!painting.firstPainted) await firstPaint(page);
    await nextFrame();
    painting.allPainted = true;
    performance.mark('charts:all-painted');
  }
}

/** Lets the first charts paint, then starts the engine. */
async function firstPaint(page: PageView): Promise<void> {
  await nextFrame();
  page.painting.firstPainted = true;
  performance.mark('charts:first-painted');
  page.source.wanted();
}

