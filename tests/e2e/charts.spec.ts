import { expect, test } from '@playwright/test';
import { bar, bars, chart, dataRequests, domainOf, screenshot, waitForCharts } from './helpers';

test.beforeEach(async ({ page }) => {
  await page.goto('./?metric=rps');
  await waitForCharts(page);
});

test('charts render one figure per test and mode with the header from the data', async ({ page }, testInfo) => {
  // A card per chart of every mode; by default the reference modes' are shown, the precision modes' hidden.
  await expect(page.locator('figure[data-chart-key]')).toHaveCount(40);
  await expect(page.locator('figure[data-chart-key]:visible')).toHaveCount(20);
  const set = chart(page, 'data:SET');
  await expect(set.locator('figcaption')).toContainText('SET');
  await expect(set.locator('figcaption')).toContainText('data mode');
  await expect(bars(set)).toHaveCount(7);
  // Words inside a bar only where it has something to say: 5.0.14 not collected, 6.2.16 busy.
  expect(await bars(set).locator('text.status-label').allTextContents()).toEqual(['not collected', '⚠ busy']);
  expect(await bars(set).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-key')))).toEqual([
    '2.6.17', '2.8.24', '3.0.7', '5.0.14', '6.2.16', '7.2.6', '7.4.1',
  ]);
  await expect(page.locator('#coverage')).toContainText('Instructions per request counted for 67 of 84 planned cells (7 Redis versions × compilers × flag sets)');
  await expect(page.locator('#coverage')).toContainText('requests/second measured for 68 of them on Fixture CPU @ 2.00GHz, 2 cores (403 of 504 planned runs, 71 cells built)');
  await expect(page.locator('#coverage')).toContainText('3 failed to build');
  await expect(page.locator('#coverage')).toContainText('1 run where the server failed');
  await expect(page.locator('#measurement')).toContainText('Fixture CPU @ 2.00GHz');
  await expect(page.locator('#measurement')).toContainText('gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0');
  await expect(page.locator('#measurement')).toContainText('-n 120000 --csv -d 64 -r 9999999999 -P 1000');
  // The counted instrument's workload, one line until opened: the counting runs' own arguments, and why it differs.
  await expect(page.locator('#measurement details.count-protocol summary')).toContainText('counting protocol 2');
  await expect(page.locator('#measurement .count-workload')).toBeHidden();
  // "How this was measured" is closed at first: open it, then the counting protocol within it.
  const measured = page.locator('details:has(> #measurement)');
  await expect(measured).not.toHaveAttribute('open', '');
  await measured.locator(':scope > summary').click();
  await expect(page.locator('#measurement details.count-protocol summary')).toBeVisible();
  await expect(page.locator('#measurement .count-workload')).toBeHidden();
  await page.locator('#measurement details.count-protocol summary').click();
  await expect(page.locator('#measurement')).toContainText('data: redis-benchmark -c 1 -n 20000 -d 64 -r 9999999999 --seed 42; server env FREEZECLOCK_SETTLE_READS=no');
  await expect(page.locator('#measurement .count-workload')).toContainText('changed only where a count would otherwise not repeat');
  // The floor of the counted metrics' noise bands, from the data's rebuild_bands.
  await expect(page.locator('#measurement .rebuild-bands')).toContainText('instructions per request: 0.25% (95% of differences within 0.02%), over 3 rebuild pairs of 3 cells');
  await expect(page.locator('#axis-warning')).toContainText('do not start at zero');
  await expect(set.locator('.axis-note')).toContainText(/axis [\d,]+ – [\d,]+ req\/s/);
  await screenshot(page, testInfo, 'overview');
});

