/**
 * A phone (390 px wide, touch) showing the published data (public/data, with the files the build
 * derives from it): nothing scrolls the page sideways, a tapped bar's tooltip stays on screen, and
 * the hardware select shows the class the page shows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { writeSiteData } from '../../scripts/site-data.mjs';
import { waitForCharts } from './helpers';

/** The published data with the files the build derives from it (made before the first test). */
let published = '';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test.beforeAll(async () => {
  published = fs.mkdtempSync(path.join(os.tmpdir(), 'narrow-data-'));
  for (const name of fs.readdirSync('public/data').filter((n) => n.endsWith('.parquet'))) fs.copyFileSync(path.join('public/data', name), path.join(published, name));
  await writeSiteData(published);
});
test.afterAll(() => fs.rmSync(published, { recursive: true, force: true }));

test.beforeEach(async ({ page }) => {
  await page.route('**/redis-compiler-benchmarks/data/**', (route) => {
    const file = path.join(published, new URL(route.request().url()).pathname.split('/data/')[1] ?? '');
    return fs.existsSync(file) ? route.fulfill({ path: file }) : route.fulfill({ status: 404, body: 'not found' });
  });
});

/** How far the page scrolls sideways, in CSS pixels (0: not at all). */
const sideways = (page: import('@playwright/test').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('at 390 px nothing scrolls the page sideways, with every section drawn', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('./');
  await waitForCharts(page);
  await page.waitForFunction(() => performance.getEntriesByName('page:ready').length > 0);
  expect(await sideways(page)).toBe(0);
  // The sections are tabs: open each, let it draw, and measure.
  for (const id of ['summary', 'factors', 'trends', 'compare', 'changes', 'hardware', 'status']) {
    await page.locator(`[data-tab="${id}"]`).click();
    await expect(page.locator(`#section-${id} .section-tools, #section-${id} p[data-status]`).first()).toBeAttached();
    await page.waitForTimeout(500);
    expect(await sideways(page), id).toBe(0);
  }
  await page.locator('[data-tab="trends"]').click();
  await expect(page.locator('#section-trends select').first()).toBeVisible();
});

test("a tapped bar's tooltip stays inside the screen", async ({ page }) => {
  await page.goto('./');
  await waitForCharts(page);
  const figure = page.locator('figure[data-chart-key]').first();
  const lastVisible = async () => {
    const boxes = await figure.locator('g.bar').evaluateAll((nodes) => nodes.map((n) => n.getBoundingClientRect().right));
    return boxes.filter((right) => right <= 390).length - 1;
  };
  for (const index of [0, await lastVisible()]) {
    await figure.locator('g.bar').nth(index).locator('rect.hit').dispatchEvent('pointerover');
    const tip = page.locator('#chart-tooltip');
    await expect(tip).toBeVisible();
    const box = await tip.boundingBox();
    expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(390);
  }
});

test('the hardware select names the class the page shows, also when it is not the first', async ({ page }) => {
  await page.goto('./');
  await waitForCharts(page);
  // The published data's default class (most of the plan done) is not its first class.
  const hw = new URL(page.url()).searchParams.get('hw');
  expect(hw).toBeTruthy();
  await expect(page.locator('#hardware-select')).toHaveValue(hw ?? '');
});
