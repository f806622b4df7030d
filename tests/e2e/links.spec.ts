import { expect, test } from '@playwright/test';
import { bar, bars, chart, screenshot, waitForCharts } from './helpers';

test('a copied deep link reopened in a fresh page restores the same state', async ({ page, context, browser }, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('./?metric=rps');
  await waitForCharts(page);
  await page.getByText('Max Change View', { exact: true }).click();
  await page.getByText('pipe (-P 1000)', { exact: true }).click();
  await page.locator('#version-from').selectOption('2.8.24');
  const mset = chart(page, 'pipe:MSET (10 keys)');
  await bar(mset, '6.2.16').click();
  await expect(mset).toHaveAttribute('data-drill', '6.2.16');
  await mset.getByRole('link', { name: 'Copy link' }).click();
  await expect(mset).toContainText('Link copied');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(await mset.getByRole('link', { name: 'Copy link' }).getAttribute('href'));
  expect(new URL(link).pathname).toBe('/redis-compiler-benchmarks/');
  const expectedDomain = await mset.locator('svg').getAttribute('data-domain');

  const fresh = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  await fresh.goto(link);
  await waitForCharts(fresh);
  const restored = chart(fresh, 'pipe:MSET (10 keys)');
  await expect(restored).toHaveAttribute('data-drill', '6.2.16');
  await expect(bars(restored)).toHaveCount(12);
  await expect(restored.locator('svg')).toHaveAttribute('data-domain', expectedDomain ?? '');
  await expect(fresh.locator('#view-max')).toBeChecked();
  await expect(fresh.locator('#mode-pipe')).toBeChecked();
  await expect(fresh.locator('#version-from')).toHaveValue('2.8.24');
  await expect(fresh.locator('figure[data-chart-key]:visible')).toHaveCount(10);
  await expect(restored).toBeInViewport();
  await expect(fresh.locator('[data-notice="link"]')).toHaveCount(0);
  await screenshot(fresh, testInfo, 'restored-deep-link');
  await fresh.context().close();
});

test('back and forward walk through the states', async ({ page }) => {
  await page.goto('./?metric=rps');
  await waitForCharts(page);
  const get = chart(page, 'data:GET');
  await bar(get, '3.0.7').click();
  await expect(get).toHaveAttribute('data-drill', '3.0.7');
  await page.getByText('Max Change View', { exact: true }).click();
  await expect(page).toHaveURL(/view=max/);

  await page.goBack();
  await expect(page).not.toHaveURL(/view=max/);
  await expect(page.locator('#view-real')).toBeChecked();
  await expect(get).toHaveAttribute('data-drill', '3.0.7');
  await page.goBack();
  await expect(get).toHaveAttribute('data-drill', '');
  await expect(bars(get)).toHaveCount(7);
  await page.goForward();
  await expect(get).toHaveAttribute('data-drill', '3.0.7');
  await page.goForward();
  await expect(page.locator('#view-max')).toBeChecked();
});

test('a malformed or stale URL falls back to defaults with a visible notice', async ({ page }, testInfo) => {
  await page.goto('./?metric=rps&view=zoom&mode=data&open=data:SET@9.9.9&open=data:NOSUCHTEST@7.4.1&from=1.0.0&colour=red');
  await waitForCharts(page);
  const notice = page.locator('[data-notice="link"]');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Unknown view "zoom"');
  await expect(notice).toContainText('9.9.9');
  await expect(notice).toContainText('NOSUCHTEST');
  await expect(notice).toContainText('colour');
  // The usable part (mode=data) is kept; the rest is default.
  await expect(page.locator('#mode-data')).toBeChecked();
  await expect(page.locator('#view-real')).toBeChecked();
  await expect(chart(page, 'data:SET')).toHaveAttribute('data-drill', '');
  // The fixture has two hardware classes, so the URL also names the one shown.
  await expect(page).toHaveURL(/\?hw=fixture-cpu-2-00ghz-2-cores&metric=rps&mode=data$/);
  await screenshot(page, testInfo, 'stale-link-notice');
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
});

test('scrolling records the chart in view, and a link to it scrolls there', async ({ page }) => {
  await page.goto('./?metric=rps');
  await waitForCharts(page);
  // The answer above the charts grows once the engine has computed its interleaved rounds: scroll after.
  await expect(page.locator('#answer .answer-rounds')).not.toContainText('Computing the interleaved rounds');
  // A chart the page can scroll to the top of the screen (the last rows cannot: the page ends below them).
  await page.evaluate(() => document.querySelector('figure[data-chart-key="data:GET"]')?.scrollIntoView({ block: 'start' }));
  await expect(page).toHaveURL(/chart=data%3AGET/);
  await page.reload();
  await waitForCharts(page);
  await expect(chart(page, 'data:GET')).toBeInViewport();
});

test('the chart clicked stays in the URL while it is on screen, and a link to it opens there', async ({ page }) => {
  await page.goto('./?metric=rps');
  await waitForCharts(page);
  // pipe:LPUSH stands right of data:LPUSH: scrolling their row to the top puts data:LPUSH first in page order.
  const clicked = chart(page, 'pipe:LPUSH');
  await page.evaluate(() => document.querySelector('figure[data-chart-key="pipe:LPUSH"]')?.scrollIntoView({ block: 'center' }));
  await clicked.locator('g.bar[data-status="ok"]').last().click();
  await expect(page).toHaveURL(/chart=pipe%3ALPUSH/);
  await page.evaluate(() => document.querySelector('figure[data-chart-key="pipe:LPUSH"]')?.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(600);
  await expect(page).toHaveURL(/chart=pipe%3ALPUSH/);
  await page.reload();
  await waitForCharts(page);
  await expect(chart(page, 'pipe:LPUSH')).toBeInViewport();
  // Scrolled off screen, the URL follows the scroll again.
  await page.evaluate(() => document.querySelector('figure[data-chart-key="data:SET"]')?.scrollIntoView({ block: 'start' }));
  await expect(page).not.toHaveURL(/chart=pipe%3ALPUSH/);
});
