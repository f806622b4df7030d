import { expect, type Page, test } from '@playwright/test';
import { bar, chart, screenshot, waitForCharts } from './helpers';

// The fixture's two hardware classes (tests/fixtures/make-fixtures.mjs): the default, whose runs
// came first, and a second machine that measured three cells once per mode, 30% faster.
const DEFAULT_HW = 'fixture-cpu-2-00ghz-2-cores';
const OTHER_HW = 'fixture-intel-cpu-2-cores';

const valueOf = async (page: Page, key: string, version: string) =>
  Number(await bar(chart(page, key), version).getAttribute('data-value'));

test('the hardware select lists both classes, and picking one reloads the page with its figures only', async ({ page }, testInfo) => {
  await page.goto('./');
  await waitForCharts(page);
  const select = page.getByLabel('Hardware', { exact: true });
  await expect(select).toBeVisible();
  await expect(select.locator('option')).toHaveText([
    'Fixture CPU @ 2.00GHz, 2 cores — 403 runs, 68 of 84 cells measured',
    'Fixture Intel CPU, 2 cores — 6 runs, 3 of 84 cells measured',
  ]);
  await expect(select).toHaveValue(DEFAULT_HW);
  await expect(page.locator('#hardware')).toContainText('Figures from different CPUs are never combined');
  // A link names its hardware when the data has more than one class.
  await expect(page).toHaveURL(new RegExp(`\\?hw=${DEFAULT_HW}$`));
  await expect(page.locator('#measurement')).toContainText('Fixture CPU @ 2.00GHz');
  await expect(page.locator('#measurement')).not.toContainText('Fixture Intel CPU');
  await expect(page.locator('#coverage')).toContainText('71 of 84 cells collected on Fixture CPU @ 2.00GHz, 2 cores');
  const defaultValue = await valueOf(page, 'data:SET', '7.4.1');
  expect(defaultValue).toBeGreaterThan(0);
  await screenshot(page, testInfo, 'hardware-default');

  await page.getByText('Max Change View', { exact: true }).click();
  await select.selectOption(OTHER_HW);
  // The rest of the state comes along (the section scrolled to, if any, too).
  await expect(page).toHaveURL(new RegExp(`\\?hw=${OTHER_HW}&view=max(&section=\\w+)?$`));
  await waitForCharts(page);
  await expect(page.getByLabel('Hardware', { exact: true })).toHaveValue(OTHER_HW);
  await expect(page.locator('#view-max')).toBeChecked();
  const otherValue = await valueOf(page, 'data:SET', '7.4.1');
  expect(otherValue).toBeGreaterThan(defaultValue * 1.2);
  await expect(bar(chart(page, 'data:SET'), '2.6.17')).toHaveAttribute('data-status', 'not_collected');

  // Back returns to the default hardware's page and figures.
  await page.goBack();
  await waitForCharts(page);
  await expect(page.getByLabel('Hardware', { exact: true })).toHaveValue(DEFAULT_HW);
  await expect.poll(() => valueOf(page, 'data:SET', '7.4.1')).toBe(defaultValue);
});

test('a link with hw reopens that hardware: its machine, coverage, status grid and figures', async ({ page }, testInfo) => {
  await page.goto(`./?hw=${OTHER_HW}&section=status`);
  await waitForCharts(page);
  await expect(page.getByLabel('Hardware', { exact: true })).toHaveValue(OTHER_HW);
  await expect(page.locator('[data-notice="link"]')).toHaveCount(0);
  await expect(page.locator('#measurement')).toContainText('Fixture Intel CPU');
  await expect(page.locator('#measurement')).not.toContainText('Fixture CPU @ 2.00GHz');
  await expect(page.locator('#coverage')).toContainText('3 of 84 cells collected on Fixture Intel CPU, 2 cores');
  await expect(page.locator('#coverage')).toContainText('6 of 504 benchmark runs finished');
  // A cell whose build failed on the other hardware has no build here: not collected, not failed.
  const status = page.locator('#section-status');
  await expect(status.locator('button[data-cell="7.4.1|clang|-Ofast"]')).toHaveAttribute('title', /^Redis 7\.4\.1 clang -Ofast: not collected\./);
  await expect(status.locator('button[data-cell="6.2.16|gcc|-Os"]')).toHaveAttribute('title', /: repeats to come; 1 of 3 repeats measured in every mode/);
  await screenshot(page, testInfo, 'hardware-other');

  // Back/forward onto an entry of another hardware reloads with that hardware.
  await page.evaluate((hw) => history.pushState(null, '', `?hw=${hw}`), DEFAULT_HW);
  await page.goBack();
  await page.goForward();
  await expect(page.getByLabel('Hardware', { exact: true })).toHaveValue(DEFAULT_HW);
  await waitForCharts(page);
  await expect(page.locator('#coverage')).toContainText('71 of 84 cells collected on Fixture CPU @ 2.00GHz, 2 cores');
});

test('an unknown hw shows the link notice and the default hardware', async ({ page }) => {
  await page.goto('./?hw=sparc-64-cores&mode=data');
  await waitForCharts(page);
  const notice = page.locator('[data-notice="link"]');
  await expect(notice).toContainText('The hardware "sparc-64-cores" is not in the data; showing Fixture CPU @ 2.00GHz, 2 cores.');
  await expect(page.getByLabel('Hardware', { exact: true })).toHaveValue(DEFAULT_HW);
  await expect(page).toHaveURL(new RegExp(`\\?hw=${DEFAULT_HW}&mode=data$`));
  await expect(page.locator('#mode-data')).toBeChecked();
});
