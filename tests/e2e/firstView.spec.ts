/**
 * The first view (data/first-view.json and the answer files it names): the page draws every
 * chart from them before DuckDB-WASM is up, with the very bars the engine draws; the sections
 * above the charts open in their default state meanwhile; and a drilldown clicked meanwhile opens
 * from its chart's file alone, at every release too, where each chart's file is fetched as the
 * chart comes near the screen once the page is idle, or when it is pointed at, focused or opened.
 */
import { expect, type Page, test } from '@playwright/test';
import { NEAR_SCREEN } from '../../src/ui/nearScreen';
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
  await expect(page.locator('#coverage')).toContainText('71 cells built');
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
    // Each section is a tab: opened with one click.
    await page.locator(`[data-tab="${id}"]`).click();
    const section = page.locator(`#section-${id}`);
    await section.scrollIntoViewIfNeeded();
    // A section shows its query tools once it has drawn its answer.
    await expect(section.locator('.section-tools [data-action="sql"]').first(), id).toBeVisible();
    await expect(section.locator('p[role="status"][data-status]'), id).not.toHaveAttribute('data-status', 'error');
  }
  // The changes between releases in instructions per request, the consecutive current versions' pairs,
  // at the default threshold (changes of at least 1%).
  await page.locator('[data-tab="changes"]').click();
  await expect(page.locator('#section-changes .release-pair')).not.toHaveCount(0);
  await expect(page.locator('#section-changes p[role="status"][data-status]')).toHaveText(/^(\d+) of \1 changes beyond noise in \d+ release pairs, instructions per request \(shown: at least 1%\); 1 of the 7 releases shown without counts, spanned by the pairs around them$/);
  expect(seen).toContain('first-view/sections.json');
  expect(await page.evaluate(() => performance.getEntriesByName('duckdb:ready').length)).toBe(0);
  release();
});

/** The drilldown files among the paths requested under data/. */
const drilldownFiles = (seen: readonly string[]) => seen.filter((p) => p.includes('/drilldowns/'));

/** The page place (index among the charts) of a chart's drilldown file, from its name (NN-mode-test.json). */
const placeOf = (file: string) => Number(/\/(\d+)-[^/]+\.json$/.exec(file)?.[1]);

/** Each chart's distance from the screen in CSS pixels (0: on it, partly or wholly), in page order. */
const distances = (page: Page) =>
  page.locator('figure[data-chart-key]').evaluateAll((nodes) =>
    nodes.map((n) => {
      const box = n.getBoundingClientRect();
      return Math.max(0, box.top - window.innerHeight, -box.bottom);
    }));

/** How far from the screen a chart counts as near it, in CSS pixels. */
const NEAR_PX = Number.parseInt(NEAR_SCREEN, 10);

/**
 * Checks the rule of which charts have their drilldown file once the page is idle: every chart on
 * screen has, no chart far from it (twice the nearness: cards settle as they render) has, none
 * twice. `also` are files fetched for another cause (a click, a pointer, the trends section).
 */
async function expectNearScreenFiles(page: Page, seen: readonly string[], also: readonly string[] = []) {
  const away = await distances(page);
  const onScreen = away.flatMap((d, i) => (d === 0 ? [i] : []));
  const far = away.flatMap((d, i) => (d > 2 * NEAR_PX ? [i] : []));
  expect(onScreen.length).toBeGreaterThan(0);
  expect(far.length).toBeGreaterThan(0);
  await expect.poll(() => onScreen.filter((i) => !drilldownFiles(seen).some((f) => placeOf(f) === i))).toEqual([]);
  const files = drilldownFiles(seen);
  expect(files.filter((f) => far.includes(placeOf(f)) && !also.includes(f))).toEqual([]);
  expect(new Set(files).size).toBe(files.length);
}

