/**
 * The changes-between-releases section against the fixture (planted changes:
 * tests/fixtures/make-fixtures.mjs): entries beyond noise of at least 1% by default, "no change
 * within noise", missing counts as missing, likely causes from the builds, links to the chart and
 * to GitHub, the order and the size in the URL, and at most 300 entries at every release.
 */
import { expect, type Page, test } from '@playwright/test';
import { chart, screenshot, useEveryReleaseData, waitForCharts } from './helpers';

const changes = (page: Page) => page.locator('#section-changes');
const pair = (page: Page, from: string, to: string) => changes(page).locator(`.release-pair[data-pair="${from}>${to}"]`);

test('lists the changes beyond noise per release pair, with links to the chart and to GitHub', async ({ page }, testInfo) => {
  await page.goto('./?metric=ir&section=changes');
  await waitForCharts(page);
  await expect(pair(page, '2.8.24', '3.0.7')).toBeVisible();
  // SET got costlier on gcc only: the entry names the six configurations.
  const set = pair(page, '2.8.24', '3.0.7').locator('li[data-test="SET"][data-mode="data"]');
  await expect(set).toHaveAttribute('data-change', 'costlier');
  await expect(set).toContainText(/SET \(data mode\) \+2\.\d% instructions per request, costlier in 6 of 12 configurations: gcc -O2, gcc -Os, gcc -Ofast, gcc -O2 -flto, gcc -Os -flto, gcc -Ofast -flto/);
  // Every test got costlier in every configuration from 7.2.6 to 7.4.1; two builds failed on 7.4.1.
  await expect(pair(page, '7.2.6', '7.4.1').locator('li[data-test="INCR"][data-mode="pipe"]')).toContainText('costlier in all 10 configurations counted on both (2 of 12 without counts on both)');
  await expect(pair(page, '7.2.6', '7.4.1').locator('.pair-note')).toContainText('build failed');
  await expect(pair(page, '2.6.17', '2.8.24').locator('li')).toHaveCount(0);
  // Each pair's summary line counts its changes each way; with few listed every pair is open.
  await expect(pair(page, '7.2.6', '7.4.1').locator('.pair-summary')).toHaveText(/^\d+ changes: \d+ ▲ costlier; largest \S+ \((data|pipe) mode\) \+[\d.]+%/);
  await expect(pair(page, '2.6.17', '2.8.24').locator('.pair-summary')).toHaveText('no change listed');
  await expect(changes(page).locator('details.release-pair:not([open])')).toHaveCount(0);
  await expect(pair(page, '2.6.17', '2.8.24').locator('.pair-note')).toHaveText(/^No change within noise in \d+ comparisons/);
  // A pair without a change listed folds into one line; its causes stay: 2.8.24 is 2.6.17's code.
  const quiet = changes(page).locator('details.quiet-pairs');
  await expect(quiet.locator(':scope > summary')).toHaveText('1 pair without a change listed (shown: at least 1%): 2.6.17 → 2.8.24');
  await expect(quiet).not.toHaveAttribute('open', '');
  await quiet.locator(':scope > summary').click();
  await expect(pair(page, '2.6.17', '2.8.24').locator('.pair-cause')).toHaveText('Likely cause: identical code on both releases (all 11 configurations).');
  // 3.0.7 dropped 2.x's -fcommon: said of the pair and beside each of its changes.
  // (With builds.deps_jemalloc in the schema, the bundled jemalloc's 3.6.0 → 4.0.3 is said too.)
  await expect(pair(page, '2.8.24', '3.0.7').locator('.pair-cause')).toContainText('Likely cause: compatibility flags -fcommon → none (all 12 configurations)');
  await expect(set.locator('.change-cause')).toContainText(' · likely cause: compatibility flags -fcommon → none');
  await expect(pair(page, '7.2.6', '7.4.1').locator('.pair-cause')).toHaveCount(0);
  // A release without counts is skipped, never a change: the pair around it spans it and says so.
  await expect(pair(page, '3.0.7', '5.0.14')).toHaveCount(0);
  await expect(pair(page, '5.0.14', '6.2.16')).toHaveCount(0);
  await expect(pair(page, '3.0.7', '6.2.16')).toHaveAttribute('data-between', '1');
  await expect(pair(page, '3.0.7', '6.2.16').locator('.pair-span')).toHaveText('Spans 5.0.14 between them without counts.');
  await expect(pair(page, '2.8.24', '3.0.7').locator('.pair-span')).toHaveCount(0);
  await expect(changes(page).locator('[role="status"][data-status]')).toContainText('1 of the 7 releases shown without counts');
  // Within a pair, a configuration not counted is missing, never a change.
  await expect(pair(page, '6.2.16', '7.2.6').locator('.pair-note')).toContainText('not collected');
  await expect(pair(page, '7.2.6', '7.4.1').locator('a[data-link="diff"]').first()).toHaveAttribute('href', 'https://github.com/redis/redis/compare/7.2.6...7.4.1');
  await screenshot(page, testInfo, 'release-changes');

  // The chart link opens that chart with the newer release's configurations, in the counted metric
  // (instructions per request, the default, which the URL leaves out).
  const href = await set.locator('a[data-link="chart"]').getAttribute('href');
  const url = new URL(href ?? '');
  expect(url.searchParams.get('metric') ?? 'ir').toBe('ir');
  expect(url.searchParams.get('chart')).toBe('data:SET');
  expect(url.searchParams.getAll('open')).toEqual(['data:SET@3.0.7']);
  await page.goto(href ?? '');
  await waitForCharts(page);
  await expect(chart(page, 'data:SET').locator('g.bar[data-key="3.0.7|gcc|-O2"]')).toBeVisible();
});

