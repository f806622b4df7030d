/**
 * What both floor pages share: drawing every chart's version bars with the site's own chart
 * module, marking `charts:first-painted` after the first four and a frame (as the site does) and
 * `charts:all-painted` after all of them.
 */
import './floors.css';
import { barChart } from '../../../src/chart/barChart';
import { compilerColors } from '../../../src/chart/palette';
import { versionBar } from '../../../src/model/bars';
import type { VersionRow } from '../../../src/sql/charts';

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** The site's data folder, next to the folder these pages are served from. */
export const dataUrl = (): string => new URL('../data/', new URL(import.meta.env.BASE_URL, location.href)).href;

/** The rows of each chart, in their order. */
function byChart(rows: readonly VersionRow[]): Map<string, VersionRow[]> {
  const charts = new Map<string, VersionRow[]>();
  for (const row of rows) {
    const key = `${row.mode}:${row.test}`;
    charts.set(key, [...(charts.get(key) ?? []), row]);
  }
  return charts;
}

/**
 * Draws one chart per (mode, test) of the rows of `parts` (each asked for once the charts before
 * it are drawn), in their order, coloured by `compilers`.
 */
export async function drawCharts(parts: readonly (() => Promise<readonly VersionRow[]>)[], compilers: readonly string[]): Promise<void> {
  const colors = compilerColors(compilers);
  const grid = document.createElement('div');
  grid.className = 'grid grid-cols-1 gap-4 xl:grid-cols-2';
  document.getElementById('charts')?.replaceChildren(grid);
  let drawn = 0;
  for (const part of parts) for (const [key, chartRows] of byChart(await part())) {
    const figure = document.createElement('figure');
    figure.className = 'rounded-lg border border-slate-200 bg-white p-3';
    figure.dataset.chartKey = key;
    const caption = document.createElement('figcaption');
    caption.textContent = key;
    const body = document.createElement('div');
    figure.append(caption, body);
    grid.append(figure);
    barChart(body, chartRows.map((r) => versionBar(r, (c) => colors(c))), { view: 'real', label: key });
    if (++drawn === 4) {
      await frame();
      performance.mark('charts:first-painted');
    }
  }
  if (drawn < 4) {
    await frame();
    performance.mark('charts:first-painted');
  }
  await frame();
  performance.mark('charts:all-painted');
}
