/**
 * The sections above the charts (summary, build factors, compare, status grid) and the noise
 * marks on the charts, against the fixture, checked against the same queries run in Node.
 */
import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { formatChange } from '../../src/model/changeText';
import { configBarsQuery } from '../../src/sql/charts';
import { compareQuery } from '../../src/sql/compare';
import { effectsQuery } from '../../src/sql/effects';
import { summaryItemsQuery, summaryQuery } from '../../src/sql/summary';
import { statusGridQuery } from '../../src/sql/status';
import { versionVerdictsQuery } from '../../src/sql/verdicts';
import { openFixtureDb, rewrittenFixture } from '../support/fixture-db';
import { bar, bars, chart, screenshot, waitForCharts } from './helpers';

const section = (page: Page, id: string) => page.locator(`#section-${id}`);
const stripRow = (page: Page, mode: string, key: string) => section(page, 'summary').locator(`figure[data-mode="${mode}"] g.strip-row[data-key="${key}"]`);

test('the summary follows its baseline switch, with deep links', async ({ page, browser }, testInfo) => {
  const fx = await openFixtureDb();
  await page.goto('./?metric=rps&section=summary');
  await waitForCharts(page);
  const summary = section(page, 'summary');
  await expect(summary).toBeInViewport();
  await expect(summary.locator('figure[data-mode] g.strip-row')).toHaveCount(24);
  // The default baseline is the plan's first configuration, gcc -O2: its own row is exactly 0.
  await expect(stripRow(page, 'data', 'gcc|-O2')).toHaveAttribute('data-mean', '1');
  const expected = await fx.runner.run(summaryQuery({ compiler: 'gcc', flag_set: '-O2' }));
  const lto = expected.find((r) => r.mode === 'pipe' && r.version === null && r.compiler === 'clang' && r.flag_set === '-Ofast -flto');
  await expect(stripRow(page, 'pipe', 'clang|-Ofast -flto')).toHaveAttribute('data-mean', String(lto?.ratio));
  await expect(stripRow(page, 'pipe', 'clang|-Ofast -flto')).toHaveAttribute('data-verdict', 'faster');
  await expect(stripRow(page, 'pipe', 'clang|-Ofast -flto')).toHaveAttribute('aria-label', new RegExp(`geometric mean ${formatChange(lto?.ratio ?? 1).replace('+', '\\+')}, faster beyond`));
  await expect(stripRow(page, 'data', 'gcc|-Os').locator('circle.dot[data-verdict="slower"]')).toHaveCount(10);
  await expect(summary.locator('.summary-table[data-mode="data"] tr[data-row="gcc|-Os"] td[data-column="7.4.1"]')).toContainText('▼');
  // 5.0.14 was not collected: no column, and not offered as a scope.
  expect(await summary.locator('.summary-table[data-mode="data"] thead th').allTextContents()).not.toContain('5.0.14');
  await expect(page.locator('#summary-scope option[value="5.0.14"]')).toHaveCount(0);
  await expect(page.locator('#summary-scope option[value="7.4.1"]')).toHaveCount(1);
  await screenshot(page, testInfo, 'summary');

  // Another baseline: every score is against it, and the link says so.
  await page.locator('#summary-base').selectOption('clang|-O2 -flto');
  await expect(page).toHaveURL(/base=clang%7C-O2\+-flto/);
  await expect(stripRow(page, 'data', 'clang|-O2 -flto')).toHaveAttribute('data-mean', '1');
  await expect(stripRow(page, 'data', 'clang|-O2 -flto').locator('text.row-label')).toHaveText('clang -O2 -flto (baseline)');
  await expect(stripRow(page, 'data', 'gcc|-O2')).toHaveAttribute('data-verdict', 'slower');

  // One version's per-test changes: a click in the per-version table.
  await summary.locator('.summary-table[data-mode="data"] tr[data-row="gcc|-O2"] td[data-column="7.4.1"] button').click();
  await expect(page).toHaveURL(/scope=7\.4\.1/);
  await expect(page.locator('#summary-scope')).toHaveValue('7.4.1');
  await expect(summary.locator('figure[data-mode="data"] figcaption')).toHaveText('data mode · Redis 7.4.1 · against clang -O2 -flto');
  // 7.4.1 has no clang -Ofast build: nothing to compare, said as such.
  await expect(stripRow(page, 'data', 'clang|-Ofast')).toHaveAttribute('data-mean', '');
  await expect(stripRow(page, 'data', 'clang|-Ofast').locator('text.row-note')).toHaveText('not compared');

  const fresh = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  await fresh.goto(page.url());
  await waitForCharts(fresh);
  await expect(fresh.locator('#summary-base')).toHaveValue('clang|-O2 -flto');
  await expect(fresh.locator('#summary-scope')).toHaveValue('7.4.1');
  await expect(stripRow(fresh, 'data', 'gcc|-O2')).toHaveAttribute('data-mean', (await stripRow(page, 'data', 'gcc|-O2').getAttribute('data-mean')) ?? '');
  await fresh.context().close();

  await page.goBack();
  await expect(page.locator('#summary-scope')).toHaveValue('');
  await page.goBack();
  await expect(page.locator('#summary-base')).toHaveValue('gcc|-O2');
});

