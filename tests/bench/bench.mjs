// @ts-check
/**
 * `npm run bench`: how fast the built site is against its two floors, in one run: headless
 * Chromium against `vite preview` on localhost (a server per dataset), a cold cache for every load
 * (a new browser context each time), BENCH_RUNS rounds (default 9) of one load of each page on
 * each dataset, interleaved: in a round each page is loaded on every dataset back to back, pages
 * and datasets in an order that rotates from round to round, so a load that drifts during the run
 * weighs on every page and dataset alike. Prints medians, ratios, the targets and the load
 * average; the first chart's growth from one dataset to the other comes from the rounds' paired
 * loads. Writes every figure to test-results/bench.json.
 *
 * Pages:
 *   site          the built site (its first view, DuckDB-WASM loading behind it), in its default
 *                 metric (instructions per request)
 *   site-rps      the same site from a deep link to requests/second (`?metric=rps`): its charts
 *                 from first-view/charts-rps.json, which index.html preloads with the first view
 *   DuckDB floor  tests/bench/floors/duckdb.html: a bare DuckDB-WASM page that fetches the Parquet
 *                 files, prepares the tables and runs the version bars query as the site does,
 *                 and draws every chart with the site's chart module; nothing else
 *   static floor  tests/bench/floors/static.html: the same charts from a precomputed JSON file
 *                 (the site's first view), no database
 *
 * Data (BENCH_DATA, comma-separated; default both): `public/data` (the published results) and
 * `every-release` (tests/fixtures/make-fixtures.mjs --every-release: 158 versions x 12
 * configurations x 21 tests x 2 modes, 3 repeats of the 11 current versions and 1 of the others,
 * generated into a temporary folder); or any folder of Parquet files.
 *
 * Figures, from navigation start:
 *   first chart   the first four charts painted (the page's mark after a frame)
 *   all charts    every chart painted
 *   page ready    the site idle after its own work (page:ready: every chart, the header, the
 *                 answer's rounds and the noise verdicts drawn, the sections in view asked, the
 *                 drilldowns at hand when they are one file (else those of the charts near the
 *                 screen), the other metric's charts (requests/second, or from there instructions)
 *                 fetched, and the engine started)
 *   engine ready  the site's DuckDB-WASM with the tables prepared (tables:ready): the console,
 *                 other ranges and metrics, the status grid and the lazy columns need it
 *   metric switch once the page is ready, a click on the other metric (site: requests/second,
 *                 site-rps: instructions per request), timed from the click event: in view = the
 *                 charts on screen drawn in it and painted (charts:in-view; the target), all charts
 *                 = every chart drawn in it (charts:drawn) and a frame painted after
 *   drilldown     a click on a version bar of a chart scrolled into view (three frames before the
 *                 click: its card painted) -> its configurations drawn and a frame painted: once
 *                 the page is ready, and an early one, as soon as all charts are painted (the
 *                 engine may still be loading); a synthetic click with no pointer before it; on
 *                 both site pages (site-rps: in requests/second)
 *   JS / wasm     bytes the site requested, each file gzipped (level 9, as a static host would)
 *   data at start bytes of data files (Parquet, JSON) the site requested before page ready, gzipped
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
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const PORT = 4330;
const benchDir = path.join(root, 'dist-bench');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const PAGES = /** @type {const} */ (['site', 'site-rps', 'duckdb', 'static']);
/** The metric control's labels: a load of each site page switches to the other metric once ready. */
const SWITCH_TO = { site: 'requests/s', 'site-rps': 'instr/req (counted)' };

/** @param {number[]} xs */
const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};

/**
 * The data folder, label and site folder (under dist-bench/) of one BENCH_DATA entry.
 * @param {string} name
 * @returns {Dataset} (temporary: a folder made for this run, removed at its end)
 */
function dataset(name) {
  const outDir = path.join(benchDir, name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, ''));
  if (name !== 'every-release') return { dir: path.resolve(root, name), label: name, outDir };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-every-release-'));
  execFileSync('node', [path.join(root, 'tests/fixtures/make-fixtures.mjs'), '--every-release', '--out', dir], { stdio: 'ignore' });
  return { dir, temporary: true, label: 'every-release (synthetic: 158 versions x 12 configurations x 21 tests x 2 modes; 3 repeats of the 11 current versions, 1 of the others)', outDir };
}

/**
 * Builds the floor pages into the site's floors/ folder unless they are newer than their sources.
 * @param {string} outDir
 */
