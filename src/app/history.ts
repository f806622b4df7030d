/**
 * The page state and the browser history: user actions push an entry, passive changes (the
 * chart scrolled to) replace the current one, back/forward hand the decoded state back.
 */
import { type AppState, decodeState, encodeState, sameState } from '../model/state';

/** Reads the state in the current URL (with problems, unchecked against the data). */
export function stateFromLocation(): ReturnType<typeof decodeState> {
  return decodeState(location.search);
}

/** The URL of a state on this page. */
export function urlFor(state: AppState): string {
  return `${location.pathname}${encodeState(state)}`;
}

/** The absolute URL of a state, for sharing. */
export function absoluteUrlFor(state: AppState): string {
  return new URL(urlFor(state), location.href).href;
}

/** History writes waiting for the browser to be idle, in the order they were asked for. */
const pending: (() => void)[] = [];

const writePending = () => pending.splice(0).forEach((write) => write());

/**
 * Records `state` in history: a new entry (push) or the current one (replace). No-op if unchanged.
 * The write waits until the browser is idle (at most half a second): a history write costs the
 * browser time that grows with the page (Chromium: up to tens of milliseconds with every release
 * charted), and what the reader clicked is drawn and painted first.
 */
export function recordState(state: AppState, how: 'push' | 'replace', current: AppState): void {
  if (how === 'push' && sameState(state, current)) return;
  const url = urlFor(state);
  const write = () => (how === 'push' ? history.pushState(null, '', url) : history.replaceState(null, '', url));
  if (pending.push(write) > 1) return;
  if ('requestIdleCallback' in window) requestIdleCallback(writePending, { timeout: 500 });
  else setTimeout(writePending, 100);
}

/** Calls `onState` with the decoded state whenever back/forward changes the URL. */
export function onHistoryMove(onState: (decoded: ReturnType<typeof decodeState>) => void): void {
  window.addEventListener('popstate', () => onState(stateFromLocation()));
}
