import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { openNodeDuckDB } from '../support/node-duckdb.mjs';
import { bar, bars, chart, ORIGIN, screenshot, waitForCharts } from './helpers';

/** Opens the page with this console query (and optional other parameters) and waits for its outcome. */
async function openConsole(page: Page, sql: string, extra = ''): Promise<void> {
  await page.goto(`./?metric=rps&sql=${encodeURIComponent(sql)}${extra}`);
  await expect(page.locator('#console')).toBeVisible();
  await expect(page.locator('#sql-status')).toHaveText(/rows?|failed|Nothing/);
}

/** The text of a file the page downloads when `action` runs. */
async function downloaded(page: Page, action: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), action()]);
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) };
}

test('a console query in the URL opens the console, runs it and shows its rows up to the limit', async ({ page }, testInfo) => {
  const sql = 'SELECT version, count(*) AS runs\nFROM runs GROUP BY version ORDER BY version';
  await openConsole(page, sql, '&limit=3');
  await expect(page.locator('#sql-editor')).toHaveValue(sql);
  await expect(page.locator('#sql-limit')).toHaveValue('3');
  await expect(page.locator('#sql-status')).toContainText('The first 3 rows (the row limit); the result has more');
  const table = page.locator('#sql-results table');
  await expect(table.locator('thead th')).toHaveText(['version', 'runs']);
  await expect(table.locator('thead th').nth(1)).toHaveAttribute('title', 'BIGINT');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await expect(table.locator('tbody tr').first()).toHaveText(/2\.6\.17\s*\d+/);
  // Sorting by a column, descending on the second press.
  await table.getByRole('button', { name: 'runs' }).click();
  await table.getByRole('button', { name: 'runs' }).click();
  await expect(table.locator('thead th').nth(1)).toHaveAttribute('aria-sort', 'descending');
  const counts = (await table.locator('tbody td:nth-child(2)').allTextContents()).map(Number);
  expect(counts).toEqual([...counts].sort((a, b) => b - a));
  // The schema lists the published tables with their row counts (builds, runs and results of the
  // hardware shown), then every machine's and the derived ones.
  await expect(page.locator('#console details[data-table] > summary')).toHaveText([
    /^plan · 84 rows$/, /^builds · 71 rows · this hardware$/, /^runs · 638 rows · this hardware$/, /^results · 6,360 rows · this hardware$/,
    /^machines · 2 rows$/, /^redone_runs · 2 rows · this hardware$/, /^redone_results · 20 rows · this hardware$/,
    /^counts · 2,680 rows · every machine$/, /^count_runs · 268 rows · every machine$/, /^count_runs_superseded · 4 rows · every machine$/,
    // Each counted metric's rebuild band, the floor of its noise bands.
    /^rebuild_bands · 5 rows · every machine$/,
    // all_* hold the extended configurations' rows too (8 cells: builds, counting runs and counts).
    /^all_builds · 82 rows · every machine$/, /^all_count_runs · 300 rows · every configuration$/, /^all_count_runs_superseded · 4 rows · every configuration$/,
    /^all_counts · 3,000 rows · every configuration$/, /^all_plan · 92 rows · every configuration$/,
    /^all_redone_results · 20 rows · every machine$/, /^all_redone_runs · 2 rows · every machine$/,
    /^all_results · 6,420 rows · every machine$/,
    /^all_runs · 644 rows · every machine$/, /^branch_status.*derived$/, /^cell_status.*derived$/, /^cycles_status.*derived$/, /^ir_status.*derived$/,
    /^l1_status.*derived$/, /^ll_status.*derived$/, /^machine_hardware · 2 rows · derived$/,
    /^p50_status.*derived$/, /^p95_status.*derived$/, /^p99_status.*derived$/, /^versions.*derived$/,
  ]);
  // A latency's view says what it reads (closed, as the counted ones).
  await expect(page.locator('#console details[data-table="p95_status"]')).toContainText('for p95 latency, results.p95_latency_ms (ms)');
  // A counted metric's view says what it reads and how it is built (closed: opening it would scroll the page).
  const l1 = page.locator('#console details[data-table="l1_status"]');
  await expect(l1).toContainText('for simulated L1 misses per request, counts.l1_misses_per_request');
  await expect(l1.locator('pre')).toContainText('CREATE OR REPLACE VIEW l1_status AS');
  // The charts are still there below.
  await waitForCharts(page);
  await screenshot(page, testInfo, 'console-from-url');

  // Running from the editor records the query in the URL (and history). From the top of the page:
  // clicking the sort buttons may have scrolled it (how far down they sit depends on the header's
  // height, which lists every mode of the data), and a scrolled page names its section.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('#sql-editor').fill("SELECT 'it''s' AS answer");
  await page.locator('#sql-editor').press('Control+Enter');
  await expect(page.locator('#sql-results tbody')).toHaveText("it's");
  await expect(page).toHaveURL(/sql=SELECT\+%27it%27%27s%27\+AS\+answer&limit=3$/);
  // Text from results, column names included, is text: never parsed as HTML.
  await page.locator('#sql-editor').fill(`SELECT '<b id="injected">bold</b>' AS "<i id=named>col</i>"`);
  await page.locator('#sql-editor').press('Control+Enter');
  await expect(page.locator('#sql-results tbody')).toHaveText('<b id="injected">bold</b>');
  await expect(page.locator('#sql-results thead')).toHaveText('<i id=named>col</i>');
  await expect(page.locator('#injected, #named')).toHaveCount(0);
  await page.goBack();
  await page.goBack();
  await expect(page.locator('#sql-editor')).toHaveValue(sql);
  await expect(page.locator('#sql-results tbody tr')).toHaveCount(3);
});