function buildFloors(outDir) {
  const stamp = path.join(outDir, 'floors', '.built');
  const sources = [path.join(root, 'tests/bench/floors'), path.join(root, 'src'), path.join(root, 'tests/bench/vite.floors.config.ts')];
  /** @param {string} p @returns {number} */
  const newest = (p) => (fs.statSync(p).isDirectory() ? Math.max(0, ...fs.readdirSync(p).map((n) => newest(path.join(p, n)))) : fs.statSync(p).mtimeMs);
  if (fs.existsSync(stamp) && Math.max(...sources.map(newest)) < fs.statSync(stamp).mtimeMs) return;
  execFileSync('npx', ['vite', 'build', '--config', 'tests/bench/vite.floors.config.ts', '--outDir', path.join(outDir, 'floors'), '--emptyOutDir'], {
    cwd: root, stdio: 'inherit', env: { ...process.env, BASE_PATH },
  });
  fs.writeFileSync(stamp, new Date().toISOString());
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
 * Scrolls the chart `key` into view and lets three frames pass (its card painted: the bar a reader
 * clicks is on screen), then clicks its version bar `version` and resolves with ms until its
 * drilldown is drawn and painted.
 * @param {import('@playwright/test').Page} page
 * @param {string} key
 * @param {string} version
 * @returns {Promise<number>}
 */
async function drilldown(page, key, version) {
  return page.evaluate(
    ([k, v]) =>
      /** @type {Promise<number>} */ (new Promise((resolve) => {
        const figure = document.querySelector(`figure[data-chart-key="${k}"]`);
        const target = figure?.querySelector(`g.bar[data-key="${v}"]`);
        if (!(figure instanceof HTMLElement) || !target) throw new Error(`no bar ${v} in ${k}`);
        figure.scrollIntoView({ block: 'center' });
        requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => {
          const t0 = performance.now();
          const done = () => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
          new MutationObserver((_, observer) => {
            if (figure.dataset.drill === v && figure.querySelectorAll('g.bar').length > 0) {
              observer.disconnect();
              done();
            }
          }).observe(figure, { attributes: true, subtree: true, childList: true });
          target.dispatchEvent(new MouseEvent('click', { bubbles: true }));
        })));
      })),
    /** @type {[string, string]} */ ([key, version]),
  );
}

/** @param {import('@playwright/test').Page} page */
const marks = (page) => page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])));

/**
 * One cold load of the site: its marks, and the drilldown timings.
 * @param {import('@playwright/test').Page} page
 * @param {string} url
 * @param {number} i
 * @param {string} switchTo the metric control's label to switch to once the page is ready
 */
async function loadSite(page, url, i, switchTo) {
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('charts:all-painted').length > 0, null, { timeout: 120_000 });
  const keys = await page.locator('figure[data-chart-key]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-chart-key') ?? ''));
  const versionOf = async (/** @type {string} */ key) =>
    (await page.locator(`figure[data-chart-key="${key}"] g.bar[data-status="ok"]`).last().getAttribute('data-key')) ?? '';
  const pick = (/** @type {number} */ offset) => keys[(offset + i) % keys.length] ?? '';
  const early = pick(4);
  const drillEarly = await drilldown(page, early, await versionOf(early));
  await page.waitForFunction(() => performance.getEntriesByName('page:ready').length > 0, null, { timeout: 120_000 });
  const later = pick(5);
  const drillReady = await drilldown(page, later, await versionOf(later));
  const m = await marks(page);
  await page.waitForFunction(() => performance.getEntriesByName('tables:ready').length > 0, null, { timeout: 120_000 });
  const m2 = await marks(page);
  const switched = await metricSwitch(page, switchTo);
  return {
    first: m['charts:first-painted'] ?? NaN, all: m['charts:all-painted'] ?? NaN, ready: m['page:ready'] ?? NaN,
    engine: m2['tables:ready'] ?? NaN, drillEarly, drillReady, switchInView: switched.inView, switchAll: switched.all, charts: keys.length,
  };
}

/**
 * A click on the metric control's `label` -> the charts on screen drawn in that metric and
 * painted (the next charts:in-view mark, which the page sets a frame after drawing them), and
 * every chart drawn (the next charts:drawn mark) and a frame painted after it; in ms from the
 * click event (the first click listener's time: Playwright's own work to find and reach the
 * control before it is not counted).
 * @param {import('@playwright/test').Page} page
 * @param {string} label
 * @returns {Promise<{ inView: number, all: number }>}
 */