test('missing data is drawn as such, never as a bar with a value', async ({ page }) => {
  const xadd = chart(page, 'pipe:XADD');
  await expect(bar(xadd, '2.6.17')).toHaveAttribute('data-status', 'unsupported');
  await expect(bar(xadd, '2.6.17')).toHaveAttribute('data-value', '');
  await expect(bar(xadd, '2.6.17').locator('text.status-label')).toHaveText('unsupported');
  await expect(bar(xadd, '5.0.14')).toHaveAttribute('data-status', 'not_collected');
  await expect(bar(xadd, '6.2.16')).toHaveAttribute('data-status', 'ok');
  await bar(xadd, '2.6.17').hover();
  await expect(page.locator('#chart-tooltip')).toContainText("ERR unknown command 'XADD'");
});

test('switching views changes the axes of every chart', async ({ page }, testInfo) => {
  const set = chart(page, 'data:SET');
  const [realLow, realHigh] = await domainOf(set);
  const values = (await bars(set).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-value'))))
    .filter((v): v is string => !!v).map(Number);
  await page.getByText('Max Change View', { exact: true }).click();
  await expect(page).toHaveURL(/view=max/);
  await expect.poll(() => domainOf(set)).toEqual([Math.min(...values), Math.max(...values)]);
  const [maxLow, maxHigh] = await domainOf(set);
  expect(realLow).toBeLessThan(maxLow);
  expect(realHigh).toBeGreaterThan(maxHigh);
  await expect(set.locator('.axis-note')).toContainText(`${Math.round(maxLow).toLocaleString('en-US')}`);
  await screenshot(page, testInfo, 'max-change-view');
  await page.getByText('Real View', { exact: true }).click();
  await expect.poll(() => domainOf(set)).toEqual([realLow, realHigh]);
});

test('clicking a bar opens its 12 configurations and a second click closes them', async ({ page }, testInfo) => {
  const set = chart(page, 'data:SET');
  await bar(set, '7.4.1').click();
  await expect(set).toHaveAttribute('data-drill', '7.4.1');
  await expect(bars(set)).toHaveCount(12);
  expect(await bars(set).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-key')?.split('|').slice(1).join(' ')))).toEqual([
    'gcc -O2', 'gcc -Os', 'gcc -Ofast', 'gcc -O2 -flto', 'gcc -Os -flto', 'gcc -Ofast -flto',
    'clang -O2', 'clang -Os', 'clang -Ofast', 'clang -O2 -flto', 'clang -Os -flto', 'clang -Ofast -flto',
  ]);
  await expect(set.locator('g.bar[data-winner="true"]')).toHaveCount(1);
  await expect(set.locator('g.bar[data-status="build_failed"]')).toHaveCount(2);
  await expect(set.locator('.group-labels text')).toHaveText(['gcc', 'clang']);
  await bar(set, '7.4.1|clang|-Ofast').hover();
  await expect(page.locator('#chart-tooltip')).toContainText('-Wdeprecated-ofast');
  await screenshot(page, testInfo, 'drilldown');
  // Other charts stay as they were.
  await expect(chart(page, 'pipe:SET')).toHaveAttribute('data-drill', '');

  await bar(set, '7.4.1|gcc|-O2').click();
  await expect(set).toHaveAttribute('data-drill', '');
  await expect(bars(set)).toHaveCount(7);
});

test('once the page is idle every drilldown is at hand: opening one runs no query and fetches no file', async ({ page }) => {
  // The engine done with its own statements, so that any counted below would be the clicks'.
  await page.waitForFunction(() => performance.getEntriesByName('page:ready').length > 0 && performance.getEntriesByName('tables:ready').length > 0);
  // The answer panel's interleaved rounds are the page's own one-off statement, sent once the header is shown.
  await expect(page.locator('#answer .answer-rounds')).not.toContainText('Computing the interleaved rounds');
  await expect(page.locator('#answer .answer-rounds')).toContainText('Every build and release');
  const seen = dataRequests(page);
  const statements = () => page.evaluate(() => performance.getEntriesByType('measure').filter((m) => m.name.startsWith('sql:')).length);
  const before = await statements();
  // Synthetic clicks (no pointer entering the chart first) on charts far apart.
  for (const [key, version] of [['pipe:INCR', '6.2.16'], ['data:GET', '2.6.17'], ['pipe:SET', '7.4.1']] as const) {
    const figure = chart(page, key);
    await bar(figure, version).dispatchEvent('click');
    await expect(figure).toHaveAttribute('data-drill', version);
    await expect(bars(figure)).toHaveCount(12);
  }
  expect(await statements()).toBe(before);
  expect(seen).toEqual([]);
});

