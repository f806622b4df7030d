/**
 * "Server time" in "How this was measured": the compiler-visible share per mode, from the results'
 * lazy CPU columns, fetched when it is opened (fixture: 25% in the data modes, 90% in the pipe modes).
 */
import { expect, test } from '@playwright/test';
import { dataRequests, waitForCharts } from './helpers';

test('opening "Server time" fetches the CPU columns and shows each mode\'s compiler-visible share', async ({ page }) => {
  const seen = dataRequests(page);
  await page.goto('./');
  await waitForCharts(page);
  const share = page.locator('#measurement details.time-share');
  expect(seen).not.toContain('split/results.lazy.parquet');
  // "How this was measured" is closed at first (the page opens on instructions per request, the
  // Server time item is the same in every metric): open it, then Server time within it.
  const measured = page.locator('details:has(> #measurement)');
  await expect(measured).not.toHaveAttribute('open', '');
  await measured.locator(':scope > summary').click();
  await expect(share).toBeVisible();
  expect(seen).not.toContain('split/results.lazy.parquet');
  await share.locator('summary').first().click();
  await expect(share.locator('li[data-mode="pipe-long"]')).toContainText('90.0% of its CPU time in its own code (compiler-visible)');
  await expect(share.locator('li[data-mode="data"]')).toContainText('25.0% of its CPU time in its own code');
  await expect(share.locator('li[data-mode="data"]')).toContainText('at most +1.3% requests/second');
  expect(seen).toContain('split/results.lazy.parquet');
});