async function metricSwitch(page, label) {
  await page.evaluate(() => {
    /** @type {any} */ (window).benchSwitch = new Promise((resolve) => {
      addEventListener('click', () => {
        const t0 = performance.now();
        const after = (/** @type {string} */ name) => performance.getEntriesByName(name).find((e) => e.startTime > t0)?.startTime;
        new PerformanceObserver((_, observer) => {
          if (after('charts:drawn') === undefined) return;
          observer.disconnect();
          requestAnimationFrame(() => setTimeout(() => resolve({ inView: (after('charts:in-view') ?? NaN) - t0, all: performance.now() - t0 }), 0));
        }).observe({ type: 'mark' });
      }, { capture: true, once: true });
    });
  });
  await page.getByText(label, { exact: true }).click();
  return page.evaluate(() => /** @type {any} */ (window).benchSwitch);
}

/**
 * One cold load of a floor page: its marks.
 * @param {import('@playwright/test').Page} page
 * @param {string} url
 */
async function loadFloor(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('charts:all-painted').length > 0, null, { timeout: 120_000 });
  const m = await marks(page);
  return { first: m['charts:first-painted'] ?? NaN, all: m['charts:all-painted'] ?? NaN };
}

/** @typedef {{ dir: string, label: string, outDir: string, temporary?: boolean }} Dataset */
/** @typedef {{ site: Awaited<ReturnType<typeof loadSite>>[], 'site-rps': Awaited<ReturnType<typeof loadSite>>[], duckdb: Awaited<ReturnType<typeof loadFloor>>[], static: Awaited<ReturnType<typeof loadFloor>>[] }} Runs */

/**
 * Builds each dataset's site and floors, serves each on a port of its own, and loads every page
 * on every dataset once per round, RUNS rounds: in round i the pages and the datasets start at
 * the i-th of their lists (rotating), each page loaded on the datasets back to back.
 * @param {Dataset[]} datasets
 * @param {import('@playwright/test').Browser} browser
 */
async function measureAll(datasets, browser) {
  for (const data of datasets) {
    await buildSite({ outDir: data.outDir, dataDir: data.dir });
    buildFloors(data.outDir);
  }
  const servers = datasets.map((data, k) =>
    spawn('npx', ['vite', 'preview', '--outDir', data.outDir, '--port', String(PORT + k), '--strictPort'], {
      cwd: root, env: { ...process.env, BASE_PATH }, stdio: 'ignore', detached: true,
    }));
  const bases = datasets.map((_, k) => `http://127.0.0.1:${PORT + k}${BASE_PATH}`);
  /** @type {Runs[]} */
  const runs = datasets.map(() => ({ site: [], 'site-rps': [], duckdb: [], static: [] }));
  /** @type {Map<string, number>[]} per dataset: path -> ms of the request's start, its first site load only */
  const requested = datasets.map(() => new Map());
  /** The 1-minute load average before the run and after each round. */
  const load = [os.loadavg()[0] ?? NaN];
  const rotated = (/** @type {number} */ n, /** @type {number} */ i) => Array.from({ length: n }, (_, j) => (i + j) % n);
  try {
    for (const base of bases) await waitForServer(base);
    for (let i = 0; i < RUNS; i++) {
      for (const j of rotated(PAGES.length, i)) {
        const which = PAGES[j] ?? 'site';
        for (const k of rotated(datasets.length, i)) {
          const base = bases[k] ?? '';
          const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
          const page = await context.newPage();
          const dataRuns = /** @type {Runs} */ (runs[k]);
          if (which === 'site' || which === 'site-rps') {
            // What the first load requests, and when (ms after navigation, within a few ms).
            const t0 = Date.now();
            const seen = /** @type {Map<string, number>} */ (requested[k]);
            if (i === 0 && which === 'site') context.on('request', (r) => void seen.set(new URL(r.url()).pathname, Date.now() - t0));
            const run = await loadSite(page, which === 'site' ? base : `${base}?metric=rps`, i, SWITCH_TO[which]);
            dataRuns[which].push(run);
            if (i === 0 && which === 'site') for (const [p, at] of seen) if (p.includes('/data/') && at > run.ready + 200) seen.delete(p);
          } else {
            dataRuns[which].push(await loadFloor(page, `${base}floors/${which}.html`));
          }
          await context.close();
        }
      }
      load.push(os.loadavg()[0] ?? NaN);
    }
  } finally {
    for (const server of servers) if (server.pid) process.kill(-server.pid);
  }
  return { load1: load, results: datasets.map((data, k) => summary(data, /** @type {Runs} */ (runs[k]), /** @type {Map<string, number>} */ (requested[k]))) };
}

