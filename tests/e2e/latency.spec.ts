/**
 * The latencies as page metrics: a link names one (?metric=p50), every chart draws it in ms with
 * lower as better and the note on where it restates throughput, the metric control switches to
 * another (p99's column is lazy: fetched only then), and back to requests/second; results without
 * a latency (a client that prints none) are "not measured", never zero.
 */
import { expect, type Page, test } from '@playwright/test';
import { versionBarsQuery } from '../../src/sql/charts';
import { METRICS } from '../../src/vocabulary';
import { openFixtureDb, rewrittenFixture } from '../support/fixture-db';
import { bar, chart, dataRequests, screenshot, waitForCharts } from './helpers';

const metricRadio = (page: Page, id: string) => page.locator(`input[name="metric"][value="${id}"]`);
const metricLabel = (page: Page, id: string) => page.locator('label', { has: metricRadio(page, id) });
const lazyFiles = (seen: readonly string[]) => seen.filter((p) => p.endsWith('.lazy.parquet'));

test('p50 from a link: charts in ms, lower is better, then p99 and requests/second from the metric control', async ({ page }, testInfo) => {
  const fx = await openFixtureDb();
  const bestOf = async (id: 'p50' | 'p99') => (await fx.runner.run(versionBarsQuery(null, METRICS[id])))
    .find((r) => r.mode === 'data' && r.test === 'SET' && r.version === '7.4.1');
  const p50 = await bestOf('p50');
  const p99 = await bestOf('p99');
  expect(p50?.best_value).toBeGreaterThan(0);
  expect(p99?.best_value).toBeGreaterThan(p50?.best_value ?? Infinity);

  const seen = dataRequests(page);
  await page.goto('./?metric=p50');
  await waitForCharts(page);
  await expect(metricRadio(page, 'p50')).toBeChecked();
  await expect(metricLabel(page, 'p50')).toHaveAttribute('title', 'p50 latency (measured): lower is better');
  const figure = chart(page, 'data:SET');
  await expect(figure).toHaveAttribute('data-metric', 'p50');
  await expect(figure.locator('.chart-metric')).toHaveText(/^p50 latency \(measured; lower is better\), data mode/);
  await expect(figure.locator('.axis-note')).toContainText(' ms (');
  await expect(bar(figure, '7.4.1')).toHaveAttribute('data-value', String(p50?.best_value));
  await expect(bar(figure, '7.4.1')).toHaveAccessibleName(/^Redis 7\.4\.1: [\d.]+ milliseconds p50 latency, best configuration /);
  await expect(page.locator('#legend .metric-note')).toContainText('p50 follows 50 / requests per second (Little\'s law)');
  await expect(page.locator('#legend .metric-note')).toContainText('In pipe mode (-P 1000) every request of a pipeline of 1,000 is recorded with the pipeline\'s figure');
  // A bar without a latency is "not measured" (its runs may be there), never zero.
  await expect(page.locator('#legend')).toContainText('not measured');
  await page.waitForFunction(() => performance.getEntriesByName('page:ready').length > 0);
  // p50 is in the lean file (the first screen's tooltips read it): nothing lazy is fetched for it.
  expect(lazyFiles(seen)).toEqual([]);
  await screenshot(page, testInfo, 'metric-p50');

  await metricLabel(page, 'p99').click();
  await expect(page).toHaveURL(/[?&]metric=p99(&|$)/);
  await expect(figure).toHaveAttribute('data-metric', 'p99');
  await expect(figure.locator('.chart-metric')).toHaveText(/^p99 latency \(measured; lower is better\), data mode/);
  await expect(bar(figure, '7.4.1')).toHaveAttribute('data-value', String(p99?.best_value));
  await expect(figure.locator('.axis-note')).toContainText(' ms (');
  expect(lazyFiles(seen)).toContain('split/results.lazy.parquet');

  await metricLabel(page, 'rps').click();
  await expect(page).toHaveURL(/[?&]metric=rps(&|$)/);
  await expect(figure.locator('.chart-metric')).toHaveText(/^requests\/second, data mode/);
  await expect(figure.locator('.axis-note')).toContainText('req/s');
  await page.goBack();
  await expect(metricRadio(page, 'p99')).toBeChecked();
  await expect(figure).toHaveAttribute('data-metric', 'p99');
});

test('results without a p50 draw every p50 bar as "not measured", while requests/second keeps its figures', async ({ page }) => {
  const body = Buffer.from(await rewrittenFixture('results', 'SELECT * REPLACE (NULL::DOUBLE AS p50_latency_ms) FROM fixture'));
  await page.route('**/data/results.parquet', (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body }));
  // Without the first view the page reads the published results.parquet (not the build's split files).
  await page.route('**/data/first-view.json', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto('./?metric=p50');
  await expect(page.locator('main#charts')).toHaveAttribute('aria-busy', 'false', { timeout: 45_000 });
  const figure = chart(page, 'data:SET');
  await expect(figure).toHaveAttribute('data-metric', 'p50');
  await expect(figure.locator('g.bar[data-status="not_collected"]')).toHaveCount(7);
  await expect(figure.locator('g.bar[data-status="ok"]')).toHaveCount(0);
  await expect(bar(figure, '7.4.1').locator('text.status-label')).toHaveText('not measured');
  await expect(bar(figure, '7.4.1')).toHaveAccessibleName(/no figure, not measured: this client prints no latency/);
  await metricLabel(page, 'rps').click();
  await expect(figure).toHaveAttribute('data-metric', 'rps');
  await expect(bar(figure, '7.4.1')).toHaveAttribute('data-status', 'ok');
});