test('the order by size is kept in the URL and survives back, forward and a reload; estimated cycles follow the metric', async ({ page }) => {
  await page.goto('./?metric=ir&section=changes');
  await waitForCharts(page);
  await expect(pair(page, '7.2.6', '7.4.1')).toBeVisible();
  await page.locator('#changes-order').selectOption('size');
  await expect(page).toHaveURL(/changes=size/);
  const list = changes(page).locator('ul[data-order="size"]');
  await expect(list).toBeVisible();
  // Largest first: the first entry's change is at least the last one's.
  const sizes = (await list.locator('li').allTextContents()).map((t) => Math.abs(Number(/([+−-][\d.]+)%/.exec(t)?.[1]?.replace('−', '-'))));
  expect(sizes[0]).toBeGreaterThanOrEqual(sizes.at(-1) ?? Infinity);
  await expect(list.locator('li').first().locator('a[data-link="diff"]')).toHaveAttribute('href', /^https:\/\/github\.com\/redis\/redis\/compare\/[\d.]+\.\.\.[\d.]+$/);
  await page.goBack();
  await expect(page).not.toHaveURL(/changes=size/);
  await expect(page.locator('#changes-order')).toHaveValue('release');
  await page.goForward();
  await expect(page.locator('#changes-order')).toHaveValue('size');
  await page.reload();
  await waitForCharts(page);
  await expect(page.locator('#changes-order')).toHaveValue('size');
  await expect(changes(page).locator('ul[data-order="size"] li').first()).toBeVisible();

  await page.goto('./?metric=cycles&section=changes&from=6.2.16');
  await waitForCharts(page);
  await expect(changes(page).locator('[role="status"][data-status]')).toContainText('estimated cycles per request');
  await expect(changes(page).locator('.release-pair')).toHaveCount(2);
});