/**
 * One dataset's medians and sizes.
 * @param {Dataset} data
 * @param {Runs} runs
 * @param {Map<string, number>} requested
 */
function summary(data, runs, requested) {
  const gzipOf = (/** @type {(p: string) => boolean} */ keep) =>
    [...requested.keys()].filter(keep).reduce((sum, p) => {
      const file = path.join(data.outDir, p.slice(BASE_PATH.length));
      return fs.existsSync(file) ? sum + zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length : sum;
    }, 0);
  const med = (/** @type {Record<string, number>[]} */ rs, /** @type {string} */ k) => median(rs.map((r) => r[k] ?? NaN));
  const site = {
    first: med(runs.site, 'first'), all: med(runs.site, 'all'), ready: med(runs.site, 'ready'), engine: med(runs.site, 'engine'),
    drillEarly: med(runs.site, 'drillEarly'), drillReady: med(runs.site, 'drillReady'),
    switchInView: med(runs.site, 'switchInView'), switchAll: med(runs.site, 'switchAll'),
  };
  const siteRpsLink = {
    first: med(runs['site-rps'], 'first'), all: med(runs['site-rps'], 'all'), ready: med(runs['site-rps'], 'ready'),
    drillReady: med(runs['site-rps'], 'drillReady'), switchInView: med(runs['site-rps'], 'switchInView'), switchAll: med(runs['site-rps'], 'switchAll'),
  };
  const duckdb = { first: med(runs.duckdb, 'first'), all: med(runs.duckdb, 'all') };
  const staticFloor = { first: med(runs.static, 'first'), all: med(runs.static, 'all') };
  return {
    data: data.label,
    charts: runs.site[0]?.charts ?? 0,
    median_ms: { site, site_rps_link: siteRpsLink, duckdb_floor: duckdb, static_floor: staticFloor },
    gzip_bytes: {
      javascript: gzipOf((p) => p.endsWith('.js') && !p.includes('/floors/')),
      wasm: gzipOf((p) => p.endsWith('.wasm') && !p.includes('/floors/')),
      data_at_start: gzipOf((p) => p.includes('/data/')),
    },
    // Files that exist (a file not published is answered with index.html by vite preview).
    data_files_at_start: [...requested.keys()].filter((p) => p.includes('/data/') && fs.existsSync(path.join(data.outDir, p.slice(BASE_PATH.length))))
      .map((p) => p.slice(BASE_PATH.length)).sort(),
    every_run: runs,
  };
}

/**
 * The growth of `b`'s figure over `a`'s, from the rounds' paired loads: the median of each
 * round's ratio, minus 1 (0.2 = 20% more).
 * @param {{ first: number }[]} a
 * @param {{ first: number }[]} b
 */
const pairedGrowth = (a, b) => median(a.map((r, i) => (b[i]?.first ?? NaN) / r.first)) - 1;

