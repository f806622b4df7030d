/**
 * The precision modes on the fixture (its data-long and pipe-long rounds: 6.2.16 and 7.4.1 in
 * five, 2.8.24 in one): reached from the mode control, their charts and drilldown winners, the
 * summary with intervals and verdicts, a shared link reopening it; checked against the same
 * queries and statistics run in Node.
 */
import { expect, type Page, test } from '@playwright/test';
import { precisionSummary } from '../../src/model/precision';
import { precisionSummaryQuery } from '../../src/sql/precision';
import { openFixtureDb } from '../support/fixture-db';
import { bar, bars, chart, screenshot, waitForCharts } from './helpers';

const summary = (page: Page) => page.locator('#section-summary');
const stripRow = (page: Page, mode: string, key: string) => summary(page).locator(`figure[data-mode="${mode}"] g.strip-row[data-key="${key}"]`);

test('the mode control reaches the precision modes, says which versions have them, and the summary shows their intervals and verdicts', async ({ page, browser }, testInfo) => {
  const fx = await openFixtureDb();
  const expected = precisionSummary(await fx.runner.run(precisionSummaryQuery({ compiler: 'gcc', flag_set: '-O2' })), null).scores;
  const score = (config: string) => expected.find((s) => s.mode === 'data-long' && s.version === null && `${s.compiler} ${s.flag_set}` === config);

  await page.goto('./?metric=rps&section=summary');
  await waitForCharts(page);
  // By default the reference modes: their charts only, and the summary by the noise rule, labelled so.
  await expect(page.locator('figure[data-chart-key^="data-long:"]:visible')).toHaveCount(0);
  await expect(summary(page).locator('figure[data-mode] g.strip-row')).toHaveCount(24);
  await expect(summary(page).locator('.rule-note')).toContainText('Reference modes');
  await expect(summary(page).locator('.rule-note')).toContainText('no stated error rate');
  // How long a test lasted, under both protocols: the reference pipe mode's tests are short, the precision ones at least a second.
  await expect(summary(page).locator('.summary-durations li')).toHaveCount(4);
  await expect(summary(page).locator('.summary-durations li[data-mode="pipe"]')).toContainText('120,000 requests per test');
  await expect(summary(page).locator('.summary-durations li[data-mode="pipe-long"]')).toContainText('calibrated counts');
  await expect(page.locator('#precision-coverage')).toHaveText(
    'Precision modes (requests/second only; tests of at least 1.5 s, interleaved rounds, 95% intervals), measured so far: '
    + 'data-long: 3 of 7 versions, 2.8.24 (1 round), 6.2.16 (5 rounds), 7.4.1 (5 rounds); pipe-long: 3 of 7 versions, 2.8.24 (1 round), 6.2.16 (5 rounds), 7.4.1 (5 rounds).',
  );

  await page.locator('label', { hasText: /^data-long$/ }).click();
  await expect(page).toHaveURL(/mode=data-long/);
  await expect(page.locator('figure[data-chart-key]:visible')).toHaveCount(10);
  await expect(page.locator('figure[data-chart-key^="data-long:"]:visible')).toHaveCount(10);
  await expect(page.locator('#chart-count')).toHaveText('10 of 20 charts');

  // The summary in the precision protocol: the precision modes, each mean with its 95% interval.
  await expect(summary(page).locator('.rule-note')).toContainText('95% bootstrap interval');
  await expect(summary(page).locator('.rule-note')).toContainText('a verdict from fewer than 5 rounds is provisional');
  await expect(summary(page).locator('figure[data-mode]')).toHaveCount(2);
  await expect(summary(page).locator('figure[data-mode="data-long"] g.strip-row')).toHaveCount(12);
  const lto = score('clang -O2 -flto');
  const row = stripRow(page, 'data-long', 'clang|-O2 -flto');
  await expect(row).toHaveAttribute('data-mean', String(lto?.ratio));
  await expect(row).toHaveAttribute('data-verdict', 'faster');
  await expect(row.locator('rect.band')).toHaveAttribute('data-interval', `${lto?.interval?.lo} ${lto?.interval?.hi}`);
  await expect(row).toHaveAttribute('aria-label', /faster: 95% interval \+[0-9.]+% to \+[0-9.]+% \(5 rounds\)/);
  // -Ofast is exactly as fast as -O2 in the fixture: no change within noise, the interval shown.
  await expect(stripRow(page, 'data-long', 'gcc|-Ofast')).toHaveAttribute('data-verdict', 'tie');
  await expect(stripRow(page, 'data-long', 'gcc|-Ofast')).toHaveAttribute('aria-label', /no change within noise: 95% interval −[0-9.]+% to \+[0-9.]+%/);
  await expect(stripRow(page, 'data-long', 'gcc|-Os')).toHaveAttribute('data-verdict', 'slower');
  // The per-version table: 2.8.24 has one round, so a ratio but no verdict.
  const table = summary(page).locator('.summary-table[data-mode="data-long"]');
  await expect(table.locator('thead th')).toHaveText(['', '2.8.24', '6.2.16', '7.4.1', 'all']);
  await expect(table.locator('tr[data-row="gcc|-O2 -flto"] td[data-column="2.8.24"]')).toHaveAttribute('data-verdict', 'unknown');
  await expect(table.locator('tr[data-row="gcc|-O2 -flto"] td[data-column="7.4.1"] button')).toHaveAttribute('title', /faster: 95% interval/);
  // Every figure's coefficient of variation, the unstable one named.
  await expect(summary(page).locator('li[data-line="variation"][data-mode="pipe-long"]')).toContainText('1 unstable (above 10.0%): 7.4.1 gcc -Os -flto SET');
  await screenshot(page, testInfo, 'precision-summary');

  // A shared link reopens the precision mode, its charts and its summary.
  const fresh = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  await fresh.goto(page.url());
  await waitForCharts(fresh);
  await expect(fresh.locator('#mode-data-long')).toBeChecked();
  await expect(fresh.locator('figure[data-chart-key^="data-long:"]:visible')).toHaveCount(10);
  await expect(stripRow(fresh, 'data-long', 'clang|-O2 -flto')).toHaveAttribute('data-mean', String(lto?.ratio));
  await expect(stripRow(fresh, 'data-long', 'clang|-O2 -flto')).toHaveAttribute('data-verdict', 'faster');
  await fresh.context().close();

  // Back to the reference modes.
  await page.locator('label', { hasText: 'Both (reference)' }).click();
  await expect(page).not.toHaveURL(/mode=/);
  await expect(summary(page).locator('figure[data-mode]')).toHaveCount(2);
  await expect(summary(page).locator('figure[data-mode="data"]')).toHaveCount(1);
});

