/** Shared steps of the browser tests. */
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

/** The preview server's origin (playwright.config.ts: port 4321, or E2E_PORT). */
export const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? 4321}`;

/** Waits until every visible chart has drawn its bars. */
export async function waitForCharts(page: Page): Promise<void> {
  await expect(page.locator('main#charts')).toHaveAttribute('aria-busy', 'false');
  await expect(page.locator('figure[data-chart-key] g.bar').first()).toBeVisible();
}

/** The figure of one chart, by its key ("data:SET"). */
export function chart(page: Page, key: string): Locator {
  return page.locator(`figure[data-chart-key="${key}"]`);
}

/** The bar buttons of a chart. */
export function bars(figure: Locator): Locator {
  return figure.locator('g.bar[role="button"]');
}

/** The bar with this key (a version, or a cell id in a drilldown). */
export function bar(figure: Locator, key: string): Locator {
  return figure.locator(`g.bar[data-key="${key}"]`);
}

/** The y-axis domain the chart drew, as [low, high]. */
export async function domainOf(figure: Locator): Promise<[number, number]> {
  const raw = (await figure.locator('svg').getAttribute('data-domain')) ?? '';
  const [low, high] = raw.split(',').map(Number);
  return [low ?? NaN, high ?? NaN];
}

/** Saves a screenshot as a test artifact under test-results/. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: false });
}
