/**
 * A table of changes (ratios) with each cell tinted by its size: blue for faster, orange for
 * slower (Okabe-Ito, told apart with colour-vision deficiencies), and only when the change is
 * beyond the noise band; a change within noise stays untinted. The verdict's glyph (▲ ▼ ≈ ?)
 * says the same without colour. Cells can be buttons. It only draws: it never queries or
 * touches the URL.
 */
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { formatChange, VERDICT_GLYPH } from '../model/changeText';
import type { HeatCell, HeatRow, HeatTableData, Verdict } from '../vocabulary';

/** Behaviour. */
export interface HeatTableOptions {
  /** Makes cells with a figure buttons that call this with their row and column keys. */
  readonly onCell?: (row: string, column: string) => void;
  /** The column whose cells are shown pressed (e.g. the version a view is showing). */
  readonly selectedColumn?: string;
}

/** A drawn table. */
export interface HeatTable {
  update(data: HeatTableData, options: HeatTableOptions): void;
  destroy(): void;
}

const FASTER = '#0072B2';
const SLOWER = '#E69F00';
/** Changes this large or larger get the strongest tint. */
const FULL_TINT_AT = 0.1;

/**
 * The tint of a change: the direction's colour, stronger with a larger change, or null within
 * noise (CSS color-mix over transparent keeps it right on light and dark cards).
 */
export function tint(ratio: number | null, verdict: Verdict | null): string | null {
  if (ratio === null || (verdict !== 'faster' && verdict !== 'slower')) return null;
  const alpha = scaleLinear().domain([0, FULL_TINT_AT]).range([12, 55]).clamp(true)(Math.abs(Math.log(ratio)));
  return `color-mix(in srgb, ${verdict === 'faster' ? FASTER : SLOWER} ${alpha.toFixed(0)}%, transparent)`;
}

const cellText = (cell: HeatCell) => (cell.ratio === null ? '–' : `${cell.glyph ?? VERDICT_GLYPH[cell.verdict ?? 'unknown']} ${formatChange(cell.ratio)}`);

/** Draws `data` into `el` (emptied first). */
export function heatTable(el: HTMLElement, data: HeatTableData, options: HeatTableOptions): HeatTable {
  const table = select(el).append('table').attr('class', 'heat-table w-full border-collapse text-xs tabular-nums');
  el.replaceChildren(table.node() as HTMLTableElement);
  const caption = table.append('caption').attr('class', 'mb-1 text-left text-sm font-semibold text-slate-800');
  const headRow = table.append('thead').append('tr');
  const body = table.append('tbody');

  function draw(d: HeatTableData, opts: HeatTableOptions): void {
    caption.text(d.caption);
    headRow.selectAll('th')
      .data(['', ...d.columns.map((c) => c.label)])
      .join('th')
      .attr('scope', 'col')
      .attr('aria-current', (_, i) => (i > 0 && d.columns[i - 1]?.key === opts.selectedColumn ? 'true' : null))
      .attr('class', 'border-b border-slate-300 px-1.5 py-1 text-right font-semibold text-slate-700 first:text-left aria-[current=true]:underline')
      .text((label) => label);
    const rows = body.selectAll<HTMLTableRowElement, HeatRow>('tr')
      .data(d.rows, (r) => r.key)
      .join((enter) => {
        const tr = enter.append('tr').attr('class', 'border-b border-slate-100');
        tr.append('th').attr('scope', 'row').attr('class', 'whitespace-nowrap px-1.5 py-1 text-left font-medium text-slate-800');
        return tr;
      })
      .attr('data-row', (r) => r.key);
    rows.select('th').text((r) => r.label);
    rows.selectAll<HTMLTableCellElement, HeatCell & { row: string; column: string }>('td')
      .data((r) => r.cells.map((cell, i) => ({ ...cell, row: r.key, column: d.columns[i]?.key ?? '' })))
      .join('td')
      .attr('class', 'whitespace-nowrap p-0 text-right')
      .attr('data-column', (c) => c.column)
      .attr('data-verdict', (c) => c.verdict ?? '')
      .attr('data-ratio', (c) => (c.ratio === null ? '' : String(c.ratio)))
      .style('background', (c) => tint(c.ratio, c.verdict))
      .each(function (c) {
        const td = select(this);
        const clickable = opts.onCell !== undefined && c.ratio !== null;
        const pressed = opts.selectedColumn === c.column;
        td.selectAll('*').remove();
        const inner = td.append<HTMLElement>(clickable ? 'button' : 'span')
          .attr('class', clickable
            ? 'w-full cursor-pointer px-1.5 py-1 text-right hover:underline aria-pressed:outline-2 aria-pressed:-outline-offset-2 aria-pressed:outline-slate-800'
            : 'block px-1.5 py-1');
        if (clickable) {
          inner.attr('type', 'button').attr('aria-pressed', String(pressed)).on('click', () => opts.onCell?.(c.row, c.column));
        }
        inner.attr('title', c.title).attr('aria-label', c.title).text(cellText(c))
          .classed('text-slate-500', c.verdict === 'tie' || c.verdict === 'unknown' || c.ratio === null);
      });
  }

  draw(data, options);
  return {
    update: draw,
    destroy: () => table.remove(),
  };
}

/** Heat tables kept by key (one per mode, say) in one container, each in a `<div class=…  data-mode=…>`. */
export interface HeatTables {
  /** Draws `data` in the table of `key`, adding it at the end of the container the first time. */
  show(key: string, data: HeatTableData, options: HeatTableOptions): void;
  /** Removes the tables whose key is not in `keep`. */
  keepOnly(keep: readonly string[]): void;
}

/** Heat tables in `container`, each wrapped in a div of class `className` with `data-mode` = its key. */
export function heatTables(container: HTMLElement, className: string): HeatTables {
  const tables = new Map<string, { table: HeatTable; box: HTMLElement }>();
  return {
    show(key, data, options) {
      const drawn = tables.get(key);
      if (drawn) {
        drawn.table.update(data, options);
        return;
      }
      const box = document.createElement('div');
      box.className = className;
      box.dataset.mode = key;
      container.append(box);
      tables.set(key, { table: heatTable(box, data, options), box });
    },
    keepOnly(keep) {
      for (const [key, drawn] of tables) {
        if (keep.includes(key)) continue;
        drawn.table.destroy();
        drawn.box.remove();
        tables.delete(key);
      }
    },
  };
}
