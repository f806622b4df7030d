/** The status grid's cell panel lists the cell's counting runs, with each run's raw output on demand. */
import { expect, test } from '@playwright/test';
import { screenshot, waitForCharts } from './helpers';

test('the cell panel lists the counting runs and shows a run\'s raw output when asked', async ({ page }, testInfo) => {
  await page.goto('./?section=status&cell=2.8.24|gcc|-O2');
  await waitForCharts(page);
  const panel = page.locator('#section-status article[data-cell="2.8.24|gcc|-O2"]');
  const rows = panel.locator('.count-runs-table tbody tr');
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toContainText('data');
  await expect(rows.first()).toContainText('partial');
  await expect(rows.first()).toContainText('7 / 1 / 2');
  await expect(rows.first()).toContainText('valgrind-3.19.0');
  await expect(rows.first()).toContainText('600 s');
  await expect(rows.first()).toContainText('m-fixture');
  const output = panel.locator('details[data-run]').first();
  await expect(output.locator('pre')).not.toBeVisible();
  await output.locator('summary').click();
  await expect(output.locator('pre')).toHaveText(/^totals: 12345678/);
  await screenshot(page, testInfo, 'cell-count-runs');

  // A cell not counted yet says so.
  await page.goto('./?section=status&cell=6.2.16|clang|-O2');
  await waitForCharts(page);
  await expect(page.locator('#section-status article[data-cell="6.2.16|clang|-O2"] .count-runs-none')).toHaveText('No counting run recorded.');
});