test('Show keeps the changes in every configuration or in some only; the mode filter and test search apply; all kept in the URL', async ({ page }) => {
  await page.goto('./?metric=ir&section=changes&least=0');
  await waitForCharts(page);
  const status = changes(page).locator('[role="status"][data-status]');
  await expect(pair(page, '7.2.6', '7.4.1')).toBeVisible();
  const total = Number(/^(\d+) changes/.exec((await status.textContent()) ?? '')?.[1]);
  expect(total).toBeGreaterThan(0);

  // In every configuration: 7.2.6 to 7.4.1's changes stay, 2.8.24 to 3.0.7's SET on gcc alone goes.
  await page.locator('#changes-reach').selectOption('every');
  await expect(page).toHaveURL(/reach=every/);
  await expect(status).toContainText(/of \d+ changes .*\(shown: in every configuration compared\)/);
  await expect(pair(page, '2.8.24', '3.0.7').locator('li[data-test="SET"][data-mode="data"]')).toHaveCount(0);
  await expect(pair(page, '7.2.6', '7.4.1').locator('li[data-test="INCR"][data-mode="pipe"]')).toBeVisible();
  for (const text of await changes(page).locator('li').allTextContents()) expect(text).toMatch(/in all \d+ configurations/);

  // In some only: the other way round; every entry names its configurations.
  await page.locator('#changes-reach').selectOption('some');
  await expect(page).toHaveURL(/reach=some/);
  await expect(pair(page, '2.8.24', '3.0.7').locator('li[data-test="SET"][data-mode="data"]')).toBeVisible();
  await expect(pair(page, '7.2.6', '7.4.1').locator('li[data-test="INCR"][data-mode="pipe"]')).toHaveCount(0);
  for (const text of await changes(page).locator('li').allTextContents()) expect(text).toMatch(/in \d+ of \d+ configurations/);
  await page.reload();
  await waitForCharts(page);
  await expect(page.locator('#changes-reach')).toHaveValue('some');
  await expect(pair(page, '2.8.24', '3.0.7').locator('li[data-test="SET"][data-mode="data"]')).toBeVisible();

  // The page's test search and mode filter: pipe-mode INCR alone.
  await page.goto('./?metric=ir&section=changes&mode=pipe&q=incr&least=0');
  await waitForCharts(page);
  await expect(pair(page, '7.2.6', '7.4.1').locator('li')).toHaveCount(1);
  await expect(pair(page, '7.2.6', '7.4.1').locator('li')).toHaveAttribute('data-test', 'INCR');
  await expect(pair(page, '7.2.6', '7.4.1').locator('li')).toHaveAttribute('data-mode', 'pipe');
  const shown = changes(page).locator('li');
  expect(new Set(await shown.evaluateAll((lis) => lis.map((li) => `${li.getAttribute('data-mode')}:${li.getAttribute('data-test')}`)))).toEqual(new Set(['pipe:INCR']));
  await expect(status).toContainText(`${await shown.count()} of ${total} changes`);
  await expect(status).toContainText('(shown: tests matching "incr", pipe mode)');
});

test('At least hides the changes smaller than the size picked, 1% by default, kept in the URL', async ({ page }) => {
  await page.goto('./?metric=ir&section=changes');
  await waitForCharts(page);
  const status = changes(page).locator('[role="status"][data-status]');
  await expect(pair(page, '7.2.6', '7.4.1')).toBeVisible();
  await expect(page.locator('#changes-least')).toHaveValue('1');
  await expect(page.locator('#changes-least option')).toHaveText(['any size beyond noise', '0.1%', '0.5%', '1%', '2%', '5%']);
  await expect(status).toContainText(/^\d+ of \d+ changes .*\(shown: at least 1%\)/);
  const total = Number(/^\d+ of (\d+) changes/.exec((await status.textContent()) ?? '')?.[1]);
  // The fixture's planted changes: about +2.6% to +3.5% between most pairs, +5.7% (SET +7.2%) and INCR −2.8% from 3.0.7 to 6.2.16.
  await page.locator('#changes-least').selectOption('5');
  await expect(page).toHaveURL(/least=5/);
  await expect(status).toContainText(/^\d+ of \d+ changes .*\(shown: at least 5%\)/);
  const across = pair(page, '3.0.7', '6.2.16');
  await expect(across.locator('li[data-test="SET"][data-mode="data"]')).toContainText('+7.2%');
  await expect(across.locator('li[data-test="INCR"][data-mode="data"]')).toHaveCount(1);
  await expect(across.locator('li[data-test="INCR"][data-mode="data"]')).toHaveAttribute('data-change', 'costlier');
  await expect(pair(page, '7.2.6', '7.4.1').locator('li')).toHaveCount(0);
  const sizes = (await changes(page).locator('li').allTextContents()).map((t) => Math.abs(Number(/([+−-][\d.]+)%/.exec(t)?.[1]?.replace('−', '-'))));
  expect(sizes.length).toBeGreaterThan(0);
  expect(sizes.length).toBeLessThan(total);
  for (const size of sizes) expect(size).toBeGreaterThanOrEqual(5);
  // Each pair lists its largest change first.
  const acrossSizes = (await across.locator('li').allTextContents()).map((t) => Math.abs(Number(/([+−-][\d.]+)%/.exec(t)?.[1]?.replace('−', '-'))));
  expect(acrossSizes).toEqual([...acrossSizes].sort((a, b) => b - a));
  await page.reload();
  await waitForCharts(page);
  await expect(page.locator('#changes-least')).toHaveValue('5');
  await expect(pair(page, '7.2.6', '7.4.1').locator('li')).toHaveCount(0);
  await page.locator('#changes-least').selectOption('0');
  await expect(page).toHaveURL(/least=0/);
  await expect(status).toContainText(new RegExp(`^${total} changes`));
  // Back to the default: the URL names no size, and a link that names 1% shows the same.
  await page.locator('#changes-least').selectOption('1');
  await expect(page).not.toHaveURL(/least=/);
  await page.goto('./?metric=ir&section=changes&least=1');
  await waitForCharts(page);
  await expect(page).not.toHaveURL(/least=/);
  await expect(page.locator('#changes-least')).toHaveValue('1');
});

