/**
 * The first view (data/first-view.json): the page draws every chart from it before DuckDB-WASM is
 * up, with the very bars the engine draws, and a drilldown clicked meanwhile opens once it is.
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { bar, bars, chart, waitForCharts } from './helpers';

/** Holds back DuckDB-WASM's worker and wasm until the returned function is called. */
async function holdEngine(context: BrowserContext): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await context.route(/duckdb-(browser-)?(eh|mvp)[^/]*\.(wasm|js)$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Every drawn version bar: what it shows (value, whisker, noise and change marks, accessible name, geometry). */
function drawnBars(page: Page) {
  return page.locator('figure[data-chart-key] g.bar').evaluateAll((nodes) =>
    nodes.map((n) => {
      const shape = n.querySelector('rect.shape');
      const whisker = n.querySelector('line.whisker');
      const attrs = ['data-key', 'data-status', 'data-value', 'data-low', 'data-winner', 'data-noise', 'data-change', 'data-busy', 'aria-label'];
      return {
        chart: n.closest('figure')?.getAttribute('data-chart-key'),
        attrs: Object.fromEntries(attrs.map((a) => [a, n.getAttribute(a)])),
        shape: ['y', 'height', 'fill'].map((a) => shape?.getAttribute(a)),
        whisker: ['y1', 'y2', 'display'].map((a) => whisker?.getAttribute(a)),
      };
    }));
}

test('every chart is drawn from the first view before the engine is up, with the bars the engine draws', async ({ page, context }) => {
  const release = await holdEngine(context);
  await page.goto('./');
  await waitForCharts(page);
  await expect(page.locator('#coverage')).toContainText('71 of 84 cells collected');
  expect(await page.evaluate(() => performance.getEntriesByName('duckdb:ready').length)).toBe(0);
  const precomputed = await drawnBars(page);
  release();

  // The same page without the file: everything from the engine.
  const engine = await context.newPage();
  await engine.route('**/data/first-view.json', (route) => route.fulfill({ status: 404 }));
  await engine.goto('./');
  await waitForCharts(engine);
  await engine.waitForFunction(() => performance.getEntriesByName('page:ready').length > 0);
  const queried = await drawnBars(engine);
  expect(precomputed.length).toBeGreaterThan(100);
  expect(precomputed.filter((b) => b.attrs['data-change'] !== null).length).toBeGreaterThan(0);
  expect(precomputed).toEqual(queried);
});

test('a drilldown clicked before the engine is up opens once it is', async ({ page, context }) => {
  const release = await holdEngine(context);
  await page.goto('./');
  await waitForCharts(page);
  const set = chart(page, 'data:SET');
  await bar(set, '7.4.1').click();
  await expect(page).toHaveURL(/open=/);
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => performance.getEntriesByName('duckdb:ready').length)).toBe(0);
  release();
  await expect(set).toHaveAttribute('data-drill', '7.4.1');
  await expect(bars(set)).toHaveCount(12);
  await expect(set.locator('g.bar[data-winner="true"]')).toHaveCount(1);
});
