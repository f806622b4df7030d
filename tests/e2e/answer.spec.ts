/**
 * A newcomer on the published data (public/data, with the files the build derives from it): the
 * answer chart is on the first screen and the first per-test chart starts within two screens, at
 * 1400x900 and on a 390x844 phone; and the three questions a newcomer asks are answered on the
 * landing page without scrolling more than two screens, or with one click.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { writeSiteData } from '../../scripts/site-data.mjs';
import { compareVersions } from '../../src/model/versions';
import { openNodeDuckDB } from '../support/node-duckdb.mjs';
import { waitForCharts } from './helpers';

/** The published data with the files the build derives from it (made before the first test). */
let published = '';

test.beforeAll(async () => {
  // The first view of the published data takes minutes to compute on a busy 2-core machine.
  test.setTimeout(600_000);
  published = fs.mkdtempSync(path.join(os.tmpdir(), 'answer-data-'));
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

/** The README headline's counted line for `mode`: its cheapest build and change ("gcc -Ofast", "2.97"). */
function headlineCheapest(mode: string): { build: string; percent: string } {
  const line = fs.readFileSync('README.md', 'utf8').split('\n').find((l) => l.startsWith('- **Instructions per request**')) ?? '';
  const m = new RegExp(`${mode} mode cheapest (.+?) \\(−([\\d.]+)%\\)`).exec(line);
  if (!m?.[1] || !m[2]) throw new Error(`README.md's headline names no cheapest build in ${mode} mode`);
  return { build: m[1], percent: m[2] };
}

/** SET's largest change in instructions per request between consecutive current versions, from the Parquet files. */
async function largestSetChange(): Promise<{ from: string; to: string; mode: string; percent: number }> {
  const { db, run } = await openNodeDuckDB();
  for (const name of ['counts.parquet', 'plan.parquet']) db.registerFileBuffer(name, new Uint8Array(fs.readFileSync(path.join(published, name))));
  const current = run(`select distinct version from read_parquet('plan.parquet') where current`).map((r) => String(r.version)).sort(compareVersions);
  const order = current.map((v, i) => `('${v}', ${i})`).join(', ');
  const [row] = run(`
    with o(version, i) as (values ${order}),
    c as (select version, compiler, flag_set, mode, avg(instructions_per_request) as v
          from read_parquet('counts.parquet') join o using (version) where test = 'SET' and status = 'ok' group by all),
    p as (select a.version as from_v, b.version as to_v, a.mode, 100 * (b.v / a.v - 1) as pct
          from c a join o oa on oa.version = a.version join o ob on ob.i = oa.i + 1
          join c b on b.version = ob.version and b.compiler = a.compiler and b.flag_set = a.flag_set and b.mode = a.mode)
    select from_v, to_v, mode, median(pct) as pct from p group by all order by abs(median(pct)) desc limit 1`);
  if (!row) throw new Error('the published counts hold no SET change between current versions');
  return { from: String(row.from_v), to: String(row.to_v), mode: String(row.mode), percent: Number(row.pct) };
}

/** Where an element's box lies in the document (CSS pixels from the top of the page). */
const documentBox = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((el) => {
    const box = el.getBoundingClientRect();
    return { top: box.top + window.scrollY, bottom: box.bottom + window.scrollY };
  });

for (const screen of [{ name: 'desktop', width: 1400, height: 900, mobile: false }, { name: 'phone', width: 390, height: 844, mobile: true }]) {
  test.describe(`at ${screen.width}x${screen.height}`, () => {
    test.use({ viewport: { width: screen.width, height: screen.height }, isMobile: screen.mobile, hasTouch: screen.mobile });

    test('the answer chart is on the first screen and the first per-test chart starts within two screens', async ({ page }) => {
      await page.goto('./');
      await waitForCharts(page);
      await expect(page.locator('#answer .answer-chart').first()).toBeVisible();
      // Let the header, the notices and the rounds settle: they must not push the charts down.
      await page.waitForFunction(() => performance.getEntriesByName('page:ready').length > 0, null, { timeout: 60_000 });
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const answer = await documentBox(page, '#answer .answer-chart');
      expect(answer.bottom).toBeLessThanOrEqual(screen.height);
      const firstChart = await documentBox(page, 'figure[data-chart-key]');
      expect(firstChart.top).toBeLessThanOrEqual(2 * screen.height);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    });
  });
}

test.describe('a newcomer at 1400x900', () => {
  test.use({ viewport: { width: 1400, height: 900 } });

  test('finds the fastest build in pipe mode and by how much, on the first screen', async ({ page }) => {
    await page.goto('./');
    const { build, percent } = headlineCheapest('pipe');
    const sentence = page.locator('#answer figure[data-mode="pipe"] .answer-sentence');
    await expect(sentence).toContainText(`In pipe mode, ${build} runs ${percent}% fewer instructions per request than gcc -O2`);
    // The chart draws it first, and the sentence is on the first screen.
    await expect(page.locator('#answer figure[data-mode="pipe"] g.answer-row').first()).toHaveAttribute('data-build', build);
    expect((await documentBox(page, '#answer figure[data-mode="pipe"] .answer-sentence')).bottom).toBeLessThanOrEqual(900);
    // And what measured speed says in pipe mode (interleaved rounds), beside it.
    await expect(page.locator('#answer .answer-rounds')).toContainText('Interleaved rounds', { timeout: 60_000 });
  });

  test('finds what LTO is worth with one click', async ({ page }) => {
    await page.goto('./');
    await waitForCharts(page);
    await page.locator('[data-tab="factors"]').click();
    await expect(page).toHaveURL(/section=factors/);
    const factors = page.locator('#section-factors');
    await expect(factors).toBeVisible();
    await expect(factors).toContainText('LTO (-flto) on vs off', { timeout: 60_000 });
    await expect(factors).toContainText('%');
    expect((await documentBox(page, '#section-factors')).top).toBeLessThanOrEqual(2 * 900);
  });

  test('finds which release made SET cheaper or dearer the most with one click', async ({ page }) => {
    // The answer, computed apart from the site's queries: SET's instructions per request, each
    // configuration's mean over its repeats, from one current version to the next; the pair and
    // mode whose median change over the configurations is the largest.
    const expected = await largestSetChange();
    await page.goto('./');
    await waitForCharts(page);
    await page.locator('[data-tab="changes"]').click();
    await expect(page).toHaveURL(/section=changes/);
    const changes = page.locator('#section-changes');
    await expect(changes).toBeVisible();
    expect((await documentBox(page, '#section-changes')).top).toBeLessThanOrEqual(2 * 900);
    // Listed under its pair, in its mode, with its size (the entry's ratio is over the configurations
    // that changed, so it may differ from the median by a little).
    const entry = changes.locator(`li[data-test="SET"][data-mode="${expected.mode}"][data-pair="${expected.from}>${expected.to}"]`);
    await expect(entry).toBeVisible({ timeout: 60_000 });
    const shown = /([+−-])(\d+(?:\.\d+)?)%/.exec((await entry.textContent()) ?? '');
    expect(shown, 'the entry states its change in percent').not.toBeNull();
    const percent = Number(shown?.[2]) * (shown?.[1] === '+' ? 1 : -1);
    expect(Math.abs(percent - expected.percent)).toBeLessThan(1.5);
    // No other SET entry of the current versions is larger.
    const sizes = await changes.locator('li[data-test="SET"]').evaluateAll((items) => items.map((li) => {
      const m = /[+−-](\d+(?:\.\d+)?)%/.exec(li.textContent ?? '');
      return m ? Number(m[1]) : 0;
    }));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(Math.abs(percent));
  });

  test('an open section does not push the charts below two screens, and a section link opens its tab', async ({ page }) => {
    await page.goto('./?section=summary');
    await waitForCharts(page);
    await expect(page.locator('#section-summary')).toBeVisible();
    await expect(page.locator('#section-factors')).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 0));
    expect((await documentBox(page, 'figure[data-chart-key]')).top).toBeLessThanOrEqual(2 * 900);
  });
});
