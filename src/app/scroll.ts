/**
 * Follows which chart or section the reader has scrolled to, so the URL (replaced, not pushed)
 * links to what is in view. A chart or section the URL already names (the one clicked, or the
 * one a link opened at) keeps its place while any of it is on screen: a link then opens at the
 * chart the reader acted on, not at whichever chart happened to be at the top.
 */

/** A chart or section on the page, in page order. */
export interface ScrollTarget {
  readonly key: string;
  readonly element: HTMLElement;
}

const SETTLE_MS = 250;
/** Above this scroll offset the page counts as "at the top": no chart in the URL. */
const TOP_PX = 40;

const onScreen = (element: HTMLElement) => {
  const box = element.getBoundingClientRect();
  return !element.hidden && box.bottom > 0 && box.top < window.innerHeight;
};

/**
 * Once scrolling settles: when the target the URL names (`current`) has left the screen, calls
 * `onChart` with the key of the first target whose lower half is in view, or null at the top of
 * the page.
 */
export function trackScrolledChart(
  targets: () => readonly ScrollTarget[], current: () => string | null, onChart: (key: string | null) => void,
): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  window.addEventListener(
    'scroll',
    () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const all = targets();
        const named = current();
        if (named !== null && all.some(({ key, element }) => key === named && onScreen(element))) return;
        if (window.scrollY < TOP_PX) return onChart(null);
        const first = all.find(({ element }) => {
          const box = element.getBoundingClientRect();
          return box.top + box.height / 2 > 0;
        });
        onChart(first?.key ?? null);
      }, SETTLE_MS);
    },
    { passive: true },
  );
}
