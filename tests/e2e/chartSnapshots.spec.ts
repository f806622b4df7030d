/**
 * Four charts on the fixture data compared with reference images (as Observable Plot's
 * test/output does), so a chart that changes shape fails here: a version bar chart, a drilldown,
 * the summary's strip chart and a trends panel. Fixed viewport and light theme; a small
 * tolerance absorbs anti-aliasing. After a deliberate change of a chart, rewrite the images with
 * `npx playwright test tests/e2e/chartSnapshots.spec.ts --update-snapshots` and look at them.
 */
import { expect, type Locator, test } from '@playwright/test';
import { bar, chart, waitForCharts } from './helpers';

test.use({ viewport: { width: 1280, height: 900 }, colorScheme: 'light', deviceScaleFactor: 1 });

/** The comparison's tolerance: at most 1% of the pixels may differ, each by a small amount. */
const TOLERANCE = { maxDiffPixelRatio: 0.01, threshold: 0.2, animations: 'disabled' } as const;

async function matches(figure: Locator, name: string) {
  await figure.scrollIntoViewIfNeeded();
  await expect(figure).toHaveScreenshot(name, TOLERANCE);
}

test('a version bar chart keeps its shape', async ({ page }) => {
  await page.goto('./');
  await waitForCharts(page);
  await matches(chart(page, 'data:SET'), 'fixture-chart-version-bars.png');
});

test('a drilldown keeps its shape', async ({ page }) => {
  await page.goto('./?open=data:SET@7.4.1');
  await waitForCharts(page);
  const set = chart(page, 'data:SET');
  await expect(bar(set, '7.4.1|gcc|-O2')).toBeVisible();
  await matches(set, 'fixture-chart-drilldown.png');
});

test("the summary's strip chart keeps its shape", async ({ page }) => {
  await page.goto('./?section=summary');
  await waitForCharts(page);
  const strip = page.locator('#section-summary figure[data-mode="data"]').first();
  await expect(strip.locator('g.strip-row')).toHaveCount(12);
  await matches(strip, 'fixture-chart-summary-strip.png');
});

test('a trends panel keeps its shape', async ({ page }) => {
  await page.goto('./?section=trends');
  await waitForCharts(page);
  const panel = page.locator('#section-trends figure.trend-panel').first();
  await expect(page.locator('#section-trends g.trend-series')).toHaveCount(12);
  await matches(panel, 'fixture-chart-trends-panel.png');
});
