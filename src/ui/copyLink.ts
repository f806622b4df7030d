/** A "Copy link" link whose address is always the current deep link, copied on click. */
import { h } from './dom';

/** The link and the status text that says whether copying worked. */
export function copyLink(link: () => string, title: string): { link: HTMLAnchorElement; status: HTMLElement } {
  const status = h('span', { class: 'text-xs text-emerald-700', attrs: { role: 'status' } });
  const anchor: HTMLAnchorElement = h('a', {
    class: 'rounded-md border border-slate-300 px-2 py-0.5 text-xs text-slate-800 no-underline hover:bg-slate-100',
    attrs: { href: '#', 'data-action': 'copy-link', title },
    on: {
      click: (event) => {
        event.preventDefault();
        const url = link();
        anchor.setAttribute('href', url);
        navigator.clipboard?.writeText(url).then(
          () => (status.textContent = 'Link copied'),
          () => (status.textContent = 'Copy failed: use the link itself'),
        );
        setTimeout(() => (status.textContent = ''), 2500);
      },
      focus: () => anchor.setAttribute('href', link()),
      pointerenter: () => anchor.setAttribute('href', link()),
    },
  }, 'Copy link');
  return { link: anchor, status };
}
