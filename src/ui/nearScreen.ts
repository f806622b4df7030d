/**
 * Work done for an element when it first comes near the screen: a section's first query, a
 * chart's drilldown file. Near enough that it is usually done before the element is on screen;
 * what stays far from where the reader is costs nothing.
 */

/** How far from the screen (above or below) an element counts as near it. */
export const NEAR_SCREEN = '600px';

/** An element, and what to do once it comes near the screen (a promise: the work's end). */
export interface NearScreenTarget {
  readonly element: Element;
  readonly act: () => unknown;
}

/**
 * Calls each target's `act` once, the first time its element comes within NEAR_SCREEN of the
 * viewport (a hidden element never does while it is hidden). Resolves once the acts of the targets
 * near the screen at the start have settled (they are known at the first frame).
 */
export function onceNearScreen(targets: readonly NearScreenTarget[]): Promise<void> {
  if (!targets.length) return Promise.resolve();
  const pending = new Map(targets.map((t) => [t.element, t.act]));
  let atStart: ((acts: unknown[]) => void) | null = null;
  const started = new Promise<unknown[]>((resolve) => (atStart = resolve));
  const observer = new IntersectionObserver((entries) => {
    const acts: unknown[] = [];
    for (const entry of entries) {
      const act = entry.isIntersecting ? pending.get(entry.target) : undefined;
      if (!act) continue;
      pending.delete(entry.target);
      observer.unobserve(entry.target);
      acts.push(act());
    }
    if (!pending.size) observer.disconnect();
    // The first call reports every target observed.
    atStart?.(acts);
    atStart = null;
  }, { rootMargin: `${NEAR_SCREEN} 0px` });
  for (const { element } of targets) observer.observe(element);
  return started.then((acts) => Promise.allSettled(acts)).then(() => undefined);
}