test.describe('at every release (158 versions, each 3% costlier than the one before)', () => {
  useEveryReleaseData();

  test('at most 300 changes of at least 1% are listed, each pair its largest first, the rest on a click; by size 300 at a time', async ({ page }) => {
    await page.goto('./?metric=ir&section=changes&releases=all');
    await waitForCharts(page);
    const status = changes(page).locator('[role="status"][data-status]');
    await expect(status).toContainText('in 157 release pairs');
    await expect(status).toContainText('(shown: at least 1%)');
    // Each pair lists as many of its largest as keep the list within 300 (the planted 3% a release
    // shrinks below 1% from about the 100th release on, so the later pairs list none).
    const capped = /the (?:(\d+) )?largest of each pair listed \((\d+)\), the others a click away/.exec((await status.textContent()) ?? '');
    expect(capped).not.toBeNull();
    const perPair = Number(capped?.[1] ?? 1);
    const listed = Number(capped?.[2]);
    expect(listed).toBeLessThanOrEqual(300);
    const entries = changes(page).locator('li');
    await expect(entries).toHaveCount(listed);
    for (const text of await entries.allTextContents()) {
      expect(Math.abs(Number(/([+−-][\d.]+)%/.exec(text)?.[1]?.replace('−', '-')))).toBeGreaterThanOrEqual(1);
    }
    await expect(changes(page).locator('details.quiet-pairs > summary')).toContainText('7.4.0 → 7.4.1');
    const first = pair(page, '2.6.1', '2.6.2');
    await expect(first.locator('.pair-summary')).toHaveText(/^\d+ changes: \d+ ▲ costlier; largest /);
    await expect(first.locator('li')).toHaveCount(perPair);
    const rest = first.locator('button[data-action="more-pair"]');
    await expect(rest).toHaveText(/^Show the other \d+ of this pair$/);
    const others = Number(/other (\d+)/.exec((await rest.textContent()) ?? '')?.[1]);
    await rest.click();
    await expect(first.locator('li')).toHaveCount(perPair + others);
    await expect(rest).toHaveCount(0);
    const sizes = (await first.locator('li').allTextContents()).map((t) => Math.abs(Number(/([+−-][\d.]+)%/.exec(t)?.[1]?.replace('−', '-'))));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));

    await page.locator('#changes-order').selectOption('size');
    const list = changes(page).locator('ul[data-order="size"]');
    await expect(list.locator('li')).toHaveCount(300);
    const more = changes(page).locator('button[data-action="more-changes"]');
    await expect(more).toHaveText(/^Show the next 300 \(300 of \d+ listed\)$/);
    await more.click();
    await expect(list.locator('li')).toHaveCount(600);
  });
});
