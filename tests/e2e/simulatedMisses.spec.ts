/**
 * The simulated misses as page metrics: picked in the metric control, kept in the URL, drawn in
 * every chart and drilldown in their own unit with the note that callgrind simulates them, their
 * column of counts fetched only once such a metric is picked, and the sections in that metric.
 */
import { expect, type Page, test } from '@playwright/test';
import { configBarsQuery, versionBarsQuery } from '../../src/sql/charts';
import { METRICS } from '../../src/vocabulary';
import { openFixtureDb } from '../support/fixture-db';
import { bar, bars, chart, dataRequests, screenshot, waitForCharts } from './helpers';

const metricRadio = (page: Page, id: string) => page.locator(`input[name="metric"][value="${id}"]`);
const lazyFiles = (seen: readonly string[]) => seen.filter((p) => p.endsWith('.lazy.parquet'));

test('L1 misses: picked in the control, a chart and its drilldown in misses per request, the counters fetched only then', async ({ page }, testInfo) => {
  const fx = await openFixtureDb();
  const version = (await fx.runner.run(versionBarsQuery(null, METRICS.l1))).find((r) => r.mode === 'pipe' && r.test === 'SET' && r.version === '7.4.1');
  const configs = (await fx.runner.run(configBarsQuery('pipe', 'SET', METRICS.l1))).filter((r) => r.version === '7.4.1');
  const cheapest = configs.find((r) => r.winner);
  const seen = dataRequests(page);
  await page.goto('./');
  await waitForCharts(page);
  await page.waitForFunction(() => performance.getEntriesByName('page:ready').length > 0);
  expect(lazyFiles(seen)).toEqual([]);

  await page.locator('label', { has: metricRadio(page, 'l1') }).click();
  await expect(page).toHaveURL(/[?&]metric=l1(&|$)/);
  await expect(page.locator('label', { has: metricRadio(page, 'l1') })).toContainText('L1 misses/req (simulated)');
  await expect(page.locator('label', { has: metricRadio(page, 'l1') })).toHaveAttribute('title', 'L1 misses per request (counted, simulated): lower is better');
  const figure = chart(page, 'pipe:SET');
  await expect(figure).toHaveAttribute('data-metric', 'l1');
  await expect(figure.locator('.chart-metric')).toHaveText(/^simulated L1 misses per request \(counted; lower is better\), pipe mode/);
  await expect(bar(figure, '7.4.1')).toHaveAttribute('data-value', String(version?.best_value));
  await expect(bar(figure, '7.4.1')).toHaveAccessibleName(/^Redis 7\.4\.1: [\d,.]+ simulated L1 misses per request, best configuration /);
  await expect(figure.locator('.axis-note')).toContainText('L1 misses/req');
  await expect(page.locator('#legend .metric-note')).toContainText('simulated by Valgrind\'s callgrind, not read from the hardware\'s counters');
  await expect(page.locator('#legend .metric-note')).toContainText('32 KiB 8-way L1 instruction and data caches, an 8 MiB 16-way last level, 64-byte lines');
  expect(lazyFiles(seen)).toEqual(['split/counts.lazy.parquet']);

  // The drilldown: twelve configurations in the same unit, the cheapest marked.
  await bar(figure, '7.4.1').click();
  await expect(figure).toHaveAttribute('data-drill', '7.4.1');
  await expect(bars(figure)).toHaveCount(12);
  await expect(page).toHaveURL(/open=pipe%3ASET%407\.4\.1/);
  const winner = bar(figure, cheapest?.cell_id ?? '');
  await expect(winner).toHaveAttribute('data-value', String(cheapest?.best_value));
  await expect(winner).toHaveAccessibleName(/simulated L1 misses per request, (winner|tie within noise|cheapest)\./);
  await expect(figure.locator('.axis-note')).toContainText('L1 misses/req');
  await bar(figure, '7.4.1|gcc|-Os').hover();
  await expect(page.locator('#chart-tooltip')).toContainText(/gcc -Os — [\d,.]+ L1 misses\/req/);
  await expect(page.locator('#chart-tooltip')).toContainText('costlier than the cheapest');
  await screenshot(page, testInfo, 'metric-l1-drilldown');

  // The same state from its link.
  await page.reload();
  await waitForCharts(page);
  await expect(metricRadio(page, 'l1')).toBeChecked();
  await expect(chart(page, 'pipe:SET')).toHaveAttribute('data-drill', '7.4.1');
});

test('last-level misses: a count of zero is a bar of zero, and a build counting some has no ratio to it', async ({ page }) => {
  await page.goto('./?metric=ll&open=data:PING_INLINE@7.2.6');
  await waitForCharts(page);
  // PING_MBULK in data mode counts no last-level misses in any build (the fixture).
  const mbulk = chart(page, 'data:PING_MBULK');
  await expect(bar(mbulk, '7.2.6')).toHaveAttribute('data-value', '0');
  await expect(mbulk.locator('.axis-note')).toContainText('LL misses/req (starts at 0)');
  // PING_INLINE: none in the gcc builds, some in the clang builds.
  const inline = chart(page, 'data:PING_INLINE');
  await expect(inline).toHaveAttribute('data-drill', '7.2.6');
  await bar(inline, '7.2.6|clang|-O2').hover();
  await expect(page.locator('#chart-tooltip')).toContainText('costlier than the cheapest, which counts none');
});

test('the sections follow a misses metric: summary, build factors, compare and the changes between releases', async ({ page }) => {
  await page.goto('./?metric=branch&section=changes');
  await waitForCharts(page);
  const changes = page.locator('#section-changes');
  await expect(changes.locator('p[role="status"]')).toContainText(/changes beyond noise in \d+ release pairs, simulated branch mispredictions per request/);
  // Each release costs 3% more than the one before in the fixture, in every count.
  await expect(changes.locator('.release-pair[data-pair="7.2.6>7.4.1"] li[data-test="INCR"][data-mode="pipe"]'))
    .toContainText(/\+\d\.\d% simulated branch mispredictions per request, costlier in all 10 configurations/);
  const href = await changes.locator('.release-pair[data-pair="7.2.6>7.4.1"] a[data-link="chart"]').first().getAttribute('href');
  expect(new URL(href ?? '').searchParams.get('metric')).toBe('branch');
  // The sections are tabs, one open at a time: each is opened before it is read.
  const summary = page.locator('#section-summary');
  await page.locator('[data-tab="summary"]').click();
  await expect(changes).toBeHidden();
  await expect(summary.locator('.summary-headline li[data-mode="data"]')).toContainText(/the cheapest build is .*, −[\d.]+% simulated branch mispredictions per request against gcc -O2/);
  await expect(summary.locator('.count-note')).toContainText('callgrind\'s simple branch predictor');
  await expect(summary.locator('li[data-mode="pipe"][data-line="spread"]')).toContainText('simulated branch mispredictions per request median');
  const factors = page.locator('#section-factors');
  await page.locator('[data-tab="factors"]').click();
  await expect(summary).toBeHidden();
  await factors.scrollIntoViewIfNeeded();
  await expect(factors.locator('.factor-headline li').first()).toContainText(/^data mode, all versions, simulated branch mispredictions per request: .*-Os vs -O2 ▲ \+9\.0%/);
  const compare = page.locator('#section-compare');
  await page.locator('[data-tab="compare"]').click();
  await expect(factors).toBeHidden();
  await compare.scrollIntoViewIfNeeded();
  await expect(compare.locator('table.compare-table[data-mode="data"] caption')).toHaveText('data mode: B against A, simulated branch mispredictions per request (best of repeats; lower is better)');
});
