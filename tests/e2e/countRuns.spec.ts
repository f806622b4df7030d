/** The status grid's cell panel lists the cell's counting runs, with each run's raw output on demand. */
import { expect, test } from '@playwright/test';
import { screenshot, waitForCharts } from './helpers';

test('the cell panel lists the counting runs and shows a run\'s raw output when asked', async ({ page }, testInfo) => {
  await page.goto('./?metric=rps&section=status&cell=2.8.24|gcc|-O2');
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
  await page.goto('./?metric=rps&section=status&cell=6.2.16|clang|-O2');
  await waitForCharts(page);
  await expect(page.locator('#section-status article[data-cell="6.2.16|clang|-O2"] .count-runs-none')).toHaveText('No counting run recorded.');
});

test('the cell panel lists the counting runs set aside, with why and their raw output', async ({ page }) => {
  await page.goto('./?metric=rps&section=status&cell=7.4.1|gcc|-O2');
  await waitForCharts(page);
  const panel = page.locator('#section-status article[data-cell="7.4.1|gcc|-O2"]');
  const rows = panel.locator('.superseded-count-runs-table tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('counted again: repeats differed: INCR 0.0412% apart');
  await expect(rows.nth(1)).toContainText('data');
  const output = panel.locator('details[data-run^="cs-"]').first();
  await output.locator('summary').click();
  await expect(output.locator('pre')).toHaveText(/evidence of a run set aside/);
  // The charts' runs are still the current ones: four counting runs.
  await expect(panel.locator('.count-runs-table tbody tr')).toHaveCount(4);

  await page.goto('./?metric=rps&section=status&cell=2.8.24|gcc|-O2');
  await waitForCharts(page);
  await expect(page.locator('#section-status article[data-cell="2.8.24|gcc|-O2"] .superseded-count-runs-table tbody tr')).toContainText('an earlier counting protocol');
  await page.goto('./?metric=rps&section=status&cell=6.2.16|clang|-O2');
  await waitForCharts(page);
  await expect(page.locator('#section-status article[data-cell="6.2.16|clang|-O2"] .superseded-none')).toHaveText('No counting run of this cell was set aside.');
});
