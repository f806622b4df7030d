/** Shared steps of the browser tests. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, expect, type Locator, type Page, test, type TestInfo } from '@playwright/test';
import { writeSiteData } from '../../scripts/site-data.mjs';

/** The preview server's origin (playwright.config.ts: port 4321, or E2E_PORT). */
export const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? 4321}`;

/**
 * Waits until every visible chart has drawn its bars. A page that waits for the engine (every
 * release at once, another class) may take longer than an expectation's 15 s on a loaded machine.
 */
export async function waitForCharts(page: Page): Promise<void> {
  await expect(page.locator('main#charts')).toHaveAttribute('aria-busy', 'false', { timeout: 45_000 });
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

/** The every-release data folder, made once per test worker (removed when it exits). */
let everyRelease: Promise<string> | undefined;

function everyReleaseData(): Promise<string> {
  everyRelease ??= (async () => {
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'every-release-'));
    process.on('exit', () => fs.rmSync(data, { recursive: true, force: true }));
    execFileSync('node', ['tests/fixtures/make-fixtures.mjs', '--every-release', '--out', data], { stdio: 'ignore' });
    for (const name of fs.readdirSync(data)) fs.renameSync(path.join(data, name), path.join(data, name.replace(/^fixture-every-release-/, '')));
    await writeSiteData(data);
    return data;
  })();
  return everyRelease;
}

/**
 * Serves, to every test of the calling file or describe block, the synthetic every-release
 * dataset (tests/fixtures/make-fixtures.mjs --every-release: 158 versions, with the files the
 * build derives from it) as the site's data.
 */
export function useEveryReleaseData(): void {
  let data = '';
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    data = await everyReleaseData();
  });
  test.beforeEach(async ({ page }) => {
    await page.route('**/redis-compiler-benchmarks/data/**', (route) => {
      const file = path.join(data, new URL(route.request().url()).pathname.split('/data/')[1] ?? '');
      return fs.existsSync(file) ? route.fulfill({ path: file }) : route.fulfill({ status: 404, body: 'not found' });
    });
  });
}

/** Holds back DuckDB-WASM's worker and wasm until the returned function is called. */
export async function holdEngine(context: BrowserContext): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await context.route(/duckdb-(browser-)?(eh|mvp)[^/]*\.(wasm|js)$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** The paths under data/ the page requests from now on, in order. */
export function dataRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const found = /\/data\/(.+)$/.exec(new URL(request.url()).pathname);
    if (found?.[1]) seen.push(found[1]);
  });
  return seen;
}
