import { expect, type Page, test } from '@playwright/test';
import { bar, bars, chart, screenshot, waitForCharts } from './helpers';

/** Whether the page shows the dark theme, and the luminance of its background (0 black .. 1 white). */
async function theme(page: Page): Promise<{ dark: boolean; background: number }> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas').getContext('2d');
    if (!canvas) throw new Error('no canvas');
    // The computed colour may be in any CSS colour space: let a canvas turn it into sRGB.
    canvas.fillStyle = getComputedStyle(document.body).backgroundColor;
    canvas.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0] = canvas.getImageData(0, 0, 1, 1).data;
    return { dark: document.documentElement.classList.contains('dark'), background: (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 };
  });
}

test.describe('dark mode', () => {
  test.use({ colorScheme: 'dark' });

  test('follows the system setting, and the reader can override it for later visits', async ({ page }, testInfo) => {
    await page.goto('./?metric=rps');
    await waitForCharts(page);
    expect(await theme(page)).toMatchObject({ dark: true });
    expect((await theme(page)).background).toBeLessThan(0.1);
    // Chart text is light on the dark card.
    const tick = await chart(page, 'data:SET').locator('.x-axis text').first().evaluate((t) => getComputedStyle(t).fill);
    expect(tick).not.toBe('rgb(0, 0, 0)');
    await screenshot(page, testInfo, 'dark');

    await page.locator('#theme-choice').selectOption('light');
    expect(await theme(page)).toMatchObject({ dark: false });
    expect((await theme(page)).background).toBeGreaterThan(0.9);
    await page.reload();
    await waitForCharts(page);
    expect((await theme(page)).dark).toBe(false);
    await expect(page.locator('#theme-choice')).toHaveValue('light');
    await expect(page).not.toHaveURL(/theme/);

    await page.locator('#theme-choice').selectOption('system');
    expect((await theme(page)).dark).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(async () => (await theme(page)).dark).toBe(false);
  });
});

test.describe('a 390-pixel-wide phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  const noSideScroll = (page: Page) =>
    expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  test('has no horizontal page scroll, readable charts, and bars that work by touch', async ({ page }, testInfo) => {
    await page.goto('./?metric=rps');
    await waitForCharts(page);
    await noSideScroll(page);
    const set = chart(page, 'data:SET');
    await set.scrollIntoViewIfNeeded();
    // The chart is drawn at the width it has (once its card is rendered, on coming into view): its 11-pixel labels are not shrunk.
    const scale = () => set.locator('svg').evaluate((svg: SVGSVGElement) => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width);
    await expect.poll(scale).toBeGreaterThan(0.95);
    const label = await set.locator('.x-axis text').first().evaluate((t) => t.getBoundingClientRect().height);
    expect(label).toBeGreaterThanOrEqual(10);
    // Each bar is a target of at least 24 x 24 pixels.
    const target = await bar(set, '7.4.1').locator('rect.hit').evaluate((r) => r.getBoundingClientRect().toJSON() as DOMRect);
    expect(Math.min(target.width, target.height)).toBeGreaterThanOrEqual(24);
    await screenshot(page, testInfo, 'phone-chart');

    await bar(set, '7.4.1').tap();
    await expect(set).toHaveAttribute('data-drill', '7.4.1');
    await expect(bars(set)).toHaveCount(12);
    await noSideScroll(page);
    // Drilldown labels stand upright rather than overlapping; each of the 12 bars is tapped over its whole slot.
    await expect(set.locator('.x-axis text').first()).toHaveAttribute('transform', 'rotate(-90)');
    const slot = await bar(set, '7.4.1|gcc|-O2').locator('rect.hit').evaluate((r) => r.getBoundingClientRect().width);
    expect(slot).toBeGreaterThanOrEqual(20);
    await set.getByRole('button', { name: 'Data table' }).tap();
    await expect(set.getByRole('table')).toBeVisible();
    await noSideScroll(page);
    await screenshot(page, testInfo, 'phone-drilldown-table');

    await page.getByRole('button', { name: 'SQL console' }).tap();
    await expect(page.locator('#sql-editor')).toBeVisible();
    await page.locator('#sql-editor').fill('SELECT * FROM builds');
    await page.getByRole('button', { name: 'Run', exact: true }).tap();
    await expect(page.locator('#sql-results tbody tr')).toHaveCount(71);
    await noSideScroll(page);
    await screenshot(page, testInfo, 'phone-console');
  });
});