test('an SQL error is shown with its line and column, and the editor selects the spot', async ({ page }, testInfo) => {
  await openConsole(page, 'SELECT version,\n  nope FROM results');
  const error = page.locator('#sql-error');
  await expect(error).toBeVisible();
  await expect(error).toHaveAttribute('role', 'alert');
  await expect(error).toContainText('Binder Error: Referenced column "nope" not found');
  await expect(error).toContainText('At line 2, column 3:');
  await expect(error.locator('pre').last()).toHaveText('  nope FROM results\n  ^');
  await expect(error).toHaveAttribute('data-offset', '18');
  expect(await page.locator('#sql-editor').evaluate((el: HTMLTextAreaElement) => [el.selectionStart, el.selectionEnd])).toEqual([18, 19]);
  await expect(page.locator('#sql-results')).toBeHidden();
  await screenshot(page, testInfo, 'console-error');

  // In a script, the position counts from the start of the whole text.
  await page.locator('#sql-editor').fill('SELECT 1;\nSELECT * FORM results');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(error).toContainText('Parser Error: syntax error at or near "results"');
  await expect(error).toContainText('At line 2, column 15:');
});

test('a long query can be cancelled, and nothing a run changes outlives it', async ({ page }) => {
  await openConsole(page, 'SELECT 1 AS one');
  const editor = page.locator('#sql-editor');
  await editor.fill('SELECT sum(hash(i)) FROM range(20000000000) t(i)');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('#sql-status')).toContainText('Cancelled after');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();

  // A script that drops a published table and makes its own: both undone when it ends.
  await editor.fill('DROP VIEW results; CREATE TABLE scratch AS SELECT 42 AS x; SELECT * FROM scratch');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('#sql-results tbody')).toHaveText('42');
  await editor.fill("SELECT count(*) AS n FROM results; -- and: SELECT * FROM scratch");
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('#sql-results tbody')).toHaveText('6360');
  await editor.fill('COMMIT');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('#sql-error')).toContainText('Transactions are not available here');
  // The charts still read the tables.
  await waitForCharts(page);
  await bar(chart(page, 'data:SET'), '7.4.1').click();
  await expect(bars(chart(page, 'data:SET'))).toHaveCount(12);
});

