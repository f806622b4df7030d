/**
 * The version axis at every release (158 versions: tests/fixtures/make-fixtures.mjs
 * --every-release, with the files the build derives from it): bars grouped by minor line, the
 * lines labelled, a line's label zooms into its releases (keyboard too), drilldowns kept; no
 * sideways scroll at 390 px.
 */
import { expect, type Page, test } from '@playwright/test';
import { bar, bars, chart, useEveryReleaseData, waitForCharts } from './helpers';

useEveryReleaseData();

const groupLabels = (page: Page, key: string) => chart(page, key).locator('.group-labels text');

test('158 releases are grouped by minor line, and a line label zooms into its releases and back', async ({ page }) => {
  await page.goto('./?metric=rps&releases=all');
  await waitForCharts(page);
  const set = chart(page, 'data:SET');
  await expect(bars(set)).toHaveCount(158);
  // Too narrow for a label per release: the lines are labelled instead, as buttons.
  await expect(set.locator('.x-axis .tick text')).toHaveCount(0);
  const lines = await groupLabels(page, 'data:SET').allTextContents();
  expect(lines.length).toBeGreaterThanOrEqual(8);
  expect(lines).toEqual(expect.arrayContaining(['2.6', '2.8', '4.0', '6.2', '7.0']));
  const line = set.locator('.group-labels text[data-group="6.2"]');
  await expect(line).toHaveAttribute('role', 'button');
  await expect(line).toHaveAttribute('aria-label', 'Show only the 6.2 releases');

  await line.click();
  await expect(bars(set)).toHaveCount(17);
  // The URL is written once the browser is idle after drawing (src/app/history.ts): with 42 charts
  // of every release on a loaded machine, seconds after the bars.
  await expect(page).toHaveURL(/from=6\.2\.0&to=6\.2\.16/, { timeout: 30_000 });
  await expect(set.locator('.x-axis .tick text')).toHaveCount(17);
  await expect(set.locator('.group-labels text[data-group="6.2"]')).toHaveAttribute('aria-label', 'Show every release again');
  // Every chart shows the range; a drilldown still opens.
  await expect(bars(chart(page, 'pipe:GET'))).toHaveCount(17);
  await bar(set, '6.2.16').click();
  await expect(set).toHaveAttribute('data-drill', '6.2.16');
  await expect(bars(set)).toHaveCount(12);
  await set.locator('[data-action="back"]').click();
  await expect(bars(set)).toHaveCount(17);

  // The keyboard: Enter on the label goes back to every release.
  await set.locator('.group-labels text[data-group="6.2"]').focus();
  await page.keyboard.press('Enter');
  await expect(bars(set)).toHaveCount(158);
  await expect(page).not.toHaveURL(/from=/);
});

test('at 390 px with every release nothing scrolls the page sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('./?metric=rps&releases=all');
  await waitForCharts(page);
  await expect(bars(chart(page, 'data:SET'))).toHaveCount(158);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
});

test('the trends at every release label the minor lines, not each release', async ({ page }) => {
  await page.goto('./?metric=rps&releases=all&section=trends');
  const axis = page.locator('#section-trends figure.trend-panel[data-flag-set="-O2"] .x-axis');
  await expect(axis).toHaveAttribute('data-labels', 'minor-lines');
  await expect(page.locator('#section-trends figure.trend-panel[data-flag-set="-O2"] g.trend-series[data-key="gcc|-O2"] g.point')).toHaveCount(158);
  // 7.4 has two releases after 7.2's seven: every line is far enough from the last to be labelled.
  await expect(axis.locator('.tick text')).toHaveText(['2.6', '2.8', '3.0', '3.2', '4.0', '5.0', '6.0', '6.2', '7.0', '7.2', '7.4']);
  await page.goto('./?metric=rps&section=trends');
  await expect(axis).toHaveAttribute('data-labels', 'releases');
  await expect(axis.locator('.tick text')).toHaveCount(11);
});
