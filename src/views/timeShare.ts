/**
 * "Server time" in the header's "How this was measured": per mode, how busy the server is and the
 * compiler-visible share of its CPU time, with each test's on demand. Queried when first opened:
 * its columns are lazy (src/sql/schema.ts), and the first screen does not need them.
 */
import { formatPercent } from '../model/format';
import { modeTimeShares, modeTimeShareText, type ModeTimeShare } from '../model/timeShare';
import type { QueryRunner } from '../sql/query';
import { timeShareQuery } from '../sql/timeShare';
import { h } from '../ui/dom';

/** What the share is and what it bounds, shown under the modes' lines. */
export const TIME_SHARE_NOTE =
  'A compiler changes only the server\'s own code (its user-mode time): the kernel\'s part (reading and writing sockets) and the time ' +
  'the server waits for the client stay the same. So a build\'s effect on requests/second is at most its counted effect times this ' +
  'share, and less when the server is not busy all the time. Where the share is small (one request per client at a time), ' +
  'requests/second cannot rank builds; counted instructions can. Details: docs/method.md in the repository.';

/** Appends the "Server time" item to the header's list `dl`, filled from `db` when first opened. */
export function appendTimeShare(dl: HTMLElement, db: QueryRunner): void {
  const body = h('div', { class: 'mt-1' }, 'Loading…');
  const details = h('details', { class: 'time-share min-w-0 [overflow-wrap:anywhere]' },
    h('summary', { class: 'cursor-pointer' }, 'Where the server\'s time goes: the compiler-visible share per mode'), body);
  let asked = false;
  details.addEventListener('toggle', () => {
    if (!details.open || asked) return;
    asked = true;
    void fill(body, db);
  });
  dl.append(h('dt', { class: 'font-semibold text-slate-700' }, 'Server time'), h('dd', { class: 'mb-2 text-slate-800' }, details));
}

async function fill(body: HTMLElement, db: QueryRunner): Promise<void> {
  try {
    const modes = modeTimeShares(await db.run(timeShareQuery()));
    body.replaceChildren(
      modes.length
        ? h('ul', { class: 'list-none' }, ...modes.map(modeItem))
        : h('p', {}, 'Not recorded in this dataset yet: runs of collector 0.3.0 and later record each test\'s server and client CPU time.'),
      h('p', { class: 'mt-1 text-slate-700' }, TIME_SHARE_NOTE),
    );
  } catch (err) {
    body.replaceChildren(`Could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function modeItem(m: ModeTimeShare): HTMLElement {
  return h('li', { attrs: { 'data-mode': m.mode } }, modeTimeShareText(m),
    h('details', { class: 'ml-4' }, h('summary', { class: 'cursor-pointer text-slate-700' }, `per test (${m.tests.length})`),
      h('ul', { class: 'list-none' }, ...m.tests.map((t) =>
        h('li', {}, `${t.test}: ${t.share === null ? 'no CPU time' : `${formatPercent(t.share)} compiler-visible`}, server busy ${formatPercent(t.serverBusy)}`)))));
}
