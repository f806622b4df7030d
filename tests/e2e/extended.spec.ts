/**
 * The extended configurations (the fixture's -O3 and -O3 -flto on 7.2.6 and 7.4.1, counted only):
 * hidden by default, shown with the Extended builds control and in links (ext=1), in the charts,
 * the build factors and the changes between releases.
 */
import { expect, type Page, test } from '@playwright/test';
import { bar, chart, waitForCharts } from './helpers';

const section = (page: Page, id: string) => page.locator(`#section-${id}`);

test('the reference configurations by default; the Extended builds control adds the extended ones, in the URL', async ({ page }) => {
  await page.goto('./?metric=ir&open=data:SET@7.4.1');
  await waitForCharts(page);
  const control = page.locator('#extended-builds');
  await expect(control).not.toBeChecked();
  await expect(page.locator('label[for="extended-builds"]')).toHaveText('Extended builds (-O3, -O3 -flto)');
  const set = chart(page, 'data:SET');
  await expect(bar(set, '7.4.1|gcc|-O2')).toBeVisible();
  await expect(set.locator('g.bar[data-key^="7.4.1|"]')).toHaveCount(12);
  await expect(bar(set, '7.4.1|gcc|-O3')).toHaveCount(0);

  await control.check();
  await expect(page).toHaveURL(/[?&]ext=1(&|$)/);
  await waitForCharts(page);
  await expect(page.locator('#extended-builds')).toBeChecked();
  await expect(chart(page, 'data:SET').locator('g.bar[data-key^="7.4.1|"]')).toHaveCount(16);
  await expect(bar(chart(page, 'data:SET'), '7.4.1|gcc|-O3')).toBeVisible();
  await expect(bar(chart(page, 'data:SET'), '7.4.1|clang|-O3 -flto')).toBeVisible();

  // Back: the reference configurations again (a new page load, as for another hardware class).
  await page.goBack();
  await waitForCharts(page);
  await expect(page.locator('#extended-builds')).not.toBeChecked();
  await expect(chart(page, 'data:SET').locator('g.bar[data-key^="7.4.1|"]')).toHaveCount(12);
});

test('with ext=1 the build factors have an -O3 level on the versions that have it, and the changes compare 16 configurations', async ({ page }) => {
  await page.goto('./?ext=1&metric=ir&section=factors');
  await waitForCharts(page);
  const table = section(page, 'factors').locator('.factor-table[data-mode="data"]');
  await expect(table.locator('tbody th')).toContainText(['clang vs gcc', '-Os vs -O2', '-Ofast vs -O2', '-O3 vs -O2', 'LTO (-flto) on vs off']);
  const o3 = table.locator('tr[data-row="level:-O3"]');
  await expect(o3.locator('td[data-column="7.4.1"]')).toHaveAttribute('data-verdict', 'faster');
  await expect(o3.locator('td[data-column="6.2.16"]')).not.toHaveAttribute('data-verdict', /./);

  await page.goto('./?ext=1&metric=ir&section=changes');
  await waitForCharts(page);
  const pair = section(page, 'changes').locator('.release-pair[data-pair="7.2.6>7.4.1"]');
  await expect(pair.locator('li[data-test="INCR"][data-mode="pipe"]')).toContainText('costlier in all 14 configurations counted on both (2 of 16 without counts on both)');
  // Without ext the same pair has the 12 reference configurations.
  await page.goto('./?metric=ir&section=changes');
  await waitForCharts(page);
  await expect(section(page, 'changes').locator('.release-pair[data-pair="7.2.6>7.4.1"] li[data-test="INCR"][data-mode="pipe"]'))
    .toContainText('costlier in all 10 configurations counted on both (2 of 12 without counts on both)');
});
