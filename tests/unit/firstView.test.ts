/**
 * The first view (data/first-view.json) and the further answer files it names, written at build
 * time by scripts/siteData.ts, draw exactly the bars the engine draws: values, whiskers, winners
 * and noise marks of every chart, on the published data and on the fixtures; the page answers
 * only their queries from them, and fetches a file only for a query it answers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createChartData, FIRST_CHUNK, verdictKey } from '../../src/views/chartData';
import { compilerColors } from '../../src/chart/palette';
import { DRILLDOWNS_FILE, firstViewQueries } from '../../src/app/firstViewQueries';
import { decodeRows } from '../../src/data/columns';
import { answeringRunner, sameFiles } from '../../src/data/firstView';
import { TABLES, tableFile } from '../../src/sql/schema';
import type { Catalog } from '../../src/data/tables';
import { versionBar } from '../../src/model/bars';
import { METRICS, metricOf } from '../../src/vocabulary';
import { chartKey, DEFAULTS } from '../../src/model/state';
import { configBarsQuery, type VersionRow } from '../../src/sql/charts';
import type { Query, QueryRunner } from '../../src/sql/query';
import { DRILLDOWN_BUNDLE_BYTES, firstViewOf, type SiteAnswers } from '../../scripts/siteData';
import { openDataDirDb, rewrittenFixture } from '../support/fixture-db';

// These tests compute every chart and section of the published data, in both metrics, with the
// engine (minutes on a 2-core machine): a time limit of their own, not the suite's 2 minutes.
vi.setConfig({ testTimeout: 900_000, hookTimeout: 900_000 });

const here = path.dirname(fileURLToPath(import.meta.url));
const publishedData = path.resolve(here, '../../public/data');
const fixtureDir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-view-fixtures-'));
for (const table of TABLES) {
  fs.copyFileSync(path.resolve(here, '../fixtures', `fixture-${tableFile(table)}`), path.join(fixtureDir, tableFile(table)));
}
// The fixture with two releases that are not current: the charts show the current versions alone by default.
const NOT_CURRENT = ['3.0.7', '6.2.16'];
const partlyCurrentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-view-partly-current-'));
for (const table of TABLES) fs.copyFileSync(path.join(fixtureDir, tableFile(table)), path.join(partlyCurrentDir, tableFile(table)));
fs.writeFileSync(
  path.join(partlyCurrentDir, tableFile('plan')),
  await rewrittenFixture('plan', `SELECT * REPLACE (version NOT IN ('${NOT_CURRENT.join("', '")}') AS "current") FROM fixture`),
);
afterAll(() => {
  for (const dir of [fixtureDir, partlyCurrentDir]) fs.rmSync(dir, { recursive: true, force: true });
});

/** A runner standing for an engine that is not there: any query it gets fails the test. */
const noEngine: QueryRunner = {
  run: <Row>(q: Query<Row>) => Promise.reject(new Error(`the engine was asked: ${q.sql.slice(0, 80)}`)),
};

/** Every chart's version bars in the default state, as the page draws them from `runner`. */
async function drawnBars(runner: QueryRunner, catalog: Catalog) {
  const data = createChartData(runner, catalog.versions, catalog.charts, catalog.currentVersions);
  const colorOf = compilerColors(catalog.compilers);
  const [rows, verdicts] = await Promise.all([data.versionRows(DEFAULTS), data.verdicts(DEFAULTS)]);
  return catalog.charts.map(({ mode, test }) => {
    const key = chartKey(mode, test);
    return { key, bars: (rows.get(key) ?? []).map((r) => versionBar(r, colorOf, verdicts.get(verdictKey(key, r.version)))) };
  });
}

const written = new Map<string, Promise<string>>();

/**
 * The files the build writes for `dir` (computed once per folder and budget), as the page reads
 * them (parsed from JSON); the drilldowns in one file up to `drilldownBundleBytes` (default: the build's).
 */
