import { expect, type Page, test } from '@playwright/test';
import { rewrittenFixture } from '../support/fixture-db';
import { bar, chart, screenshot, waitForCharts } from './helpers';

/**
 * Hides data/first-view.json: the page then reads everything through DuckDB-WASM, whose handling
 * of broken, missing and hostile data files these tests check.
 */
async function engineOnly(page: Page): Promise<void> {
  await page.route('**/data/first-view.json', (route) => route.fulfill({ status: 404, body: 'not found' }));
}

test('the site makes no request to any other origin, no request fails, and it logs no error', async ({ page, context, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const foreign: string[] = [];
  const seen: string[] = [];
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  const failedRequests: string[] = [];
  context.on('requestfailed', (request) => failedRequests.push(`${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`));
  context.on('request', (request) => {
    if (request.method() !== 'GET') failedRequests.push(`${request.method()} ${request.url()} (only GET is expected)`);
    seen.push(request.url());
    if (!request.url().startsWith(origin) && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) foreign.push(request.url());
  });
  await context.route((url) => !url.href.startsWith(`${origin}/`), (route) => {
    foreign.push(route.request().url());
    return route.abort();
  });
  await page.goto('./?metric=rps');
  await waitForCharts(page);
  await bar(chart(page, 'data:SET'), '7.4.1').click();
  await expect(chart(page, 'data:SET')).toHaveAttribute('data-drill', '7.4.1');
  await page.waitForLoadState('networkidle');
  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
  // No request fails or is cancelled (e.g. a HEAD probe of the wasm file).
  expect(failedRequests).toEqual([]);
  // The data and DuckDB's wasm came from the site's own sub-path.
  expect(seen.some((u) => u.endsWith('/redis-compiler-benchmarks/data/first-view.json'))).toBe(true);
  expect(seen.some((u) => u.endsWith('/redis-compiler-benchmarks/data/split/results.parquet'))).toBe(true);
  expect(seen.some((u) => /\/redis-compiler-benchmarks\/assets\/duckdb-eh-[\w-]+\.wasm$/.test(u))).toBe(true);
});

test('a corrupt data file shows a clear error instead of charts', async ({ page }, testInfo) => {
  await engineOnly(page);
  await page.route('**/data/results.parquet', (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: 'PAR1 this is not parquet' }));
  await page.goto('./?metric=rps');
  const error = page.locator('[data-error="load"]');
  await expect(error).toBeVisible();
  await expect(error).toHaveAttribute('role', 'alert');
  await expect(error).toContainText('The data file results.parquet is damaged');
  await expect(page.locator('figure[data-chart-key]')).toHaveCount(0);
  await screenshot(page, testInfo, 'corrupt-data');
});

test('a Parquet file that DuckDB cannot read shows the engine error', async ({ page }) => {
  await engineOnly(page);
  // Valid magic at both ends, garbage inside: only the reader can tell.
  const body = Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(64, 7), Buffer.from([8, 0, 0, 0]), Buffer.from('PAR1')]);
  await page.route('**/data/runs.parquet', (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body }));
  await page.goto('./?metric=rps');
  await expect(page.locator('[data-error="load"]')).toContainText('runs.parquet');
});

test('a site with no published data says so', async ({ page }) => {
  await engineOnly(page);
  await page.route('**/data/*.parquet', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto('./?metric=rps');
  await expect(page.locator('[data-empty="true"]')).toContainText('No data yet');
  await expect(page.locator('#coverage')).toContainText('No data collected yet');
});

test('a partly published dataset names the missing files and shows the rest', async ({ page }) => {
  await engineOnly(page);
  await page.route('**/data/results.parquet', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto('./?metric=rps');
  await expect(page.locator('[data-notice="missing-files"]')).toContainText('Not published yet: results.parquet');
  await expect(page.locator('[data-empty="true"]')).toContainText('71 of 84 cells built, but no benchmark result yet');
  await expect(page.locator('#measurement')).toContainText('Fixture CPU @ 2.00GHz');
});

test('a dataset without rebuild bands says that counted verdicts have no floor', async ({ page }) => {
  await engineOnly(page);
  await page.route('**/data/rebuild_bands.parquet', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto('./');
  await expect(page.locator('[data-notice="missing-files"]')).toContainText('Not published yet: rebuild_bands.parquet');
  await expect(page.locator('#measurement .rebuild-bands')).toContainText('The data has no rebuild bands (rebuild_bands.parquet)');
});

test('DuckDB-WASM failing to start shows a clear error', async ({ page }) => {
  await engineOnly(page);
  await page.route('**/assets/duckdb-*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('./?metric=rps');
  const error = page.locator('[data-error="load"]');
  await expect(error).toContainText('The in-browser database (DuckDB-WASM) could not start');
  await expect(error).toContainText('its wasm file is missing (HTTP 404');
});

test('DuckDB-WASM failing to start after the first view is drawn shows a clear error', async ({ page }) => {
  await page.route('**/assets/duckdb-*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('./?metric=rps');
  const error = page.locator('[data-error="load"]');
  await expect(error).toContainText('The in-browser database (DuckDB-WASM) could not start');
  await expect(error).toContainText('its wasm file is missing (HTTP 404');
});

test('strings from the data are shown as text, never parsed as HTML', async ({ page }) => {
  await engineOnly(page);
  const body = Buffer.from(await rewrittenFixture('builds', `SELECT * REPLACE (CASE WHEN status = 'failed'
    THEN '<img src=x onerror="document.body.dataset.pwned=1"><b id="injected">bold</b>' END AS error) FROM fixture`));
  await page.route('**/data/builds.parquet', (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body }));
  await page.goto('./?metric=rps');
  await waitForCharts(page);
  const set = chart(page, 'data:SET');
  await bar(set, '7.4.1').click();
  await bar(set, '7.4.1|clang|-Ofast').hover();
  await expect(page.locator('#chart-tooltip')).toContainText('<b id="injected">bold</b>');
  await expect(page.locator('#injected')).toHaveCount(0);
  expect(await page.evaluate(() => document.body.dataset.pwned)).toBeUndefined();
});
