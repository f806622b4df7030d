// @ts-check
/**
 * `npm run bench`: how fast the built site is, in headless Chromium against `vite preview` on
 * localhost, with a cold cache for every run (a new browser context each time). Prints medians of
 * BENCH_RUNS runs (default 5) and writes every figure to test-results/bench.json.
 *
 * Data: a synthetic dataset the size of the complete matrix (11 versions x 12 configurations x 21
 * tests x 2 modes x 3 repeats = 16,632 result rows, 42 charts), made by the fixture generator;
 * BENCH_DATA=public/data measures the real published data instead.
 *
 * Figures:
 *   first chart   navigation start -> the first charts painted (the app's mark after a frame)
 *   all charts    navigation start -> every chart painted
 *   page ready    navigation start -> every chart's drilldowns prefetched (the app's page:ready
 *                 mark: header and analysis filled in, the page idle, the one all-charts query done)
 *   drilldown     a click on a version bar -> its configurations drawn and a frame painted:
 *                 once the page is ready, a synthetic click with no pointer before it, and a click
 *                 after hovering; and an early click, the moment all charts are painted (before the
 *                 prefetch: it queries, and competes with the header's queries)
 *   JS / wasm     bytes the page requested, each file gzipped (level 9, as a static host would)
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { chromium } from '@playwright/test';
import { BASE_PATH, buildSite } from '../e2e/build-site.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PORT = 4330;
const outDir = path.join(root, 'dist-bench');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** @param {number[]} xs */
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};

function dataset() {
  if (process.env.BENCH_DATA) return { dir: path.resolve(root, process.env.BENCH_DATA), label: process.env.BENCH_DATA };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-data-'));
  execFileSync('node', [path.join(root, 'tests/fixtures/make-fixtures.mjs'), '--full', '--out', dir], { stdio: 'ignore' });
  return { dir, label: 'synthetic full-size matrix (11 versions x 12 configurations x 21 tests x 2 modes x 3 repeats)' };
}

/** @param {string} url */
async function waitForServer(url) {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`preview server did not start at ${url}`);
}

/**
 * Clicks a version bar of `key` and resolves with ms until its drilldown is drawn and painted.
 * @param {import('@playwright/test').Page} page
 * @param {string} key
 * @param {string} version
 * @param {boolean} hoverFirst
 * @returns {Promise<number>}
 */
async function drilldown(page, key, version, hoverFirst) {
  const selector = `figure[data-chart-key="${key}"] g.bar[data-key="${version}"]`;
  if (hoverFirst) {
    await page.hover(selector);
    await page.waitForTimeout(150);
  }
  return page.evaluate(
    ([sel, k, v]) =>
      /** @type {Promise<number>} */ (new Promise((resolve) => {
        const figure = document.querySelector(`figure[data-chart-key="${k}"]`);
        const target = document.querySelector(sel);
        if (!(figure instanceof HTMLElement) || !target) throw new Error(`no bar ${sel}`);
        const t0 = performance.now();
        const done = () => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
        new MutationObserver((_, observer) => {
          if (figure.dataset.drill === v && figure.querySelectorAll('g.bar').length > 0) {
            observer.disconnect();
            done();
          }
        }).observe(figure, { attributes: true, subtree: true, childList: true });
        target.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      })),
    /** @type {[string, string, string]} */ ([selector, key, version]),
  );
}