async function published(dir: string, drilldownBundleBytes = DRILLDOWN_BUNDLE_BYTES): Promise<SiteAnswers> {
  const key = `${dir}|${drilldownBundleBytes}`;
  if (!written.has(key)) written.set(key, firstViewOf(dir, { drilldownBundleBytes }).then((site) => JSON.stringify(site)));
  return JSON.parse(await (written.get(key) ?? '')) as SiteAnswers;
}

/** Loads further answer files from `site`, recording which, in order. */
function fileLoader(site: SiteAnswers): ((file: string) => Promise<SiteAnswers['files'][string]['answers']>) & { loaded: string[] } {
  const loaded: string[] = [];
  return Object.assign((file: string) => {
    loaded.push(file);
    const answers = site.files[file]?.answers;
    return answers ? Promise.resolve(answers) : Promise.reject(new Error(`no file ${file}`));
  }, { loaded });
}

describe.each([
  ['the published data', publishedData],
  ['the fixture dataset', fixtureDir],
  ['the fixture dataset with releases that are not current', partlyCurrentDir],
])('the first view of %s', (_name, dir) => {
  it('draws the same bars (values, whiskers, winners, noise marks) for every chart as the engine, without asking it', async () => {
    const site = await published(dir);
    const { view } = site;
    const engine = await openDataDirDb(dir);
    expect(view.catalog).toEqual(engine.catalog);
    const precomputed = await drawnBars(answeringRunner(view, noEngine, fileLoader(site)), view.catalog);
    const queried = await drawnBars(engine.runner, engine.catalog);
    expect(precomputed.length).toBe(engine.catalog.charts.length);
    // Bars with a figure, a whisker and a verdict (the winner's standing is in their names) are compared.
    expect(precomputed.flatMap((c) => c.bars).some((b) => b.value !== null && typeof b.low === 'number' && b.ariaLabel.includes('runner-up'))).toBe(true);
    expect(precomputed).toEqual(queried);
  });

  it("answers every precomputed query (charts, header, sections, drilldowns) with the engine's rows, and only those", async () => {
    const site = await published(dir);
    const engine = await openDataDirDb(dir);
    const runner = answeringRunner(site.view, noEngine, fileLoader(site));
    const { paint, files, drilldowns } = firstViewQueries(site.view.catalog);
    // A file of drilldowns per chart and instrument.
    expect(drilldowns.length).toBe(2 * site.view.catalog.charts.length);
    for (const q of [...paint, ...[...files, ...drilldowns].flatMap((f) => f.queries)]) expect(await runner.run(q), q.sql).toEqual(await engine.runner.run(q));
    const chart = site.view.catalog.charts[1];
    // Both instruments the page opens on or switches to are precomputed; another metric is asked of the engine.
    await expect(runner.run(configBarsQuery(chart?.mode ?? '', chart?.test ?? '', METRICS.cycles))).rejects.toThrow('the engine was asked');
  });

  it('keeps every chart\'s drilldowns in one file, fetched once the page is idle, while they are small', async () => {
    // Small: below the bundle's limit, here raised above the published data's (every release is planned).
    const site = await published(dir, Number.MAX_SAFE_INTEGER);
    expect(site.view.prefetch).toEqual([DRILLDOWNS_FILE]);
    // Each chart's drilldowns in instructions per request and in requests/second.
    expect(site.files[DRILLDOWNS_FILE]?.answers).toHaveLength(2 * site.view.catalog.charts.length);
    expect(Object.keys(site.files).filter((f) => f.includes('/drilldowns/'))).toEqual([]);
    const load = fileLoader(site);
    const chart = site.view.catalog.charts[5];
    await answeringRunner(site.view, noEngine, load).run(configBarsQuery(chart?.mode ?? '', chart?.test ?? '', metricOf(DEFAULTS.metric)));
    expect(load.loaded).toEqual([DRILLDOWNS_FILE]);
  });

  it("holds the first charts' bars in the first view, and fetches a chart's drilldown file, and only it, for its drilldowns when they are large", async () => {
    const site = await published(dir, 0);
    expect(site.view.prefetch).toEqual([]);
    const { view } = site;
    const load = fileLoader(site);
    const runner = answeringRunner(view, noEngine, load);
    const data = createChartData(runner, view.catalog.versions, view.catalog.charts, view.catalog.currentVersions);
    const keys = view.catalog.charts.map((c) => chartKey(c.mode, c.test));
    for (const key of keys.slice(0, FIRST_CHUNK)) expect(await data.chartRows(DEFAULTS, key)).toHaveLength(view.catalog.currentVersions.length);
    await data.chartVerdicts(DEFAULTS, keys[0] ?? '');
    expect(load.loaded).toEqual([]);
    const drawnFirst = view.answers.flatMap((a) => decodeRows<VersionRow>(a.rows)).filter((r) => 'ok_cells' in r);
    expect(new Set(drawnFirst.map((r) => chartKey(r.mode, r.test)))).toEqual(new Set(keys.slice(0, FIRST_CHUNK)));

    const chart = view.catalog.charts[5];
    const drill = await data.configRows(chart?.mode ?? '', chart?.test ?? '', DEFAULTS.metric);
    expect(drill.size).toBe(view.catalog.versions.length);
    expect(load.loaded).toHaveLength(1);
    const [file = ''] = load.loaded;
    expect(file).toMatch(/^first-view\/drilldowns\/05-/);
    expect(file).not.toMatch(/-rps\.json$/);
    expect(site.files[file]?.answers).toHaveLength(1);
    // Requests/second's drilldowns are a file of their own, fetched when they are asked for.
    const rps = await data.configRows(chart?.mode ?? '', chart?.test ?? '', 'rps');
    expect(rps.size).toBe(view.catalog.versions.length);
    await data.chartRows(DEFAULTS, keys[5] ?? '');
    expect(load.loaded).toEqual([file, file.replace(/\.json$/, '-rps.json'), 'first-view/charts.json']);
  });

  it('names the byte size of every data file it was made from', async () => {
    const { view } = await published(dir);
    const sizes = Object.fromEntries(TABLES.filter((t) => fs.existsSync(path.join(dir, tableFile(t)))).map((t) => [t, fs.statSync(path.join(dir, tableFile(t))).size]));
    expect(sameFiles(view, sizes)).toBe(true);
    expect(sameFiles(view, { ...sizes, results: (sizes.results ?? 0) + 1 })).toBe(false);
  });
});