test('the back button of a drilldown returns to all versions', async ({ page }) => {
  const get = chart(page, 'pipe:GET');
  await bar(get, '2.6.17').click();
  await expect(get).toHaveAttribute('data-drill', '2.6.17');
  await expect(get.locator('g.bar[data-status="build_failed"]')).toHaveCount(1);
  await get.getByRole('button', { name: '← All versions' }).click();
  await expect(get).toHaveAttribute('data-drill', '');
});

test('every bar is a keyboard button: arrows move, Enter opens, Escape closes', async ({ page }) => {
  const set = chart(page, 'data:SET');
  await expect(set.locator('g.bar[tabindex="0"]')).toHaveCount(1);
  await bar(set, '2.6.17').focus();
  await page.keyboard.press('End');
  await expect(bar(set, '7.4.1')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(bar(set, '7.2.6')).toBeFocused();
  await expect(page.locator('#chart-tooltip')).toContainText('Redis 7.2.6');
  await page.keyboard.press('Enter');
  await expect(set).toHaveAttribute('data-drill', '7.2.6');
  await expect(set.locator('g.bar[data-winner="true"]')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Escape');
  await expect(set).toHaveAttribute('data-drill', '');
  await expect(bar(set, '7.2.6')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(set).toHaveAttribute('data-drill', '7.2.6');
});

test('a figure measured on a busy machine is marked as such, with how busy it was', async ({ page }) => {
  // The fixture's 6.2.16 data runs shared the machine with a process using 85% of a CPU.
  const set = chart(page, 'data:SET');
  await expect(bar(set, '6.2.16')).toHaveAttribute('data-busy', 'true');
  await expect(bar(set, '6.2.16').locator('text.status-label')).toHaveText('⚠ busy');
  await expect(bar(set, '7.4.1')).not.toHaveAttribute('data-busy', /.*/);
  await expect(bar(set, '7.4.1').locator('text.status-label')).toHaveCount(0);
  await expect(set.locator('p').filter({ hasText: 'Best configuration per version' })).toContainText('⚠ measured on a busy machine (may be low): 6.2.16');
  await bar(set, '6.2.16').hover();
  await expect(page.locator('#chart-tooltip')).toContainText('⚠ Busy machine: other processes used up to 85% of a CPU during the runs; the figure may be low');
  await bar(set, '7.4.1').hover();
  await expect(page.locator('#chart-tooltip')).toContainText("Quiet machine: other processes used up to 3% of a CPU and the VM's host took up to 1.5% (steal) during the runs");
  // In pipe mode the same builds ran on a quiet machine.
  await expect(bar(chart(page, 'pipe:SET'), '6.2.16')).not.toHaveAttribute('data-busy', /.*/);
  // A bar too short to hold the words carries ⚠ in its mark above instead; every bar says it one way.
  await page.getByText('Max Change View', { exact: true }).click();
  await expect(page).toHaveURL(/view=max/);
  for (const test of ['SET', 'GET', 'INCR', 'LPUSH']) {
    const busy = bar(chart(page, `data:${test}`), '6.2.16');
    await expect(busy).toHaveAttribute('data-busy', 'true');
    const height = Number(await busy.locator('rect.shape').getAttribute('height'));
    // A bar holds the marks it shows only: absent, they say nothing.
    const [inside, mark] = await busy.evaluate((n) => ['text.status-label', 'text.winner-mark'].map((s) => n.querySelector(s)?.textContent ?? ''));
    if (height >= 50) expect([inside, mark?.includes('⚠')]).toEqual(['⚠ busy', false]);
    else expect([inside, mark?.endsWith('⚠')]).toEqual(['', true]);
  }
  await bar(set, '6.2.16').click();
  await expect(set.getByRole('button', { name: /^Redis 6\.2\.16 clang -O2 -flto: [\d,]+ requests per second.*, measured on a busy machine\./ })).toHaveCount(1);
});

test("a figure measured while the VM's host took CPU (steal) is marked busy, in the bar, its tooltip and the table", async ({ page }) => {
  // The fixture's 7.2.6 gcc -O2 pipe run 2 lost 24.5% of a CPU to the host while other processes used 3%.
  const set = chart(page, 'pipe:SET');
  await bar(set, '7.2.6').click();
  await expect(set).toHaveAttribute('data-drill', '7.2.6');
  const marked = set.getByRole('button', { name: /measured on a busy machine/ });
  await expect(marked).toHaveCount(1);
  await expect(marked).toHaveAccessibleName(/^Redis 7\.2\.6 gcc -O2: [\d,]+ requests per second.*, measured on a busy machine\./);
  await marked.hover();
  await expect(page.locator('#chart-tooltip')).toContainText(
    "⚠ Busy machine: other processes used up to 3% of a CPU and the VM's host took up to 24.5% (steal) during the runs; the figure may be low",
  );
  await set.getByRole('button', { name: 'Data table' }).click();
  const table = set.getByRole('table', { name: /the configurations of Redis 7\.2\.6/ });
  await expect(table.locator('thead')).toContainText('Host steal, max % of a CPU');
  await expect(table.locator('tbody tr', { hasText: '24.5% ⚠ busy' })).toHaveCount(1);
  await expect(table.locator('tbody tr', { hasText: '24.5% ⚠ busy' })).toContainText('-O2');
  // Pipe mode of the same version by another configuration: a quiet host.
  await expect(table.locator('tbody tr', { hasText: '1.5%' }).first()).not.toContainText('⚠');
});

test('bars have accessible names with version, configuration and requests per second', async ({ page }) => {
  const set = chart(page, 'data:SET');
  await expect(set.getByRole('button', { name: /^Redis 7\.4\.1: [\d,]+ requests per second, best configuration (gcc|clang) -O/ })).toHaveCount(1);
  await expect(set.getByRole('button', { name: /^Redis 5\.0\.14: no figure, not collected yet/ })).toHaveCount(1);
  await bar(set, '6.2.16').click();
  await expect(set.getByRole('button', { name: /^Redis 6\.2\.16 gcc -Os: no figure, not collected yet/ })).toHaveCount(1);
  await expect(set.getByRole('button', { name: /^Redis 6\.2\.16 clang -O2 -flto: [\d,]+ requests per second/ })).toHaveCount(1);
  await expect(set.getByRole('group', { name: /SET, data mode: configurations of Redis 6\.2\.16/ })).toBeVisible();
});

test('filters: mode, test search and version range', async ({ page }) => {
  await page.getByText('pipe (-P 1000)', { exact: true }).click();
  await expect(page.locator('figure[data-chart-key]:visible')).toHaveCount(10);
  await page.locator('#test-search').fill('lrange 100');
  await expect(page.locator('figure[data-chart-key]:visible')).toHaveCount(1);
  await expect(page).toHaveURL(/q=lrange\+100/);
  await expect(page.locator('#chart-count')).toHaveText('1 of 20 charts');
  await page.locator('#version-from').selectOption('2.8.24');
  await page.locator('#version-to').selectOption('6.2.16');
  const lrange = chart(page, 'pipe:LRANGE_100 (first 100 elements)');
  await expect(bars(lrange)).toHaveCount(4);
  await expect(page).toHaveURL(/from=2\.8\.24&to=6\.2\.16/);
  // A start after the end is taken as the reversed range.
  await page.locator('#version-from').selectOption('7.2.6');
  await expect(page).toHaveURL(/from=6\.2\.16&to=7\.2\.6/);
  await expect(page.locator('#version-from')).toHaveValue('6.2.16');
  await expect(bars(lrange)).toHaveCount(2);
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.locator('figure[data-chart-key]:visible')).toHaveCount(20);
  await expect(bars(lrange)).toHaveCount(7);
});
