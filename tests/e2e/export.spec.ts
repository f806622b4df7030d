import fs from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { bar, bars, chart, ORIGIN, screenshot, waitForCharts } from './helpers';

/** The file the page downloads when `button` is pressed. */
async function download(page: Page, button: Locator): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { name: file.suggestedFilename(), bytes: fs.readFileSync(await file.path()) };
}

test.beforeEach(async ({ page }) => {
  await page.goto('./?metric=rps');
  await waitForCharts(page);
});

test("a chart's SVG export holds the drawing, its title, axis range, legend and data source", async ({ page }) => {
  const set = chart(page, 'data:SET');
  const axis = (await set.locator('.axis-note').textContent()) ?? '';
  const svg = await download(page, set.getByRole('button', { name: 'Download this chart as SVG' }));
  expect(svg.name).toBe('redis-benchmarks-data-set.svg');
  const text = svg.bytes.toString('utf8');
  expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  expect(text).toContain('>SET — data mode</text>');
  expect(text).toContain(`>${axis} · Real View</text>`);
  expect(axis).toMatch(/^axis [\d,]+ – [\d,]+ req\/s/);
  // The link (it names the hardware: the fixture has two classes) wraps after its '?'.
  expect(text).toContain(`>Redis Compiler Benchmarks: ${ORIGIN}/redis-compiler-benchmarks/?</text>`);
  expect(text).toContain('>hw=fixture-cpu-2-00ghz-2-cores&amp;metric=rps&amp;chart=data%3ASET</text>');
  expect(text).toMatch(/>Data: plan\.parquet, builds\.parquet, runs\.parquet, results\.parquet, machines\.parquet in <\/text>|>Data: plan\.parquet/);
  expect(text).toContain(`${ORIGIN}/redis-compiler-benchmarks/data/`);
  for (const label of ['>gcc</text>', '>clang</text>', '>not collected</text>']) expect(text).toContain(label);

  // Opened on its own, the file is well-formed SVG with every bar, styled without the page's CSS.
  const parsed = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
    const used = [...source.matchAll(/url\(#([\w-]+)\)/g)].map((m) => m[1]);
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      bars: [...doc.querySelectorAll('g.bar, g[data-key]')].map((g) => g.getAttribute('data-key')),
      classes: doc.querySelectorAll('svg svg [class]').length,
      styled: doc.querySelectorAll('svg svg text[style*="fill"]').length,
      missingPatterns: used.filter((id) => !doc.getElementById(id ?? '')),
    };
  }, text);
  expect(parsed.error).toBeNull();
  expect(parsed.bars).toEqual(['2.6.17', '2.8.24', '3.0.7', '5.0.14', '6.2.16', '7.2.6', '7.4.1']);
  expect(parsed.classes).toBe(0);
  expect(parsed.styled).toBeGreaterThan(7);
  expect(parsed.missingPatterns).toEqual([]);
});

test("a chart's PNG export is an image twice the size of its SVG", async ({ page }) => {
  const get = chart(page, 'pipe:GET');
  await bar(get, '7.4.1').click();
  await expect(get).toHaveAttribute('data-drill', '7.4.1');
  const png = await download(page, get.getByRole('button', { name: 'Download this chart as PNG' }));
  expect(png.name).toBe('redis-benchmarks-pipe-get-7.4.1.png');
  expect(png.bytes.subarray(1, 4).toString()).toBe('PNG');
  const svg = (await download(page, get.getByRole('button', { name: 'Download this chart as SVG' }))).bytes.toString('utf8');
  expect(svg).toContain('<title>GET — pipe mode: Requests/second of each configuration of Redis 7.4.1 (★ the fastest), best of its repeats</title>');
  const [, width, height] = /<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg) ?? [];
  // The IHDR chunk holds width and height as big-endian integers at bytes 16 and 20.
  expect([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)]).toEqual([2 * Number(width), 2 * Number(height)]);
});

test("a chart's CSV holds the rows behind its bars", async ({ page }) => {
  const set = chart(page, 'data:SET');
  const values = await bars(set).evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-key'), n.getAttribute('data-value')]));
  const csv = await download(page, set.getByRole('button', { name: "Download this chart's rows as CSV" }));
  expect(csv.name).toBe('redis-benchmarks-data-set.csv');
  const [header, ...lines] = csv.bytes.toString('utf8').split('\r\n');
  expect(lines.pop()).toBe('');
  const columns = header?.split(',') ?? [];
  expect(columns.slice(0, 7)).toEqual(['mode', 'test', 'test_index', 'version', 'ord', 'status', 'best_value']);
  expect(lines.map((line) => line.split(',')).map((cells) => [cells[3], cells[6] || ''])).toEqual(values.map(([k, v]) => [k, v ?? '']));
  expect(lines.every((line) => line.startsWith('data,SET,'))).toBe(true);
});

test('the data table lists every bar, sorts, follows the drilldown and is kept in the link', async ({ page }, testInfo) => {
  const set = chart(page, 'data:SET');
  const toggle = set.getByRole('button', { name: 'Data table' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/table=data%3ASET/);
  const table = set.getByRole('table', { name: /SET, data mode: each Redis version's fastest configuration/ });
  await expect(table.locator('tbody tr')).toHaveCount(7);
  await expect(table.locator('tbody tr').nth(3)).toContainText('5.0.14');
  await expect(table.locator('tbody tr').nth(3)).toContainText('not collected yet');
  const rps = await bar(set, '7.4.1').getAttribute('data-value');
  await expect(table.locator('tbody tr').last()).toContainText(Math.round(Number(rps)).toLocaleString('en-US'));
  await table.getByRole('button', { name: 'Requests/s (best repeat)' }).click();
  await expect(table.locator('thead th').nth(1)).toHaveAttribute('aria-sort', 'ascending');
  // The version without a figure sorts last.
  await expect(table.locator('tbody tr').last()).toContainText('5.0.14');
  await screenshot(page, testInfo, 'data-table');

  await bar(set, '7.4.1').click();
  const configs = set.getByRole('table', { name: /the configurations of Redis 7\.4\.1/ });
  await expect(configs.locator('tbody tr')).toHaveCount(12);
  await expect(configs.locator('tbody tr', { hasText: '★' })).toHaveCount(1);

  await page.reload();
  await waitForCharts(page);
  await expect(set.getByRole('table')).toBeVisible();
  await set.getByRole('button', { name: 'Data table' }).click();
  await expect(set.getByRole('table')).toBeHidden();
  await expect(page).not.toHaveURL(/table=/);
});