describe('the first view when the plan marks releases that are not current', () => {
  it("holds the current versions' noise verdicts alone (as they are among every release), and every release's in a file fetched when every release is shown", async () => {
    const site = await published(partlyCurrentDir);
    const { view } = site;
    expect(view.catalog.currentVersions).toEqual(view.catalog.versions.filter((v) => !NOT_CURRENT.includes(v)));
    const verdictRows = [...view.answers, ...(site.files['first-view/charts.json']?.answers ?? [])]
      .flatMap((a) => decodeRows<Record<string, unknown>>(a.rows)).filter((r) => 'winner_call' in r);
    expect(verdictRows.length).toBeGreaterThan(0);
    expect(verdictRows.filter((r) => NOT_CURRENT.includes(String(r.version)))).toEqual([]);
    // 7.2.6 is current; the release before it (6.2.16) is not: its change is still against 6.2.16.
    expect(verdictRows.filter((r) => r.version === '7.2.6').map((r) => r.prev_version)).toContain('6.2.16');

    const engine = await openDataDirDb(partlyCurrentDir);
    const load = fileLoader(site);
    const data = createChartData(answeringRunner(view, noEngine, load), view.catalog.versions, view.catalog.charts, view.catalog.currentVersions);
    const queried = createChartData(engine.runner, engine.catalog.versions, engine.catalog.charts, engine.catalog.currentVersions);
    const every = { ...DEFAULTS, releases: 'all' as const };
    expect(await data.verdicts(DEFAULTS)).toEqual(await queried.verdicts(DEFAULTS));
    expect(load.loaded).toEqual(['first-view/charts.json']);
    const all = await data.verdicts(every);
    expect(load.loaded.slice(1)).toEqual(['first-view/every-release-verdicts.json']);
    expect(all).toEqual(await queried.verdicts(every));
    expect([...all.values()].filter((r) => NOT_CURRENT.includes(r.version)).length).toBeGreaterThan(0);
  });
});