test.describe('at every release (158 versions)', () => {
  useEveryReleaseData();

  test("a drilldown clicked before the engine is up fetches its chart's file, and opens; pointing at or focusing a chart fetches its file", async ({ page, context }) => {
    const release = await holdEngine(context);
    const seen = dataRequests(page);
    await page.goto('./');
    await waitForCharts(page);
    // The first view holds the first charts; the others come in one file, fetched once they are drawn.
    expect(seen[0]).toBe('first-view.json');
    expect(seen).toContain('first-view/charts.json');
    await expect.poll(() => page.locator('figure[data-chart-key]').evaluateAll((nodes) => nodes.filter((n) => !n.querySelector('g.bar')).length)).toBe(0);
    // A chart on the first screen (below the answer panel): clicking it scrolls nothing. Scrolling to a
    // chart further down would lay the cards near it out from the size they kept while empty
    // (content-visibility), far shorter than drawn, so charts then near the screen end up far from it.
    const set = chart(page, 'pipe:PING_MBULK');
    await bar(set, '7.4.1').click();
    await expect(set).toHaveAttribute('data-drill', '7.4.1');
    await expect(bars(set)).toHaveCount(12);
    await expect(set.locator('g.bar[data-winner="true"]')).toHaveCount(1);
    expect(await page.evaluate(() => performance.getEntriesByName('duckdb:ready').length)).toBe(0);
    // Its chart's drilldown file; besides, the trends section's default chart's (the first) and,
    // once the page is idle, those of the charts near the screen: at every release each chart's
    // are a file of their own.
    const trends = 'first-view/drilldowns/00-data-ping-inline.json';
    expect(drilldownFiles(seen)).toContain('first-view/drilldowns/03-pipe-ping-mbulk.json');
    await expectNearScreenFiles(page, seen, [trends]);
    // Back to the versions (the 11 current ones, shown by default), its file not fetched again.
    await set.locator('[data-action="back"]').click();
    await expect(bars(set)).toHaveCount(11);
    expect(drilldownFiles(seen).filter((p) => p.endsWith('/03-pipe-ping-mbulk.json'))).toHaveLength(1);
    // A pointer entering, or keyboard focus, fetches the drilldowns of a chart far from the screen
    // (the last two), before any click.
    const figures = page.locator('figure[data-chart-key]');
    const count = await figures.count();
    const [last, before] = [count - 1, count - 2];
    expect((await distances(page))[before]).toBeGreaterThan(2 * NEAR_PX);
    await figures.nth(last).dispatchEvent('pointerenter');
    await expect.poll(() => drilldownFiles(seen).map(placeOf)).toContain(last);
    await bars(figures.nth(before)).first().evaluate((el) => (el as SVGGElement).focus({ preventScroll: true }));
    await expect.poll(() => drilldownFiles(seen).map(placeOf)).toContain(before);
    release();
  });

  test.describe('on a phone (390 px, touch)', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test('once the page is idle a chart scrolled into view gets its drilldown file with no pointer or focus, and a tap opens it fetching nothing', async ({ page }) => {
      const seen = dataRequests(page);
      await page.goto('./');
      await waitForCharts(page);
      await page.waitForFunction(() => performance.getEntriesByName('page:ready').length > 0);
      // At the top of the page the charts are far below: none has its file but the trends section's chart (the first).
      const trends = 'first-view/drilldowns/00-data-ping-inline.json';
      expect(drilldownFiles(seen).filter((f) => f !== trends)).toEqual([]);
      const incr = chart(page, 'pipe:INCR');
      await incr.evaluate((el) => {
        for (const type of ['pointerover', 'pointerenter', 'focusin']) el.addEventListener(type, () => el.setAttribute('data-touched', type));
        el.scrollIntoView({ block: 'center' });
      });
      await expect.poll(() => drilldownFiles(seen)).toContain('first-view/drilldowns/09-pipe-incr.json');
      await expectNearScreenFiles(page, seen, [trends]);
      await expect(incr).not.toHaveAttribute('data-touched', /.*/);
      // The tap finds the file at hand.
      const fetched = seen.length;
      await bar(incr, '7.4.1').tap();
      await expect(incr).toHaveAttribute('data-drill', '7.4.1');
      await expect(bars(incr)).toHaveCount(12);
      expect(seen.slice(fetched)).toEqual([]);
    });
  });
});