test('the CSV and Parquet downloads of a console result hold every row, not only those shown', async ({ page }) => {
  const sql = "SELECT cell_id, flag_set, repeats FROM plan WHERE version = '7.4.1' ORDER BY compiler_index, flag_index";
  await openConsole(page, sql, '&limit=2');
  await expect(page.locator('#sql-results tbody tr')).toHaveCount(2);
  const csv = await downloaded(page, () => page.locator('#console').getByRole('button', { name: 'CSV' }).click());
  expect(csv.name).toBe('redis-benchmarks-query.csv');
  const flags = ['-O2', '-Os', '-Ofast', '-O2 -flto', '-Os -flto', '-Ofast -flto'];
  expect(csv.bytes.toString('utf8')).toBe([
    'cell_id,flag_set,repeats',
    ...['gcc', 'clang'].flatMap((compiler) => flags.map((flag) => `7.4.1|${compiler}|${flag},${flag},3`)),
    '',
  ].join('\r\n'));

  const parquet = await downloaded(page, () => page.locator('#console').getByRole('button', { name: 'Parquet' }).click());
  expect(parquet.name).toBe('redis-benchmarks-query.parquet');
  expect([parquet.bytes.subarray(0, 4).toString(), parquet.bytes.subarray(-4).toString()]).toEqual(['PAR1', 'PAR1']);
  const { db, run } = await openNodeDuckDB();
  db.registerFileBuffer('download.parquet', new Uint8Array(parquet.bytes));
  const rows = run("SELECT cell_id, flag_set, typeof(repeats) AS type FROM read_parquet('download.parquet')");
  expect(rows).toHaveLength(12);
  expect(rows[0]).toEqual({ cell_id: '7.4.1|gcc|-O2', flag_set: '-O2', type: 'INTEGER' });
});

test("a chart's SQL opens in the console as a standalone query that returns the chart's bars", async ({ page }, testInfo) => {
  await page.goto('./?metric=rps&view=max&from=2.8.24&to=7.2.6');
  await waitForCharts(page);
  const set = chart(page, 'pipe:SET');
  const values = (await bars(set).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-value')))).map((v) => (v ? Number(v) : null));
  await set.getByRole('button', { name: 'SQL', exact: true }).click();
  await expect(page.locator('#sql-status')).toHaveText(/5 rows in \d+ ms/);
  await expect(page.locator('#sql-editor')).toBeFocused();
  await expect(page.locator('#sql-editor')).toHaveValue(/^-- SET, pipe mode: one bar per Redis version[\s\S]*WHERE v\.ord BETWEEN 1 AND 5[\s\S]*WHERE mode = 'pipe' AND test = 'SET'$/);
  await expect(page).toHaveURL(/sql=--\+SET/);
  const headers = await page.locator('#sql-results thead th').allTextContents();
  const column = headers.indexOf('best_value');
  const shown = (await page.locator(`#sql-results tbody td:nth-child(${column + 1})`).allTextContents()).map((t) => (t === 'NULL' ? null : Number(t)));
  expect(shown).toEqual(values);
  await screenshot(page, testInfo, 'chart-sql');

  // A drilldown's SQL is its version's configurations.
  await bar(set, '7.2.6').click();
  await set.getByRole('button', { name: 'SQL', exact: true }).click();
  await expect(page.locator('#sql-status')).toHaveText(/12 rows in \d+ ms/);
  await expect(page.locator('#sql-editor')).toHaveValue(/WHERE version = '7\.2\.6'$/);
});

test('a query naming another origin is refused inside the page, without a request', async ({ page, context }) => {
  const foreign: string[] = [];
  context.on('request', (request) => {
    if (![`${ORIGIN}/`, 'blob:', 'data:'].some((start) => request.url().startsWith(start))) foreign.push(request.url());
  });
  await openConsole(page, "SELECT * FROM read_parquet('https://example.com/results.parquet')");
  await expect(page.locator('#sql-error')).toContainText('this site does not request other origins (https://example.com/results.parquet)');
  expect(foreign).toEqual([]);
});
