/**
 * The page-wide metric (requests/second measured, instructions or estimated cycles per request
 * counted): kept in the URL, every chart, drilldown and section follows it, a cost reads lower as
 * better, and the counted metrics stay "not collected yet" without counts, never zero.
 */
import { expect, type Page, test } from '@playwright/test';
import { METRICS } from '../../src/vocabulary';
import { bestConfig } from '../../src/model/metricSummary';
import { configBarsQuery, versionBarsQuery } from '../../src/sql/charts';
import { winnerTallyQuery } from '../../src/sql/counted';
import { summaryQuery } from '../../src/sql/summary';
import { openFixtureDb } from '../support/fixture-db';
import { bar, bars, chart, screenshot, waitForCharts } from './helpers';

const metricRadio = (page: Page, id: string) => page.locator(`input[name="metric"][value="${id}"]`);
/**
 * Picks a metric by its label, clicking again until its radio is checked: on a loaded machine the
 * sections still rendering below can move the sticky control between Playwright's check and its
 * click, which then lands beside it (seen once, with counting running beside the tests).
 */
async function pickMetric(page: Page, id: string): Promise<void> {
  await expect(async () => {
    await page.locator('label', { has: metricRadio(page, id) }).click();
    await expect(metricRadio(page, id)).toBeChecked({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}
const summary = (page: Page) => page.locator('#section-summary');
const GCC_O2 = { compiler: 'gcc', flag_set: '-O2' };

test('the metric is kept in the URL, survives back and forward, and every chart draws its figures', async ({ page }, testInfo) => {
  const fx = await openFixtureDb();
  const counted = await fx.runner.run(versionBarsQuery(null, METRICS.ir));
  const set = counted.find((r) => r.mode === 'data' && r.test === 'SET' && r.version === '7.4.1');
  await page.goto('./?metric=ir');
  await waitForCharts(page);
  await expect(metricRadio(page, 'ir')).toBeChecked();
  const figure = chart(page, 'data:SET');
  await expect(figure).toHaveAttribute('data-metric', 'ir');
  await expect(figure.locator('.chart-metric')).toHaveText(/^instructions per request \(counted; lower is better\), data mode/);
  await expect(bar(figure, '7.4.1')).toHaveAttribute('data-value', String(set?.best_value));
  // Each release costs 3% more than the one before in the fixture: ▲ (the number goes up), and the words say costlier.
  await expect(bar(figure, '7.4.1')).toHaveAccessibleName(new RegExp(`^Redis 7\\.4\\.1: [\\d,.]+ instructions per request, best configuration ${set?.compiler} ${set?.flag_set}, `
    + 'a clear winner: cheaper than every other configuration beyond noise .*, ▲ \\+[\\d.]+% against 7\\.2\\.6, costlier beyond'));
  await expect(bar(figure, '7.4.1')).toHaveAttribute('data-change', 'slower');
  await expect(figure.locator('.axis-note')).toContainText('instr/req');
  await screenshot(page, testInfo, 'metric-ir');

  // Instructions per request is the default: requests/second is written to the URL; back restores
  // the count (and leaves the URL), forward the speed.
  await pickMetric(page, 'rps');
  await expect(page).toHaveURL(/metric=rps/);
  await expect(figure).toHaveAttribute('data-metric', 'rps');
  await expect(figure.locator('.chart-metric')).toHaveText(/^requests\/second, data mode/);
  await page.goBack();
  await expect(page).not.toHaveURL(/metric=/);
  await expect(metricRadio(page, 'ir')).toBeChecked();
  await expect(bar(figure, '7.4.1')).toHaveAttribute('data-value', String(set?.best_value));
  await page.goForward();
  await expect(metricRadio(page, 'rps')).toBeChecked();
  await pickMetric(page, 'cycles');
  await expect(page).toHaveURL(/metric=cycles/);
  await expect(figure.locator('.chart-metric')).toHaveText(/^estimated cycles per request \(counted; lower is better\)/);
});

test('a metric switch draws the charts on screen first; until they are drawn the others say they are being redrawn', async ({ page }) => {
  await page.goto('./?chart=pipe:INCR');
  await waitForCharts(page);
  await page.waitForFunction(() => performance.getEntriesByName('page:ready').length > 0);
  // What every card shows at the moment the charts on screen are marked drawn and painted.
  await page.evaluate(() => {
    const mark = performance.mark.bind(performance);
    performance.mark = (name: string, options?: PerformanceMarkOptions) => {
      if (name === 'charts:in-view') {
        (window as unknown as { atInView: unknown }).atInView = [...document.querySelectorAll<HTMLElement>('figure[data-chart-key]:not([hidden])')].map((f) => {
          const box = f.getBoundingClientRect();
          return {
            onScreen: box.bottom > 0 && box.top < window.innerHeight, metric: f.dataset.metric, busy: f.getAttribute('aria-busy'),
            note: getComputedStyle(f.querySelector('h3') as Element, '::after').content,
          };
        });
      }
      return mark(name, options);
    };
  });
  await pickMetric(page, 'rps');
  await expect.poll(() => page.evaluate(() => (window as unknown as { atInView?: unknown }).atInView)).toBeDefined();
  const cards = await page.evaluate(() => (window as unknown as { atInView: { onScreen: boolean; metric: string; busy: string | null; note: string }[] }).atInView);
  const onScreen = cards.filter((c) => c.onScreen);
  expect(onScreen.length).toBeGreaterThan(0);
  expect(onScreen.every((c) => c.metric === 'rps' && c.busy === null)).toBe(true);
  // A card not yet redrawn still shows instructions, faded, and says so; none shows them as requests/second.
  const waiting = cards.filter((c) => c.metric !== 'rps');
  expect(waiting.length).toBeGreaterThan(0);
  expect(waiting.every((c) => !c.onScreen && c.metric === 'ir' && c.busy === 'true' && c.note.includes('redrawing'))).toBe(true);
  // Then every card is drawn in requests/second, none waiting.
  await expect(page.locator('figure[data-chart-key][aria-busy]')).toHaveCount(0);
  await expect(page.locator('figure[data-chart-key]:not([hidden]):not([data-metric="rps"])')).toHaveCount(0);
});

test('a drilldown under a counted metric marks the cheapest configuration, beyond its own tiny noise', async ({ page }, testInfo) => {
  const fx = await openFixtureDb();
  const rows = (await fx.runner.run(configBarsQuery('data', 'INCR', METRICS.ir))).filter((r) => r.version === '6.2.16');
  const cheapest = rows.find((r) => r.winner);
  expect(cheapest?.cell_id).toBe('6.2.16|clang|-O2 -flto');
  await page.goto('./?metric=ir&open=data:INCR@6.2.16');
  await waitForCharts(page);
  const figure = chart(page, 'data:INCR');
  await expect(figure).toHaveAttribute('data-drill', '6.2.16');
  await expect(bars(figure)).toHaveCount(12);
  // Clear winner: ★, and the subtitle says cheapest, not fastest.
  await expect(figure.locator('p').first()).toContainText('★ cheapest: clang -O2 -flto');
  const winner = bar(figure, '6.2.16|clang|-O2 -flto');
  await expect(winner).toHaveAccessibleName(/instructions per request, winner\./);
  await expect(winner).toHaveAttribute('data-value', String(cheapest?.best_value));
  // A costlier configuration says by how much it costs more, beyond noise.
  await expect(bar(figure, '6.2.16|gcc|-Ofast')).toHaveAttribute('data-value', String(rows.find((r) => r.cell_id === '6.2.16|gcc|-Ofast')?.best_value));
  // The cell the counter has not reached is missing, never zero, though its throughput was measured.
  const uncounted = bar(figure, '6.2.16|clang|-O2');
  await expect(uncounted).toHaveAttribute('data-status', 'not_collected');
  await expect(uncounted).toHaveAccessibleName(/no figure, not collected yet/);
  await screenshot(page, testInfo, 'metric-ir-drilldown');

  // The same drilldown in requests/second: that cell has its figure.
  await pickMetric(page, 'rps');
  await expect(uncounted).toHaveAttribute('data-status', 'ok');
  await expect(page).toHaveURL(/open=data%3AINCR%406\.2\.16/);
});

test('the summary says which build is cheapest, with the signs and marks of a cost', async ({ page }, testInfo) => {
  const fx = await openFixtureDb();
  const scores = await fx.runner.run(summaryQuery(GCC_O2, METRICS.ir));
  const best = bestConfig(scores, 'data', METRICS.ir);
  const tally = await fx.runner.run(winnerTallyQuery());
  const irData = tally.find((r) => r.metric === 'ir' && r.mode === 'data');
  expect(best && best.ratio < 1).toBe(true);
  await page.goto('./?metric=ir&section=summary');
  await waitForCharts(page);
  await expect(summary(page).locator('h2')).toHaveText('Summary: which build is cheapest?');
  await expect(summary(page).locator('.summary-headline li[data-mode="data"]'))
    .toContainText(`the cheapest build is ${best?.compiler} ${best?.flag_set}, −`);
  // -Os costs more: a positive change, ▲, orange (slower = worse); the cheapest is ▼ and blue.
  const os = summary(page).locator('figure[data-mode="data"] g.strip-row[data-key="gcc|-Os"]');
  await expect(os).toHaveAttribute('data-verdict', 'slower');
  await expect(os).toHaveAttribute('aria-label', /geometric mean \+[\d.]+%, costlier beyond/);
  await expect(os).toContainText('▲ +');
  const cheapest = summary(page).locator(`figure[data-mode="data"] g.strip-row[data-key="${best?.compiler}|${best?.flag_set}"]`);
  await expect(cheapest).toHaveAttribute('data-verdict', 'faster');
  await expect(cheapest).toContainText('▼ −');
  await expect(summary(page).locator('.summary-table[data-mode="data"] tr[data-row="gcc|-Os"] td[data-column=""]')).toContainText('▲ +');
  // What the count is, its formula, that it is one dataset for every machine; the instruments compared.
  await expect(summary(page).locator('.count-note')).toContainText('not wall-clock speed');
  await expect(summary(page).locator('.count-note')).toContainText('L1 hits + 5 × last-level hits + 35 × RAM accesses');
  await expect(summary(page).locator('.count-note')).toContainText('Hardware selector does not filter it');
  await expect(summary(page).locator('li[data-mode="data"][data-line="winners"]'))
    .toContainText(`instructions per request ${irData?.clear} of ${irData?.contests}`);
  await expect(summary(page).locator('li[data-mode="data"][data-line="best"]'))
    .toContainText(`instructions per request ${best?.compiler} ${best?.flag_set} −`);
  await expect(summary(page).locator('li[data-mode="data"][data-line="best"]')).toContainText('(cheaper beyond noise)');
  await expect(summary(page).locator('li[data-mode="data"][data-line="correlation"]')).toContainText(/rank correlation .*: -?[01]\.\d\d over 12 configurations/);
  await screenshot(page, testInfo, 'metric-ir-summary');

  // Requests/second: the same section asks which build is fastest, with the throughput's signs.
  await pickMetric(page, 'rps');
  await expect(summary(page).locator('h2')).toHaveText('Summary: which build is fastest?');
  await expect(summary(page).locator('figure[data-mode="data"] g.strip-row[data-key="gcc|-Os"]')).toContainText('▼ −');
});

test('without published counts the counted metrics say "not collected yet" and draw no figure', async ({ page }) => {
  await page.route(/\/data\/(split\/)?count(s|_runs)(\.lazy)?\.parquet$/, (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto('./?metric=ir&section=summary');
  await waitForCharts(page);
  await expect(page.locator('label', { has: metricRadio(page, 'ir') })).toContainText('not collected yet');
  const figure = chart(page, 'data:SET');
  await expect(figure).toHaveAttribute('data-metric', 'ir');
  await expect(figure.locator('g.bar[data-status="ok"]')).toHaveCount(0);
  await expect(figure.locator('g.bar[data-status="not_collected"]')).toHaveCount(7);
  await expect(summary(page).locator('p[role="status"]')).toContainText('not collected yet');
});

test('build factors, compare, trends, a data table and a chart\'s SQL follow the counted metric', async ({ page }) => {
  await page.goto('./?metric=ir&section=factors&table=data:SET');
  await waitForCharts(page);
  const factors = page.locator('#section-factors');
  await expect(factors.locator('.factor-headline li').first()).toContainText(/^data mode, all versions, instructions per request: .*-Os vs -O2 ▲ \+9\.0% .*LTO \(-flto\) on vs off ▼ −3\.0%/);
  await expect(factors.locator('.factor-table[data-mode="data"] tr[data-row="lto:on"] td[data-column=""]')).toHaveAttribute('data-verdict', 'faster');
  // The sections are tabs: each opened with a click.
  await page.locator('[data-tab="compare"]').click();
  const compare = page.locator('#section-compare');
  await compare.scrollIntoViewIfNeeded();
  await expect(compare.locator('table.compare-table[data-mode="data"] caption')).toHaveText('data mode: B against A, instructions per request (best of repeats; lower is better)');
  await expect(compare.locator('table.compare-table[data-mode="data"] thead')).toContainText('(cheapest per test)');
  await page.locator('[data-tab="trends"]').click();
  const trends = page.locator('#section-trends');
  await trends.scrollIntoViewIfNeeded();
  await expect(trends.locator('.axis-note')).toContainText('instr/req');
  // The chart's data table names the cost and its direction; its SQL reads the counted table.
  const set = chart(page, 'data:SET');
  await expect(set.locator('table thead')).toContainText('instructions per request (best repeat, lower is better)');
  await expect(set.locator('table thead')).toContainText('Costliest repeat');
  await set.locator('button[data-action="sql"]').click();
  await expect(page.locator('#sql-editor')).toHaveValue(/^-- SET, data mode, instructions per request \(counted\): one bar per Redis version \(its cheapest configuration\)[\s\S]*FROM ir_status s/);
});

test('the status grid shows the counting runs under a counted metric, and the benchmark runs under requests/second', async ({ page }) => {
  await page.goto('./?metric=cycles&section=status');
  await waitForCharts(page);
  const status = page.locator('#section-status');
  await expect(status.locator('table.status-grid caption')).toContainText('Counting status (Valgrind, every machine)');
  await expect(status.locator('button[data-cell="7.4.1|gcc|-O2"]')).toHaveText('✓ 2/2');
  await expect(status.locator('button[data-cell="6.2.16|clang|-O2"]')).toHaveText('◐ 0/2');
  await expect(status.locator('.count-coverage')).toContainText('data mode 67 of 84 cells counted');
  await pickMetric(page, 'rps');
  await expect(status.locator('table.status-grid caption')).toContainText('Collection status');
  await expect(status.locator('button[data-cell="7.4.1|gcc|-O2"]')).toHaveText(/^✓ \d\/3$/);
});