async function main() {
  const data = dataset();
  await buildSite({ outDir, dataDir: data.dir });
  const server = spawn('npx', ['vite', 'preview', '--outDir', outDir, '--port', String(PORT), '--strictPort'], {
    cwd: root,
    env: { ...process.env, BASE_PATH },
    stdio: 'ignore',
    detached: true,
  });
  const url = `http://127.0.0.1:${PORT}${BASE_PATH}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const load = [os.loadavg()[0]];
  /** @type {{first: number, all: number, dbReady: number, tablesReady: number, ready: number, drillEarly: number, drillCold: number, drillHovered: number}[]} */
  const runs = [];
  /** @type {Set<string>} */
  const requested = new Set();
  let charts = 0;
  try {
    await waitForServer(url);
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      const page = await context.newPage();
      context.on('requestfinished', (r) => requested.add(new URL(r.url()).pathname));
      await page.goto(url);
      await page.waitForFunction(() => performance.getEntriesByName('charts:all-painted').length > 0, null, { timeout: 60_000 });
      const marks = await page.evaluate(() =>
        Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])),
      );
      charts = await page.locator('figure[data-chart-key]').count();
      const keys = await page.locator('figure[data-chart-key]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-chart-key') ?? ''));
      const versionOf = async (/** @type {string} */ key) =>
        page.locator(`figure[data-chart-key="${key}"] g.bar[data-status="ok"]`).last().getAttribute('data-key');
      const earlyKey = keys[4 + (i % (keys.length - 10))] ?? '';
      const coldKey = keys[5 + (i % (keys.length - 10))] ?? '';
      const hotKey = keys[6 + (i % (keys.length - 10))] ?? '';
      const drillEarly = await drilldown(page, earlyKey, (await versionOf(earlyKey)) ?? '', false);
      await page.waitForFunction(() => performance.getEntriesByName('page:ready').length > 0, null, { timeout: 60_000 });
      const ready = await page.evaluate(() => performance.getEntriesByName('page:ready')[0]?.startTime ?? NaN);
      const drillCold = await drilldown(page, coldKey, (await versionOf(coldKey)) ?? '', false);
      const drillHovered = await drilldown(page, hotKey, (await versionOf(hotKey)) ?? '', true);
      runs.push({
        first: marks['charts:first-painted'] ?? NaN,
        all: marks['charts:all-painted'] ?? NaN,
        dbReady: marks['duckdb:ready'] ?? NaN,
        tablesReady: marks['tables:ready'] ?? NaN,
        ready,
        drillEarly,
        drillCold,
        drillHovered,
      });
      await context.close();
    }
  } finally {
    await browser.close();
    if (server.pid) process.kill(-server.pid);
  }
  load.push(os.loadavg()[0]);

  const gzipOf = (/** @type {(p: string) => boolean} */ keep) =>
    [...requested].filter(keep).reduce((sum, p) => {
      const file = path.join(outDir, p.slice(BASE_PATH.length));
      return fs.existsSync(file) ? sum + zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length : sum;
    }, 0);
  const js = gzipOf((p) => p.endsWith('.js'));
  const wasm = gzipOf((p) => p.endsWith('.wasm'));
  const dataBytes = gzipOf((p) => p.endsWith('.parquet'));
  const summary = {
    data: data.label,
    runs: RUNS,
    charts,
    load1: load,
    median_ms: {
      first_chart: median(runs.map((r) => r.first)),
      all_charts: median(runs.map((r) => r.all)),
      duckdb_ready: median(runs.map((r) => r.dbReady)),
      tables_ready: median(runs.map((r) => r.tablesReady)),
      page_ready: median(runs.map((r) => r.ready)),
      drilldown_early_click: median(runs.map((r) => r.drillEarly)),
      drilldown_click_to_redraw: median(runs.map((r) => r.drillCold)),
      drilldown_after_hover: median(runs.map((r) => r.drillHovered)),
    },
    gzip_bytes: { javascript: js, wasm, parquet: dataBytes },
    every_run: runs,
  };
  fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'test-results/bench.json'), `${JSON.stringify(summary, null, 2)}\n`);

  const ms = (/** @type {number} */ v) => `${Math.round(v)} ms`;
  const kb = (/** @type {number} */ v) => `${(v / 1024).toFixed(1)} KiB`;
  const m = summary.median_ms;
  console.log(`site benchmark: ${data.label}; ${charts} charts; median of ${RUNS} cold runs; load average ${load.map((l) => (l ?? NaN).toFixed(2)).join(' -> ')}`);
  console.log(`  first chart painted        ${ms(m.first_chart).padStart(9)}   (target < 1500 ms)`);
  console.log(`  all charts painted         ${ms(m.all_charts).padStart(9)}   (target < 2500 ms)`);
  console.log(`  page ready (prefetched)    ${ms(m.page_ready).padStart(9)}`);
  console.log(`  drilldown click -> redraw  ${ms(m.drilldown_click_to_redraw).padStart(9)}   (target < 50 ms; page ready, no pointer before it; ${ms(m.drilldown_after_hover)} after hovering)`);
  console.log(`  early drilldown click      ${ms(m.drilldown_early_click).padStart(9)}   (the moment all charts are painted, before the prefetch)`);
  console.log(`  DuckDB ready / tables      ${ms(m.duckdb_ready)} / ${ms(m.tables_ready)}`);
  console.log(`  JavaScript, gzip           ${kb(js).padStart(12)}   (target < 250 KiB; DuckDB worker included)`);
  console.log(`  wasm, gzip                 ${kb(wasm).padStart(12)}`);
  console.log(`  data (Parquet), gzip       ${kb(dataBytes).padStart(12)}`);
  console.log('  written to test-results/bench.json');
}

await main();