/** Prints one dataset's figures with their targets. @param {ReturnType<typeof summary>} r */
function report(r) {
  const ms = (/** @type {number} */ v) => `${Math.round(v).toLocaleString('en-US')} ms`.padStart(9);
  const kb = (/** @type {number} */ v) => `${(v / 1024).toFixed(1)} KiB`;
  const x = (/** @type {number} */ a, /** @type {number} */ b) => `${(a / b).toFixed(2)}x`;
  const ok = (/** @type {boolean} */ met) => (met ? 'met' : 'MISSED');
  const { site, site_rps_link: rpsLink, duckdb_floor: db, static_floor: st } = r.median_ms;
  const g = r.gzip_bytes;
  console.log(`\n${r.data}: ${r.charts} charts; medians of ${RUNS} cold loads per page`);
  console.log(`                      site     DuckDB floor  static floor`);
  console.log(`  first chart    ${ms(site.first)}    ${ms(db.first)}    ${ms(st.first)}   site/static ${x(site.first, st.first)} (target <= 2x: ${ok(site.first <= 2 * st.first)}); site/DuckDB ${x(site.first, db.first)}`);
  console.log(`  all charts     ${ms(site.all)}    ${ms(db.all)}    ${ms(st.all)}   site/static ${x(site.all, st.all)} (target <= 3x: ${ok(site.all <= 3 * st.all)}); site/DuckDB ${x(site.all, db.all)}`);
  console.log(`  ?metric=rps    ${ms(rpsLink.first)}   first chart of a deep link to requests/second, site/static ${x(rpsLink.first, st.first)} (target <= 2x: ${ok(rpsLink.first <= 2 * st.first)})`);
  console.log(`                 ${ms(rpsLink.all)}   all charts of it, site/static ${x(rpsLink.all, st.all)} (target <= 3x: ${ok(rpsLink.all <= 3 * st.all)}); page ready ${ms(rpsLink.ready).trim()} (target <= ${Math.round(db.all + 1000).toLocaleString('en-US')} ms: ${ok(rpsLink.ready <= db.all + 1000)})`);
  console.log(`  metric switch  ${ms(site.switchInView)}   instructions -> requests/second once ready, the charts on screen painted (target <= 300 ms: ${ok(site.switchInView <= 300)}); all charts ${ms(site.switchAll).trim()}`);
  console.log(`                 ${ms(rpsLink.switchInView)}   requests/second -> instructions, the charts on screen painted (target <= 300 ms: ${ok(rpsLink.switchInView <= 300)}); all charts ${ms(rpsLink.switchAll).trim()}`);
  console.log(`  page ready     ${ms(site.ready)}   (target <= DuckDB floor + 1 s = ${Math.round(db.all + 1000).toLocaleString('en-US')} ms: ${ok(site.ready <= db.all + 1000)})`);
  console.log(`  engine ready   ${ms(site.engine)}   (the site's DuckDB-WASM with its tables; the DuckDB floor draws at ${Math.round(db.all).toLocaleString('en-US')} ms)`);
  console.log(`  drilldown      ${ms(site.drillReady)}   once ready (target < 50 ms: ${ok(site.drillReady < 50)}); ${Math.round(site.drillEarly)} ms clicked the moment all charts are painted; ${Math.round(rpsLink.drillReady)} ms once ready in requests/second`);
  console.log(`  JavaScript     ${kb(g.javascript).padStart(12)}   gzip, DuckDB worker included (target < 250 KiB: ${ok(g.javascript < 250 * 1024)}); wasm ${kb(g.wasm)}`);
  console.log(`  data at start  ${kb(g.data_at_start).padStart(12)}   gzip, before page ready: ${r.data_files_at_start.join(', ')}`);
}

async function main() {
  const names = (process.env.BENCH_DATA ?? 'public/data,every-release').split(',').map((s) => s.trim()).filter(Boolean);
  const datasets = names.map(dataset);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  /** @type {Awaited<ReturnType<typeof measureAll>>} */
  let measured;
  try {
    measured = await measureAll(datasets, browser);
  } finally {
    await browser.close();
    for (const data of datasets) if (data.temporary) fs.rmSync(data.dir, { recursive: true, force: true });
  }
  const { load1, results } = measured;
  const [a, b] = results;
  const growth = a && b ? {
    of: `${b.data.split(' ')[0]} against ${a.data.split(' ')[0]}`,
    site_first: pairedGrowth(a.every_run.site, b.every_run.site),
    static_first: pairedGrowth(a.every_run.static, b.every_run.static),
    medians_site_first: b.median_ms.site.first / a.median_ms.site.first - 1,
  } : null;
  fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'test-results/bench.json'), `${JSON.stringify({ runs: RUNS, load1, first_chart_growth: growth, results }, null, 2)}\n`);
  const during = load1.slice(1);
  console.log(`site benchmark (Chromium, cold cache, vite preview on localhost); uptime: ${execFileSync('uptime').toString().trim()}`);
  console.log(`${RUNS} rounds, pages and datasets interleaved; load average (1 min) ${load1[0]?.toFixed(2)} before, ${Math.min(...during).toFixed(2)}-${Math.max(...during).toFixed(2)} after each round (${during.map((l) => l.toFixed(1)).join(' ')})`);
  results.forEach(report);
  if (growth) {
    const pct = (/** @type {number} */ g) => `${g >= 0 ? '+' : ''}${(g * 100).toFixed(0)}%`;
    console.log(`\nfirst chart, ${growth.of}, median of the ${RUNS} rounds' paired ratios: ${pct(growth.site_first)} (target <= +20%: ${growth.site_first <= 0.2 ? 'met' : 'MISSED'}); static floor ${pct(growth.static_first)}; ratio of the medians ${pct(growth.medians_site_first)}`);
  }
  console.log('every figure: test-results/bench.json');
}

await main();
