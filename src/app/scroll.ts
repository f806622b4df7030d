/**
 * Follows which chart the reader has scrolled to, so the URL (replaced, not pushed) always links
 * to the chart in view.
 */

/** A chart on the page. */
export interface ScrollTarget {
  readonly key: string;
  readonly element: HTMLElement;
}

const SETTLE_MS = 250;
/** Above this scroll offset the page counts as "at the top": no chart in the URL. */
const TOP_PX = 40;

/**
 * Calls `onChart` with the key of the first chart whose lower half is in view once scrolling
 * settles, or null at the top of the page.
 */
export function trackScrolledChart(targets: () => readonly ScrollTarget[], onChart: (key: string | null) => void): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  window.addEventListener(
    'scroll',
    () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (window.scrollY < TOP_PX) return onChart(null);
        const first = targets().find(({ element }) => {
          const box = element.getBoundingClientRect();
          return box.top + box.height / 2 > 0;
        });
        onChart(first?.key ?? null);
      }, SETTLE_MS);
    },
    { passive: true },
  );
}
