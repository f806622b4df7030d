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
  await page.goto('./');
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
  await page.goto('./');
  await waitForCharts(page);
  await expect(page.locator('#every-release')).toHaveCount(0);
});