test('build factors show each factor per version, tinted only beyond noise', async ({ page }, testInfo) => {
  await page.goto('./?metric=rps&section=factors');
  await waitForCharts(page);
  const factors = section(page, 'factors');
  await expect(factors).toBeInViewport();
  const table = factors.locator('.factor-table[data-mode="pipe"]');
  await expect(table.locator('tbody th')).toHaveText(['clang vs gcc', '-Os vs -O2', '-Ofast vs -O2', 'LTO (-flto) on vs off']);
  // The planted effects: LTO about +4%, -Os about -5%, -Ofast about +1% (within noise).
  const lto = table.locator('tr[data-row="lto:on"] td[data-column=""]');
  await expect(lto).toHaveAttribute('data-verdict', 'faster');
  expect(Number(await lto.getAttribute('data-ratio'))).toBeCloseTo(1.04, 2);
  await expect(table.locator('tr[data-row="level:-Os"] td[data-column="7.4.1"]')).toHaveAttribute('data-verdict', 'slower');
  await expect(table.locator('tr[data-row="level:-Ofast"] td[data-column=""]')).toHaveAttribute('data-verdict', 'tie');
  expect(await table.locator('tr[data-row="level:-Ofast"] td[data-column=""]').evaluate((td) => getComputedStyle(td).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
  expect(await lto.evaluate((td) => getComputedStyle(td).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
  // 5.0.14 has no data: no column.
  expect(await table.locator('thead th').allTextContents()).not.toContain('5.0.14');
  expect(await table.locator('thead th').allTextContents()).toContain('7.4.1');
  await expect(factors.locator('.factor-headline')).toContainText('pipe mode, all versions: clang vs gcc ▲');
  await screenshot(page, testInfo, 'factors');
});

test('charts show whiskers, mark releases beyond noise and call ties within noise', async ({ page }, testInfo) => {
  const fx = await openFixtureDb();
  const verdicts = await fx.runner.run(versionVerdictsQuery());
  await page.goto('./?metric=rps&chart=data:GET');
  await waitForCharts(page);
  const get = chart(page, 'data:GET');
  // The planted regression (7.2.6) and improvement (7.4.1), once the verdicts have arrived.
  await expect(bar(get, '7.2.6')).toHaveAttribute('data-change', 'slower');
  await expect(bar(get, '7.4.1')).toHaveAttribute('data-change', 'faster');
  await expect(bar(get, '7.2.6').locator('text.winner-mark')).toHaveText('▼');
  await expect(get.locator('figcaption')).toContainText('beyond noise against the release before:');
  await expect(get.locator('figcaption')).toContainText('▼ 7.2.6');
  const marked = verdicts.filter((v) => v.mode === 'data' && v.test === 'GET' && (v.change_verdict === 'faster' || v.change_verdict === 'slower'));
  await expect(get.locator('g.bar[data-change]')).toHaveCount(marked.length);
  await bar(get, '7.2.6').hover();
  await expect(page.locator('#chart-tooltip')).toContainText('against 6.2.16, slower beyond the ±');
  // Every measured bar has a whisker from its worst repeat up to its best.
  const whiskers = await bars(get).evaluateAll((nodes) => nodes.filter((n) => n.getAttribute('data-low')).map((n) => {
    const line = n.querySelector('line.whisker') as SVGLineElement;
    return { shown: line.getAttribute('display') !== 'none', spans: Number(line.getAttribute('y1')) > Number(line.getAttribute('y2')) };
  }));
  expect(whiskers).toHaveLength(6);
  expect(whiskers.every((w) => w.shown && w.spans)).toBe(true);
  await screenshot(page, testInfo, 'regression-marks');

  // A clear winner keeps its star.
  const incr = chart(page, 'data:INCR');
  await bar(incr, '6.2.16').click();
  await expect(incr.locator('g.bar[data-winner="true"]')).toHaveAttribute('data-key', '6.2.16|clang|-O2 -flto');
  await expect(incr.locator('g.bar[data-noise]')).toHaveCount(0);
  await expect(incr.locator('figcaption')).toContainText('★ fastest: clang -O2 -flto');

  // A tie within noise: the fastest and every configuration within its noise band marked ≈.
  const tie = verdicts.find((v) => v.mode === 'pipe' && v.test === 'SET' && v.winner_call === 'tie');
  expect(tie).toBeDefined();
  const set = chart(page, 'pipe:SET');
  await bar(set, tie?.version ?? '').click();
  await expect(set.locator('g.bar[data-noise="tie"]')).toHaveCount((tie?.ties ?? 0) + 1);
  await expect(set.locator('g.bar[data-winner="true"]')).toHaveAttribute('data-noise', 'tie');
  await expect(set.locator('g.bar[data-winner="true"] text.winner-mark')).toHaveText('≈');
  await expect(set.locator('figcaption')).toContainText('≈ one group within noise of the best, in no order:');
  await expect(set.locator('g.bar[data-winner="true"]')).toHaveAttribute('aria-label', /tie within noise/);
  await screenshot(page, testInfo, 'tie-within-noise');
});

test('the status grid shows every cell, and a click shows its build log tail and flags', async ({ page, browser }, testInfo) => {
  await page.goto('./?metric=rps&section=status');
  await waitForCharts(page);
  const status = section(page, 'status');
  await expect(status).toBeInViewport();
  const cells = status.locator('button[data-cell]');
  await expect(cells).toHaveCount(84);
  await expect(status.locator('button[data-status="build_failed"]')).toHaveCount(3);
  await expect(status.locator('button[data-status="not_collected"]')).toHaveCount(13);
  await expect(status.locator('button[data-cell="3.0.7|gcc|-Os"]')).toHaveAttribute('data-status', 'server_failed');
  await expect(status.locator('button[data-cell="3.0.7|gcc|-Os"]')).toHaveText('⚠ 2/3');
  await expect(status.locator('button[data-cell="7.4.1|gcc|-Os -flto"]')).toHaveText('◐ 1/3');
  await expect(status.locator('button[data-cell="7.4.1|gcc|-O2"]')).toHaveText('✓ 3/3');

  await status.locator('button[data-cell="7.4.1|clang|-Ofast"]').click();
  await expect(page).toHaveURL(/cell=7\.4\.1%7Cclang%7C-Ofast/);
  const detail = status.locator('article[data-cell="7.4.1|clang|-Ofast"]');
  await expect(detail).toContainText('Redis 7.4.1 · clang -Ofast — build failed');
  await expect(detail.locator('pre.build-log')).toHaveText('cd hiredis && make static\nhiredis.c:1:1: error: compilation failed\nmake[1]: *** [Makefile:112: hiredis.o] Error 1');
  await expect(detail.locator('.build-flags')).toContainText('CFLAGS (OPTIMIZATION)-Ofast');
  await expect(detail.locator('.build-flags')).toContainText('make -j2 CC=clang-19 OPTIMIZATION="-Ofast"');
  await expect(detail.locator('.build-flags')).toContainText("failed: hiredis: error: argument '-Ofast' is deprecated");
  await expect(detail.locator('.build-flags')).toContainText('machine m-fixture');
  await expect(detail).toContainText('No benchmark run recorded.');
  await expect(status.locator('button[data-cell="7.4.1|clang|-Ofast"]')).toHaveAttribute('aria-pressed', 'true');
  await screenshot(page, testInfo, 'status-grid');

  // A fresh page from the link: the same cell open, the grid in view.
  const fresh = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  await fresh.goto('./?metric=rps&cell=3.0.7|gcc|-Os&section=status');
  await waitForCharts(fresh);
  const runs = section(fresh, 'status').locator('article[data-cell="3.0.7|gcc|-Os"] .runs-table tbody tr');
  await expect(runs).toHaveCount(6);
  await expect(runs.nth(4)).toContainText('server_failed');
  // Each run says which machine measured it and how much CPU other processes used meanwhile.
  const runsTable = section(fresh, 'status').locator('article[data-cell="3.0.7|gcc|-Os"] .runs-table');
  await expect(runsTable.locator('thead')).toContainText("Others' CPU");
  await expect(runsTable.locator('thead')).toContainText('Machine');
  await expect(runsTable.locator('thead')).toContainText('Memory write before → after');
  await expect(runs.nth(0).locator('td').nth(6)).toHaveText('3%');
  await expect(runs.nth(0).locator('td').nth(7)).toHaveText('not recorded');
  await expect(runsTable.locator('thead')).toContainText('Host steal');
  await expect(runs.nth(0).locator('td').nth(8)).toHaveText('not recorded');
  await expect(runs.nth(0).locator('td').nth(9)).toHaveText('m-fixture');
  await expect(section(fresh, 'status')).toBeInViewport();
  // An ok build names its code: the hash of the mapped sections, and the build ID compiled in.
  await expect(section(fresh, 'status').locator('article[data-cell="3.0.7|gcc|-Os"] .build-flags')).toContainText(/Code \(mapped sections\)sha256 [0-9a-f]{64}; REDIS_BUILD_ID 1700000000; jemalloc without address bits \(before 5\.0\)/);
  // A run with the host-speed probe (the fixture records it from 6.2.16 on).
  await fresh.goto('./?metric=rps&cell=6.2.16|gcc|-O2&section=status');
  await waitForCharts(fresh);
  const probed = section(fresh, 'status').locator('article[data-cell="6.2.16|gcc|-O2"] .runs-table tbody tr');
  await expect(probed.nth(1).locator('td').nth(7)).toHaveText('44.0 → 38.0 GB/s');
  // A run during which the host took a quarter of a CPU (the fixture records steal from 7.2.6 on).
  await fresh.goto('./?metric=rps&cell=7.2.6|gcc|-O2&section=status');
  await waitForCharts(fresh);
  const stolen = section(fresh, 'status').locator('article[data-cell="7.2.6|gcc|-O2"] .runs-table tbody tr');
  await expect(stolen.nth(4)).toContainText('pipe');
  await expect(stolen.nth(4).locator('td').nth(8)).toHaveText('⚠ 24.5%');
  await expect(stolen.nth(0).locator('td').nth(8)).toHaveText('0.5%');
  await expect(section(fresh, 'status').locator('article[data-cell="7.2.6|gcc|-O2"] .redone-none')).toHaveText('No run of this cell was measured again.');
  // Runs measured again are kept and shown apart, with why and against their replacement.
  await expect(section(fresh, 'status').locator('.redone-summary')).toContainText('Runs measured again on this hardware');
  await expect(section(fresh, 'status').locator('.redone-summary')).toContainText(': 2: data mode 2, a median −3.8% against their replacements (2 compared).');
  await fresh.goto('./?metric=rps&cell=7.4.1|gcc|-O2&section=status');
  await waitForCharts(fresh);
  const redone = section(fresh, 'status').locator('article[data-cell="7.4.1|gcc|-O2"] .redone-table tbody tr');
  await expect(redone).toHaveCount(2);
  await expect(redone.nth(0)).toContainText('other processes 12% of a CPU > 5% (recovered from an earlier version of the dataset)');
  await expect(redone.nth(0).locator('td').nth(4)).toHaveText('12%');
  await expect(redone.nth(0).locator('td').nth(6)).toHaveText('+12.5% (1.13×)');
  await expect(redone.nth(1).locator('td').nth(3)).toHaveText('host steal 31.0% > 10%');
  await expect(redone.nth(1).locator('td').nth(5)).toHaveText('⚠ 31.0%');
  await expect(redone.nth(1).locator('td').nth(6)).toHaveText('−20.0% (0.80×)');
  await fresh.context().close();

  await detail.getByRole('button', { name: 'Close' }).click();
  await expect(detail).toHaveCount(0);
  await expect(page).not.toHaveURL(/cell=/);
});

test('compare two versions, then two configurations, as ratio tables with the geometric mean', async ({ page, browser }, testInfo) => {
  const fx = await openFixtureDb();
  await page.goto('./?metric=rps&section=compare');
  await waitForCharts(page);
  const compare = section(page, 'compare');
  // Default: the two newest versions at their fastest configurations.
  await expect(page.locator('#compare-a-version')).toHaveValue('7.2.6');
  await expect(page.locator('#compare-b-version')).toHaveValue('7.4.1');
  const data = compare.locator('table.compare-table[data-mode="data"]');
  await expect(data.locator('tbody tr')).toHaveCount(10);
  await expect(data.locator('tr[data-test="LPUSH"] td[data-verdict]')).toHaveAttribute('data-verdict', 'faster');
  const versions = await fx.runner.run(compareQuery({ version: '7.2.6', config: null }, { version: '7.4.1', config: null }));
  const mean = versions.find((r) => r.mode === 'data' && r.test === null);
  await expect(data.locator('tfoot td[data-verdict]')).toHaveText(`▲ ${formatChange(mean?.ratio ?? 1)}`);
  await expect(data.locator('tfoot')).toContainText(`${mean?.tests} tests: ${mean?.faster} faster`);

  // Two configurations of one version.
  await page.locator('#compare-a-version').selectOption('7.4.1');
  await page.locator('#compare-a-config').selectOption('gcc|-O2');
  await page.locator('#compare-b-config').selectOption('clang|-O2 -flto');
  await expect(page).toHaveURL(/a=7\.4\.1%7Cgcc%7C-O2&b=7\.4\.1%7Cclang%7C-O2\+-flto/);
  const configs = await fx.runner.run(compareQuery(
    { version: '7.4.1', config: { compiler: 'gcc', flag_set: '-O2' } }, { version: '7.4.1', config: { compiler: 'clang', flag_set: '-O2 -flto' } }));
  const pipeMean = configs.find((r) => r.mode === 'pipe' && r.test === null);
  const pipe = compare.locator('table.compare-table[data-mode="pipe"]');
  await expect(pipe.locator('tfoot td[data-verdict]')).toHaveAttribute('data-ratio', String(pipeMean?.ratio));
  await expect(pipe.locator('thead')).toContainText('A: Redis 7.4.1 gcc -O2');
  await expect(pipe.locator('thead')).toContainText('B: Redis 7.4.1 clang -O2 -flto');
  await screenshot(page, testInfo, 'compare');

  // A side without figures is shown as such and left out of the mean.
  await page.locator('#compare-b-config').selectOption('clang|-Ofast');
  await expect(pipe.locator('tr[data-test="SET"]')).toContainText('the build failed');
  await expect(pipe.locator('tfoot')).toContainText('no test measured on both sides');

  await compare.getByRole('button', { name: 'Swap A and B' }).click();
  await expect(page.locator('#compare-a-config')).toHaveValue('clang|-Ofast');
  await expect(page.locator('#compare-b-config')).toHaveValue('gcc|-O2');

  // The section's own copy-link gives a link that restores the comparison in a fresh page.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await compare.getByRole('link', { name: 'Copy link' }).click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toContain('section=compare');
  const fresh = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  await fresh.goto(link);
  await waitForCharts(fresh);
  await expect(section(fresh, 'compare')).toBeInViewport();
  await expect(fresh.locator('#compare-a-config')).toHaveValue('clang|-Ofast');
  await expect(fresh.locator('#compare-b-version')).toHaveValue('7.4.1');
  await expect(section(fresh, 'compare').locator('table.compare-table[data-mode="pipe"] tr[data-test="SET"]')).toContainText('the build failed');
  await fresh.context().close();
});

test("each section's SQL opens in the console as its own query, and its CSV and Parquet hold the section's rows", async ({ page }) => {
  const fx = await openFixtureDb();
  await page.goto('./?metric=rps&base=clang%7C-O2+-flto&scope=7.4.1&section=summary');
  await waitForCharts(page);
  const summary = section(page, 'summary');
  await expect(stripRow(page, 'data', 'clang|-O2 -flto')).toHaveAttribute('data-mean', '1');
  const base = { compiler: 'clang', flag_set: '-O2 -flto' };

  // The summary has two queries: the geometric means, and the per-test changes of the scope shown.
  const items = summary.locator('[data-query="per-test changes"]');
  await items.getByRole('button', { name: 'Open the SQL of the per-test changes of the summary in the console' }).click();
  const expectedItems = await fx.runner.run(summaryItemsQuery(base, '7.4.1'));
  await expect(page.locator('#sql-status')).toHaveText(new RegExp(`^${expectedItems.length} rows in \\d+ ms`));
  await expect(page.locator('#sql-editor')).toHaveValue(/^-- Summary: per-test changes of every configuration against clang -O2 -flto, Redis 7\.4\.1\n/);
  await expect(page).toHaveURL(/sql=--\+Summary/);

  const [file] = await Promise.all([page.waitForEvent('download'),
    summary.getByRole('button', { name: 'Download the geometric means of the summary as CSV' }).click()]);
  expect(file.suggestedFilename()).toBe('redis-benchmarks-summary-vs-clang-o2-flto.csv');
  const [header, ...lines] = fs.readFileSync(await file.path(), 'utf8').split('\r\n');
  expect(lines.pop()).toBe('');
  const means = await fx.runner.run(summaryQuery(base));
  expect(header?.split(',').slice(0, 7)).toEqual(['compiler', 'flag_set', 'compiler_index', 'flag_index', 'mode', 'version', 'ratio']);
  expect(lines).toHaveLength(means.length);
  expect(lines.map((l) => l.split(',').slice(0, 2).join(' '))).toEqual(means.map((m) => `${m.compiler} ${m.flag_set}`));

  // Build factors and the status grid: one query each, the whole table.
  await page.locator('[data-tab="factors"]').click();
  const factors = section(page, 'factors');
  await factors.scrollIntoViewIfNeeded();
  const [parquet] = await Promise.all([page.waitForEvent('download'),
    factors.getByRole('button', { name: 'Download the effects of the build factors as Parquet' }).click()]);
  expect(parquet.suggestedFilename()).toBe('redis-benchmarks-build-factors.parquet');
  const bytes = fs.readFileSync(await parquet.path());
  expect([bytes.subarray(0, 4).toString(), bytes.subarray(-4).toString()]).toEqual(['PAR1', 'PAR1']);
  const effects = await fx.runner.run(effectsQuery());
  const { openNodeDuckDB } = await import('../support/node-duckdb.mjs');
  const { db, run } = await openNodeDuckDB();
  db.registerFileBuffer('factors.parquet', new Uint8Array(bytes));
  expect(run("SELECT count(*)::INTEGER AS n FROM read_parquet('factors.parquet')")).toEqual([{ n: effects.length }]);

  await page.locator('[data-tab="status"]').click();
  const status = section(page, 'status');
  await status.scrollIntoViewIfNeeded();
  await status.getByRole('button', { name: 'Open the SQL of the cells of the status grid in the console' }).click();
  await expect(page.locator('#sql-status')).toHaveText(new RegExp(`^${(await fx.runner.run(statusGridQuery())).length} rows in \\d+ ms`));
});

test('trends show every configuration of one test across releases, with gaps where a release has no figure', async ({ page, browser }, testInfo) => {
  const fx = await openFixtureDb();
  await page.goto('./?metric=rps&section=trends');
  await waitForCharts(page);
  const trends = section(page, 'trends');
  await expect(trends).toBeInViewport();
  await expect(trends.locator('figure.trend-panel')).toHaveCount(6);
  await expect(trends.locator('g.trend-series')).toHaveCount(12);
  // The first chart by default: PING_INLINE in data mode.
  await expect(page.locator('#trend-chart')).toHaveValue('data:PING_INLINE');

  await page.locator('#trend-chart').selectOption('pipe:GET');
  await expect(page).toHaveURL(/trend=pipe%3AGET/);
  const expected = await fx.runner.run(configBarsQuery('pipe', 'GET'));
  const gcc = trends.locator('figure.trend-panel[data-flag-set="-O2"] g.trend-series[data-key="gcc|-O2"]');
  // Polled: the new chart's query may wait behind the page's background work (the sections'
  // first queries, the drilldown prefetch) before the panels are redrawn.
  await expect.poll(() => gcc.locator('g.point').evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-version'), n.getAttribute('data-status'), n.getAttribute('data-value')])))
    .toEqual(fx.versions.map((v) => {
      const row = expected.find((r) => r.cell_id === `${v}|gcc|-O2`);
      return [v, row?.status, row?.status === 'ok' ? String(row.best_value) : ''];
    }));
  // 5.0.14 is not collected: the line breaks there (two segments), and its mark says why.
  expect(((await gcc.locator('path.trend-line').getAttribute('d')) ?? '').match(/M/g)).toHaveLength(2);
  await gcc.locator('g.point[data-version="5.0.14"] circle').hover({ force: true });
  await expect(page.locator('#chart-tooltip')).toContainText('gcc -O2, Redis 5.0.14: no figure');
  await expect(page.locator('#chart-tooltip')).toContainText('Not collected yet');
  // A build that failed is named in the table, not drawn as a value.
  const table = trends.getByRole('table', { name: /GET, pipe mode: requests\/second/ });
  await expect(table.locator('tbody tr', { hasText: 'clang -Ofast' }).locator('td').last()).toHaveText('build failed');
  await expect(table.locator('tbody tr')).toHaveCount(12);
  await screenshot(page, testInfo, 'trends');

  // The page's view sets the shared axis.
  const real = await trends.locator('figure.trend-panel svg').first().getAttribute('data-domain');
  await page.getByText('Max Change View', { exact: true }).click();
  await expect(trends.locator('.axis-note')).toContainText('Max Change View, shared by all panels');
  expect(await trends.locator('figure.trend-panel svg').first().getAttribute('data-domain')).not.toBe(real);

  // The address bar follows once the page is idle.
  await expect(page).toHaveURL(/view=max/);
  const fresh = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  await fresh.goto(page.url());
  await waitForCharts(fresh);
  await expect(fresh.locator('#trend-chart')).toHaveValue('pipe:GET');
  await expect(section(fresh, 'trends').locator('.axis-note')).toContainText('Max Change View');
  await fresh.context().close();
});

test('a stale analysis link falls back to defaults with a notice', async ({ page }) => {
  await page.goto('./?metric=rps&base=icc|-O3&scope=9.9&a=1.0.0&cell=7.4.1|gcc|-O9&section=nowhere');
  await waitForCharts(page);
  const notice = page.locator('[data-notice="link"]');
  await expect(notice).toContainText('The configuration icc -O3 is not in the data');
  await expect(notice).toContainText('Version 9.9 is not in the data');
  await expect(notice).toContainText('section "nowhere"');
  await expect(page).toHaveURL(/\/redis-compiler-benchmarks\/\?hw=fixture-cpu-2-00ghz-2-cores&metric=rps$/);
  // The sections are tabs: each shows its default once opened.
  await page.locator('[data-tab="summary"]').click();
  await expect(page.locator('#summary-base')).toHaveValue('gcc|-O2');
  await page.locator('[data-tab="compare"]').click();
  await expect(page.locator('#compare-a-version')).toHaveValue('7.2.6');
});

test('build errors and log tails from the data are shown as text in the status grid, never parsed as HTML', async ({ page }) => {
  const html = '<img src=x onerror="document.body.dataset.pwned=1"><b id="injected">bold</b>';
  const body = Buffer.from(await rewrittenFixture('builds', `SELECT * REPLACE (
    CASE WHEN status = 'failed' THEN '${html.replace(/'/g, "''")}' END AS error,
    CASE WHEN status = 'failed' THEN '${html.replace(/'/g, "''")}' ELSE log_tail END AS log_tail) FROM fixture`));
  await page.route('**/data/builds.parquet', (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body }));
  // Without the first view the page reads the published builds.parquet (not the build's split files).
  await page.route('**/data/first-view.json', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto('./?metric=rps&cell=7.4.1|clang|-Ofast&section=status');
  await waitForCharts(page);
  const detail = section(page, 'status').locator('article[data-cell="7.4.1|clang|-Ofast"]');
  await expect(detail.locator('pre.build-log')).toHaveText(html);
  await expect(detail.locator('.build-flags')).toContainText(html);
  await expect(section(page, 'status').locator('button[data-cell="7.4.1|clang|-Ofast"]')).toHaveAttribute('title', new RegExp('<b id="injected">'));
  await expect(page.locator('#injected')).toHaveCount(0);
  expect(await page.evaluate(() => document.body.dataset.pwned)).toBeUndefined();
});
