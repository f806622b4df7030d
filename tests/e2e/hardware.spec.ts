import { expect, type Page, test } from '@playwright/test';
import { formatChange } from '../../src/model/changeText';
import { hardwareRatiosQuery } from '../../src/sql/acrossHardware';
import { openFixtureDb } from '../support/fixture-db';
import { bar, chart, screenshot, waitForCharts } from './helpers';

// The fixture's two hardware classes (tests/fixtures/make-fixtures.mjs): the default, which has done most
// of the plan (and came first), and a second machine that measured three cells once per mode, 30% faster.
const DEFAULT_HW = 'fixture-cpu-2-00ghz-2-cores';
const OTHER_HW = 'fixture-intel-cpu-family-6-model-85-2-cores';

const valueOf = async (page: Page, key: string, version: string) =>
  Number(await bar(chart(page, key), version).getAttribute('data-value'));

test('the hardware select lists both classes, and picking one reloads the page with its figures only', async ({ page }, testInfo) => {
  await page.goto('./?metric=rps');
  await waitForCharts(page);
  const select = page.getByLabel('Hardware', { exact: true });
  await expect(select).toBeVisible();
  await expect(select.locator('option')).toHaveText([
    'Fixture CPU @ 2.00GHz, 2 cores — 636 runs, 68 of 84 cells measured, 83% of the plan done',
    'Fixture Intel CPU (family 6 model 85), 2 cores — 6 runs, 3 of 84 cells measured, 1% of the plan done',
  ]);
  await expect(select).toHaveValue(DEFAULT_HW);
  await expect(page.locator('#hardware')).toContainText('Figures from different CPUs are never combined');
  // A link names its hardware when the data has more than one class.
  await expect(page).toHaveURL(new RegExp(`\\?hw=${DEFAULT_HW}&metric=rps$`));
  await expect(page.locator('#measurement')).toContainText('Fixture CPU @ 2.00GHz');
  await expect(page.locator('#measurement')).not.toContainText('Fixture Intel CPU');
  await expect(page.locator('#coverage')).toContainText('on Fixture CPU @ 2.00GHz, 2 cores');
  await expect(page.locator('#coverage')).toContainText('71 cells built');
  const defaultValue = await valueOf(page, 'data:SET', '7.4.1');
  expect(defaultValue).toBeGreaterThan(0);
  await screenshot(page, testInfo, 'hardware-default');

  await page.getByText('Max Change View', { exact: true }).click();
  await select.selectOption(OTHER_HW);
  // The rest of the state comes along (the section scrolled to, if any, too).
  await expect(page).toHaveURL(new RegExp(`\\?hw=${OTHER_HW}&metric=rps&view=max(&section=\\w+)?$`));
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
  await page.goto(`./?metric=rps&hw=${OTHER_HW}&section=status`);
  await waitForCharts(page);
  await expect(page.getByLabel('Hardware', { exact: true })).toHaveValue(OTHER_HW);
  await expect(page.locator('[data-notice="link"]')).toHaveCount(0);
  await expect(page.locator('#measurement')).toContainText('Fixture Intel CPU');
  await expect(page.locator('#measurement')).not.toContainText('Fixture CPU @ 2.00GHz');
  await expect(page.locator('#coverage')).toContainText('requests/second measured for 3 of them on Fixture Intel CPU (family 6 model 85), 2 cores (6 of 504 planned runs, 3 cells built)');
  await expect(page.locator('#coverage')).toContainText('of 84 planned cells (7 Redis versions × compilers × flag sets)');
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
  await expect(page.locator('#coverage')).toContainText('on Fixture CPU @ 2.00GHz, 2 cores');
  await expect(page.locator('#coverage')).toContainText('71 cells built');
});

test('an unknown hw shows the link notice and the default hardware', async ({ page }) => {
  await page.goto('./?metric=rps&hw=sparc-64-cores&mode=data');
  await waitForCharts(page);
  const notice = page.locator('[data-notice="link"]');
  await expect(notice).toContainText('The hardware "sparc-64-cores" is not in the data; showing Fixture CPU @ 2.00GHz, 2 cores.');
  await expect(page.getByLabel('Hardware', { exact: true })).toHaveValue(DEFAULT_HW);
  await expect(page).toHaveURL(new RegExp(`\\?hw=${DEFAULT_HW}&metric=rps&mode=data$`));
  await expect(page.locator('#mode-data')).toBeChecked();
});

