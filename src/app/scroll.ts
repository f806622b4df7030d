/**
 * Follows which chart or section the reader has scrolled to, so the URL (replaced, not pushed)
 * always links to what is in view.
 */

/** A chart or section on the page, in page order. */
export interface ScrollTarget {
  readonly key: string;
  readonly element: HTMLElement;
}

const SETTLE_MS = 250;
/** Above this scroll offset the page counts as "at the top": no chart in the URL. */
const TOP_PX = 40;

/**
 * Calls `onChart` with the key of the first target (chart or section) whose lower half is in
 * view once scrolling settles, or null at the top of the page.
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
