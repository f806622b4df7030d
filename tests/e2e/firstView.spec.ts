/**
 * The first view (data/first-view.json and the answer files it names): the page draws every
 * chart from them before DuckDB-WASM is up, with the very bars the engine draws; the sections
 * above the charts open in their default state meanwhile; and a drilldown clicked meanwhile opens
 * from its chart's file alone, at every release too.
 */
import { expect, type Page, test } from '@playwright/test';
import { bar, bars, chart, dataRequests, holdEngine, useEveryReleaseData, waitForCharts } from './helpers';

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

test('a drilldown clicked before the engine is up opens from the precomputed drilldowns, without the engine', async ({ page, context }) => {
  const release = await holdEngine(context);
  const seen = dataRequests(page);
  await page.goto('./');
  await waitForCharts(page);
  const set = chart(page, 'data:SET');
  await bar(set, '7.4.1').click();
  await expect(page).toHaveURL(/open=/);
  await expect(set).toHaveAttribute('data-drill', '7.4.1');
  await expect(bars(set)).toHaveCount(12);
  await expect(set.locator('g.bar[data-winner="true"]')).toHaveCount(1);
  expect(await page.evaluate(() => performance.getEntriesByName('duckdb:ready').length)).toBe(0);
  // The fixture's drilldowns are small: one file holds every chart's.
  expect(seen.filter((p) => p.includes('drilldowns'))).toEqual(['first-view/drilldowns.json']);
  release();
});

test('the sections above the charts open in their default state from the precomputed sections file, without the engine', async ({ page, context }) => {
  const release = await holdEngine(context);
  const seen = dataRequests(page);
  await page.goto('./');
  await waitForCharts(page);
  for (const id of ['summary', 'factors', 'trends', 'compare', 'changes', 'hardware']) {
    const section = page.locator(`#section-${id}`);
    await section.scrollIntoViewIfNeeded();
    // A section shows its query tools once it has drawn its answer.
    await expect(section.locator('.section-tools [data-action="sql"]').first(), id).toBeVisible();
    await expect(section.locator('p[role="status"][data-status]'), id).not.toHaveAttribute('data-status', 'error');
  }
  // The changes between releases in instructions per request, the consecutive current versions' pairs.
  await expect(page.locator('#section-changes .release-pair')).not.toHaveCount(0);
  await expect(page.locator('#section-changes p[role="status"][data-status]')).toHaveText(/^\d+ changes beyond noise in \d+ release pairs, instructions per request$/);
  expect(seen).toContain('first-view/sections.json');
  expect(await page.evaluate(() => performance.getEntriesByName('duckdb:ready').length)).toBe(0);
  release();
});

test.describe('at every release (158 versions)', () => {
  useEveryReleaseData();

  test("a drilldown clicked before the engine is up fetches its chart's file only, and opens", async ({ page, context }) => {
    const release = await holdEngine(context);
    const seen = dataRequests(page);
    await page.goto('./');
    await waitForCharts(page);
    // The first view holds the first charts; the others come in one file, fetched once they are drawn.
    expect(seen[0]).toBe('first-view.json');
    expect(seen).toContain('first-view/charts.json');
    const set = chart(page, 'pipe:SET');
    await bar(set, '7.4.1').click();
    await expect(set).toHaveAttribute('data-drill', '7.4.1');
    await expect(bars(set)).toHaveCount(12);
    await expect(set.locator('g.bar[data-winner="true"]')).toHaveCount(1);
    expect(await page.evaluate(() => performance.getEntriesByName('duckdb:ready').length)).toBe(0);
    // Its chart's drilldown file, and (for the trends section's default chart) the first chart's: at
    // every release each chart's are a file of their own.
    const drilldowns = seen.filter((p) => p.includes('drilldowns'));
    expect(drilldowns).toContain('first-view/drilldowns/rps/05-pipe-set.json');
    expect(drilldowns.filter((p) => !/\/(00-data-ping-inline|05-pipe-set)\.json$/.test(p))).toEqual([]);
    // Back to the versions (the 11 current ones, shown by default), with no other file.
    const before = seen.length;
    await set.locator('[data-action="back"]').click();
    await expect(bars(set)).toHaveCount(11);
    expect(seen.slice(before).filter((p) => p.includes('/drilldowns/'))).toEqual([]);
    // Pointing at another chart fetches its drilldowns before any click.
    await chart(page, 'data:GET').hover();
    await expect.poll(() => seen.filter((p) => p.includes('/drilldowns/')).at(-1)).toBe('first-view/drilldowns/rps/06-data-get.json');
    release();
  });
});
