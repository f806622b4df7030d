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

/** Records `state` in history: a new entry (push) or the current one (replace). No-op if unchanged. */
export function recordState(state: AppState, how: 'push' | 'replace', current: AppState): void {
  if (how === 'push' && sameState(state, current)) return;
  const url = urlFor(state);
  if (how === 'push') history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}

/** Calls `onState` with the decoded state whenever back/forward changes the URL. */
export function onHistoryMove(onState: (decoded: ReturnType<typeof decodeState>) => void): void {
  window.addEventListener('popstate', () => onState(stateFromLocation()));
}
