/**
 * Four charts on the fixture data compared with reference images (as Observable Plot's
 * test/output does), so a chart that changes shape fails here: a version bar chart, a drilldown,
 * the summary's strip chart and a trends panel. Fixed viewport and light theme; a small
 * tolerance absorbs anti-aliasing. After a deliberate change of a chart, rewrite the images with
 * `npx playwright test tests/e2e/chartSnapshots.spec.ts --update-snapshots` and look at them.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { bar, chart, waitForCharts } from './helpers';

test.use({ viewport: { width: 1280, height: 900 }, colorScheme: 'light', deviceScaleFactor: 1 });

/** The comparison's tolerance: at most 1% of the pixels may differ, each by a small amount. */
const TOLERANCE = { maxDiffPixelRatio: 0.01, threshold: 0.2, animations: 'disabled' } as const;

/** Each chart: the page that shows it, the figure, what shows it is drawn, and its image. */
const CHARTS: { what: string; url: string; figure: (page: Page) => Locator; drawn: (page: Page) => Promise<void>; image: string }[] = [
  {
    what: 'a version bar chart', url: './', image: 'fixture-chart-version-bars.png',
    figure: (page) => chart(page, 'data:SET'),
    drawn: async () => {},
  },
  {
    what: 'a drilldown', url: './?open=data:SET@7.4.1', image: 'fixture-chart-drilldown.png',
    figure: (page) => chart(page, 'data:SET'),
    drawn: (page) => expect(bar(chart(page, 'data:SET'), '7.4.1|gcc|-O2')).toBeVisible(),
  },
  {
    what: "the summary's strip chart", url: './?section=summary', image: 'fixture-chart-summary-strip.png',
    figure: (page) => page.locator('#section-summary figure[data-mode="data"]').first(),
    drawn: (page) => expect(page.locator('#section-summary figure[data-mode="data"]').first().locator('g.strip-row')).toHaveCount(12),
  },
  {
    what: 'a trends panel', url: './?section=trends', image: 'fixture-chart-trends-panel.png',
    figure: (page) => page.locator('#section-trends figure.trend-panel').first(),
    drawn: (page) => expect(page.locator('#section-trends g.trend-series')).toHaveCount(12),
  },
];

for (const c of CHARTS) {
  test(`${c.what} keeps its shape`, async ({ page }) => {
    await page.goto(c.url);
    await waitForCharts(page);
    await c.drawn(page);
    const figure = c.figure(page);
    await figure.scrollIntoViewIfNeeded();
    await expect(figure).toHaveScreenshot(c.image, TOLERANCE);
  });
}