test('across hardware: the shown class set against the other, per configuration and version, and the ranking on each', async ({ page }, testInfo) => {
  const fx = await openFixtureDb();
  const amd = 'Fixture CPU @ 2.00GHz, 2 cores';
  const intel = 'Fixture Intel CPU (family 6 model 85), 2 cores';
  const ratios = await fx.runner.run(hardwareRatiosQuery(amd, intel));
  const overall = ratios.find((r) => r.mode === 'data' && r.compiler === null && r.version === null && r.test === null);
  // 6.2.16 gcc -Os, measured on the other class only, is left out.
  expect(overall?.cells).toBe(2);

  await page.goto('./?metric=rps&section=hardware');
  await waitForCharts(page);
  const across = page.locator('#section-hardware');
  await expect(across).toBeInViewport();
  await expect(page.locator('#hardware-vs')).toHaveValue(OTHER_HW);
  await expect(across.locator('.hardware-headline li[data-mode="data"]')).toHaveText(
    `data mode: Fixture Intel CPU (family 6 model 85) ? ${formatChange(overall?.ratio ?? 1)} against Fixture CPU @ 2.00GHz (geometric mean of ${overall?.items} tests in 2 cells measured on both, best of 1 repeat on each side; `
    + `middle 80% of the per-test changes ${formatChange(overall?.p10 ?? 1)} to ${formatChange(overall?.p90 ?? 1)}; per test: 0 faster and 0 slower beyond noise, 0 within noise, ${overall?.items} without a spread)`);
  // Rows: the two configurations measured on both, then all; columns: their version, then all.
  const data = across.locator('.hardware-table[data-mode="data"]');
  await expect(data.locator('tbody tr')).toHaveCount(3);
  await expect(data.locator('thead th')).toHaveText(['', '7.4.1', 'all']);
  const cell = ratios.find((r) => r.mode === 'data' && r.compiler === 'gcc' && r.flag_set === '-O2' && r.version === '7.4.1');
  await expect(data.locator('tr[data-row="gcc|-O2"] td[data-column="7.4.1"]')).toHaveAttribute('data-ratio', String(cell?.ratio));
  // Per test, a row each, with both modes.
  const perTest = across.locator('.hardware-tests');
  await expect(perTest.locator('tbody tr')).toHaveCount(new Set(ratios.filter((r) => r.test !== null).map((r) => r.test)).size);
  await expect(perTest.locator('thead th')).toHaveText(['', 'data mode', 'pipe mode']);
  const set = ratios.find((r) => r.mode === 'pipe' && r.test === 'SET');
  await expect(perTest.locator('tr[data-row="SET"] td[data-column="pipe"]')).toHaveAttribute('data-ratio', String(set?.ratio));
  // The ranking: gcc -O2 (the baseline) and clang -O2, the only pair measured on both.
  const ranking = across.locator('table.hardware-ranking[data-mode="pipe"]');
  await expect(ranking.locator('tbody tr')).toHaveCount(2);
  await expect(ranking.locator('tr[data-config="gcc|-O2"]')).toContainText('baseline');
  await expect(across.locator('.hardware-ranking-note').first()).toContainText('too few configurations for a rank correlation');
  await expect(across.locator('.hardware-ranking-note').first()).toContainText('One repeat per cell on each side so far');
  await screenshot(page, testInfo, 'across-hardware');

  // The shared baseline: picking one here moves the summary's too, and the link keeps it.
  await page.locator('#hardware-base').selectOption('clang|-O2');
  await expect(page).toHaveURL(/base=clang%7C-O2&section=hardware/);
  await expect(ranking.locator('tr[data-config="clang|-O2"]')).toContainText('baseline');

  // From the other class, the default class is B and the figures read the other way round.
  await page.goto(`./?metric=rps&hw=${OTHER_HW}&section=hardware`);
  await waitForCharts(page);
  await expect(page.locator('#hardware-vs')).toHaveValue(DEFAULT_HW);
  const back = (await fx.runner.run(hardwareRatiosQuery(intel, amd))).find((r) => r.mode === 'data' && r.compiler === null && r.version === null && r.test === null);
  await expect(page.locator('#section-hardware .hardware-headline li[data-mode="data"]')).toContainText(`Fixture CPU @ 2.00GHz ? ${formatChange(back?.ratio ?? 1)} against Fixture Intel CPU (family 6 model 85)`);

  // A vs naming the class shown falls back with a notice.
  await page.goto(`./?metric=rps&hw=${OTHER_HW}&vs=${OTHER_HW}&section=hardware`);
  await waitForCharts(page);
  await expect(page.locator('[data-notice="link"]')).toContainText('Fixture Intel CPU (family 6 model 85), 2 cores is the hardware shown; it is compared with another class instead.');
  await expect(page).not.toHaveURL(/vs=/);

  // Its SQL runs in the console as it stands (the console has every machine's tables too).
  const reversed = page.locator('#section-hardware');
  await reversed.getByRole('button', { name: 'Open the SQL of the ratios of the comparison across hardware in the console' }).click();
  await expect(page.locator('#sql-status')).toHaveText(new RegExp(`^${ratios.length} rows in \\d+ ms`));
  await expect(page.locator('#sql-editor')).toHaveValue(/^-- Across hardware: Fixture CPU @ 2\.00GHz, 2 cores \/ Fixture Intel CPU \(family 6 model 85\), 2 cores/);
});