test("a precision chart's bars are geometric means over rounds, its drilldown's winner is called by intervals, an unstable figure and a short round are marked", async ({ page }, testInfo) => {
  await page.goto('./?metric=rps&mode=precision&open=data-long:INCR@6.2.16');
  await waitForCharts(page);
  await expect(page.locator('figure[data-chart-key]:visible')).toHaveCount(20);
  // The planted winner: clang -O2 -flto 8% faster on INCR in 6.2.16, every other configuration's interval below it.
  const incr = chart(page, 'data-long:INCR');
  await expect(incr.locator('figcaption')).toContainText('data-long mode (precision');
  await expect(incr.locator('figcaption')).toContainText('★ fastest: clang -O2 -flto');
  await expect(bar(incr, '6.2.16|clang|-O2 -flto')).toHaveAttribute('data-winner', 'true');
  await expect(bar(incr, '6.2.16|clang|-O2 -flto')).toHaveAttribute('aria-label', /winner/);
  // No whisker: a precision bar is a geometric mean, its variation in words.
  await expect(incr.locator('line.whisker')).toHaveCount(0);

  // SET in 6.2.16: clang -O2 -flto and clang -Ofast -flto are equally fast: a tie within noise.
  const set = chart(page, 'data-long:SET');
  await bar(set, '6.2.16').click();
  await expect(set.locator('figcaption')).toContainText('≈ one group within noise of the best, in no order: clang -O2 -flto, clang -Ofast -flto (95% intervals of the paired rounds)');
  await expect(bars(set).and(page.locator('[data-noise="tie"]'))).toHaveCount(2);

  // 2.8.24 has one round: no winner called.
  await page.goto('./?metric=rps&mode=data-long&open=data-long:SET@2.8.24');
  await waitForCharts(page);
  await expect(chart(page, 'data-long:SET').locator('figcaption')).toContainText('no winner called (fewer than two rounds: no interval)');

  // The fixture's unstable figure: 7.4.1 gcc -Os -flto's SET in pipe-long swings across its rounds.
  await page.goto('./?metric=rps&mode=pipe-long&open=pipe-long:SET@7.4.1');
  await waitForCharts(page);
  const shaky = chart(page, 'pipe-long:SET');
  await expect(bar(shaky, '7.4.1|gcc|-Os -flto')).toHaveAttribute('data-unstable', 'true');
  await expect(bar(shaky, '7.4.1|gcc|-Os -flto')).toHaveAttribute('aria-label', /unstable \(coefficient of variation above 10%\)/);
  await expect(shaky.locator('figcaption')).toContainText('⚠ unstable (coefficient of variation over the rounds above 10%): gcc -Os -flto');
  // Its third round lasted less than min_time (requests / rps under 1.5 s): the card names it.
  await expect(shaky.locator('figcaption')).toContainText("⚠ a round shorter than 1.5 s (one millisecond of the client's clock weighs more): gcc -Os -flto");
  await screenshot(page, testInfo, 'precision-drilldown');

  // A counted metric is not measured in the precision modes: picking one goes back to the reference modes.
  await page.locator('label', { hasText: 'instr/req (counted)' }).click();
  // Instructions per request is the default metric: it leaves the URL.
  await expect(page).not.toHaveURL(/metric=|mode=/);
  await expect(page.locator('#metric-ir')).toBeChecked();
});
