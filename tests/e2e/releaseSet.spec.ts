/**
 * The current versions and every release: with a plan that marks 3.0.7 as not current (planned
 * one repeat), the charts show the current versions alone, and the "Every release" control (kept in
 * the URL) adds it back.
 */
import { expect, type Page, test } from '@playwright/test';
import { rewrittenFixture } from '../support/fixture-db';
import { bar, chart, waitForCharts } from './helpers';

async function serveOtherRelease(page: Page): Promise<void> {
  const body = Buffer.from(await rewrittenFixture('plan', `SELECT * REPLACE (version <> '3.0.7' AS "current") FROM fixture`));
  await page.route('**/data/plan.parquet', (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body }));
  // The first view was made from the fixture's own plan: the page answers from the engine.
  await page.route('**/data/first-view*.json', (route) => route.fulfill({ status: 404, body: 'not found' }));
}

test('the charts show the current versions by default, and every release with the control, kept in the URL', async ({ page }) => {
  await serveOtherRelease(page);
  await page.goto('./?metric=rps');
  await waitForCharts(page);
  const figure = chart(page, 'data:SET');
  const every = page.locator('#every-release');
  await expect(page.locator('label[for="every-release"]')).toContainText('Every release (+1)');
  await expect(every).not.toBeChecked();
  await expect(bar(figure, '7.4.1')).toBeVisible();
  await expect(bar(figure, '3.0.7')).toHaveCount(0);

  await every.check();
  await expect(page).toHaveURL(/releases=all/);
  await expect(bar(figure, '3.0.7')).toBeVisible();
  await page.goBack();
  await expect(page).not.toHaveURL(/releases=all/);
  await expect(bar(figure, '3.0.7')).toHaveCount(0);
  await expect(every).not.toBeChecked();
  await page.goForward();
  await expect(every).toBeChecked();
  await expect(bar(figure, '3.0.7')).toBeVisible();
  await page.reload();
  await waitForCharts(page);
  await expect(every).toBeChecked();
  await expect(bar(chart(page, 'data:SET'), '3.0.7')).toBeVisible();
});

test('without other releases in the plan there is no every-release control', async ({ page }) => {
  await page.goto('./?metric=rps');
  await waitForCharts(page);
  await expect(page.locator('#every-release')).toHaveCount(0);
});

test('the trends show the releases shown: the current versions, every release with the control, within the version range', async ({ page }) => {
  await serveOtherRelease(page);
  await page.goto('./?metric=rps&section=trends');
  const trends = page.locator('#section-trends');
  const gcc = trends.locator('figure.trend-panel[data-flag-set="-O2"] g.trend-series[data-key="gcc|-O2"]');
  const table = trends.getByRole('table', { name: /PING_INLINE, data mode/ });
  await expect(gcc.locator('g.point[data-version="7.4.1"]')).toHaveCount(1);
  await expect(gcc.locator('g.point[data-version="3.0.7"]')).toHaveCount(0);
  await expect(table.getByRole('columnheader', { name: '3.0.7' })).toHaveCount(0);
  await expect(trends.locator('.x-axis').first()).toHaveAttribute('data-labels', 'releases');

  await page.locator('#every-release').check();
  await expect(gcc.locator('g.point[data-version="3.0.7"]')).toHaveCount(1);
  await expect(table.getByRole('columnheader', { name: '3.0.7' })).toHaveCount(1);

  await page.goto('./?metric=rps&section=trends&releases=all&from=3.0.7&to=6.2.16');
  await expect(gcc.locator('g.point')).toHaveCount(3);
  await expect(gcc.locator('g.point').first()).toHaveAttribute('data-version', '3.0.7');
  await expect(gcc.locator('g.point').last()).toHaveAttribute('data-version', '6.2.16');
});

test('the summary and build-factor tables have columns for the releases shown, and "all" says how many it covers', async ({ page }) => {
  await serveOtherRelease(page);
  await page.goto('./?metric=rps&section=summary');
  const summaryHead = page.locator('.summary-table[data-mode="data"] thead th');
  const factorHead = page.locator('.factor-table[data-mode="data"] thead th');
  await expect(summaryHead.last()).toHaveText(/^all \d+$/);
  expect(await summaryHead.allTextContents()).not.toContain('3.0.7');
  await expect(page.locator('#summary-scope option[value="3.0.7"]')).toHaveCount(0);
  await expect(page.locator('#summary-scope option[value=""]')).toHaveText(/^all \d+ versions$/);
  // The sections are tabs, one open at a time: opening the build factors closes the summary.
  await page.locator('[data-tab="factors"]').click();
  await expect(page.locator('#section-summary')).toBeHidden();
  await expect(factorHead.last()).toHaveText(/^all \d+$/);
  expect(await factorHead.allTextContents()).not.toContain('3.0.7');

  await page.locator('#every-release').check();
  await expect(factorHead.last()).toHaveText('all');
  expect(await factorHead.allTextContents()).toContain('3.0.7');
  await page.locator('[data-tab="summary"]').click();
  await expect(page.locator('#section-factors')).toBeHidden();
  await expect(summaryHead.last()).toHaveText('all');
  expect(await summaryHead.allTextContents()).toContain('3.0.7');
  await expect(page.locator('#summary-scope option[value="3.0.7"]')).toHaveCount(1);
  await expect(page.locator('#summary-scope option[value=""]')).toHaveText('all versions');
});

test("compare's default sides are the two newest versions shown with figures in the metric", async ({ page }) => {
  // 7.2.6 not current: the default view shows 6.2.16 and 7.4.1 as the newest current versions.
  const body = Buffer.from(await rewrittenFixture('plan', `SELECT * REPLACE (version <> '7.2.6' AS "current") FROM fixture`));
  await page.route('**/data/plan.parquet', (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body }));
  await page.route('**/data/first-view*.json', (route) => route.fulfill({ status: 404, body: 'not found' }));
  const cases = [
    ['', '6.2.16', '7.4.1'],
    ['&releases=all', '7.2.6', '7.4.1'],
    // Up to 5.0.14, which has neither requests/second nor counts: the two before it.
    ['&releases=all&to=5.0.14', '2.8.24', '3.0.7'],
    ['&releases=all&to=5.0.14&metric=ir', '2.8.24', '3.0.7'],
  ] as const;
  for (const [params, a, b] of cases) {
    await page.goto(`./?metric=rps&section=compare${params}`);
    await expect(page.locator('#compare-a-version')).toHaveValue(a);
    await expect(page.locator('#compare-b-version')).toHaveValue(b);
  }
});
