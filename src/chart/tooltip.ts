/**
 * One tooltip for the whole page, shown next to the bar under the pointer or keyboard focus.
 * Text only: lines are set with textContent, so strings from the data are never parsed as HTML.
 */

let element: HTMLDivElement | null = null;

function tooltipElement(): HTMLDivElement {
  if (element?.isConnected) return element;
  element = document.createElement('div');
  element.id = 'chart-tooltip';
  element.setAttribute('role', 'tooltip');
  element.className =
    'pointer-events-none fixed z-50 hidden max-w-sm rounded-md border border-slate-300 bg-white/95 px-3 py-2 text-xs leading-5 text-slate-800 shadow-lg [overflow-wrap:anywhere]';
  document.body.append(element);
  return element;
}

/** Shows `lines` (the first in bold) beside `anchor`, kept inside the visible screen (flipped below when there is no room above). */
export function showTooltip(anchor: Element, lines: readonly string[]): void {
  const tip = tooltipElement();
  tip.replaceChildren(
    ...lines.map((line, i) => {
      const div = document.createElement('div');
      if (i === 0) div.className = 'font-semibold';
      div.textContent = line;
      return div;
    }),
  );
  // The visible width: on a phone, innerWidth can be the wider layout (a page zoomed out).
  const screenWidth = Math.min(document.documentElement.clientWidth || window.innerWidth, window.visualViewport?.width ?? Infinity);
  tip.style.maxWidth = `${Math.min(384, screenWidth - 8)}px`;
  tip.classList.remove('hidden');
  const box = anchor.getBoundingClientRect();
  const { width, height } = tip.getBoundingClientRect();
  const left = Math.max(4, Math.min(box.left + box.width / 2 - width / 2, screenWidth - width - 4));
  const above = box.top - height - 8;
  tip.style.left = `${left}px`;
  tip.style.top = `${above >= 4 ? above : Math.max(4, Math.min(box.bottom + 8, window.innerHeight - height - 4))}px`;
}

/** Hides the tooltip. */
export function hideTooltip(): void {
  element?.classList.add('hidden');
}
