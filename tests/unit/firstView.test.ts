/**
 * The first view (data/first-view.json, written at build time by scripts/siteData.ts) draws
 * exactly the bars the engine draws: values, whiskers, winners and noise marks of every chart,
 * on the published data and on the fixtures; the page answers only its queries from it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createChartData, verdictKey } from '../../src/app/chartData';
import { compilerColors } from '../../src/chart/palette';
import { firstViewQueries } from '../../src/app/firstViewQueries';
import { answeringRunner, type AnswerFile, type FirstView, sameFiles } from '../../src/data/firstView';
import { TABLES, tableFile } from '../../src/sql/schema';
import type { Catalog } from '../../src/data/tables';
import { versionBar } from '../../src/model/bars';
import { chartKey, DEFAULTS } from '../../src/model/state';
import { configBarsQuery } from '../../src/sql/charts';
import type { Query, QueryRunner } from '../../src/sql/query';
import { firstViewOf } from '../../scripts/siteData';
import { openDataDirDb } from '../support/fixture-db';

const here = path.dirname(fileURLToPath(import.meta.url));
const publishedData = path.resolve(here, '../../public/data');
const fixtureDir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-view-fixtures-'));
for (const table of TABLES) {
  fs.copyFileSync(path.resolve(here, '../fixtures', `fixture-${tableFile(table)}`), path.join(fixtureDir, tableFile(table)));
}
afterAll(() => fs.rmSync(fixtureDir, { recursive: true, force: true }));

/** A runner standing for an engine that is not there: any query it gets fails the test. */
const noEngine: QueryRunner = {
  run: <Row>(q: Query<Row>) => Promise.reject(new Error(`the engine was asked: ${q.sql.slice(0, 80)}`)),
};

/** Every chart's version bars over every version, as the page draws them from `runner`. */
async function drawnBars(runner: QueryRunner, catalog: Catalog) {
  const data = createChartData(runner, catalog.versions);
  const colorOf = compilerColors(catalog.compilers);
  const [rows, verdicts] = await Promise.all([data.versionRows(DEFAULTS), data.verdicts()]);
  return catalog.charts.map(({ mode, test }) => {
    const key = chartKey(mode, test);
    return { key, bars: (rows.get(key) ?? []).map((r) => versionBar(r, colorOf, verdicts.get(verdictKey(key, r.version)))) };
  });
}

/** The files the build writes for `dir`, as the page reads them (parsed from JSON). */
async function published(dir: string): Promise<{ view: FirstView; more: AnswerFile[] }> {
  return JSON.parse(JSON.stringify(await firstViewOf(dir))) as { view: FirstView; more: AnswerFile[] };
}

describe.each([
  ['the published data', publishedData],
  ['the fixture dataset', fixtureDir],
])('the first view of %s', (_name, dir) => {
  it('draws the same bars (values, whiskers, winners, noise marks) for every chart as the engine, without asking it', async () => {
    const { view } = await published(dir);
    const engine = await openDataDirDb(dir);
    expect(view.catalog).toEqual(engine.catalog);
    const precomputed = await drawnBars(answeringRunner(view, noEngine), view.catalog);
    const queried = await drawnBars(engine.runner, engine.catalog);
    expect(precomputed.length).toBe(engine.catalog.charts.length);
    // Bars with a figure, a whisker and a verdict (the winner's standing is in their names) are compared.
    expect(precomputed.flatMap((c) => c.bars).some((b) => b.value !== null && typeof b.low === 'number' && b.ariaLabel.includes('runner-up'))).toBe(true);
    expect(precomputed).toEqual(queried);
  });

  it("answers every one of the first screenful's queries (charts, header, sections, drilldowns) with the engine's rows, and only those", async () => {
    const { view, more } = await published(dir);
    const engine = await openDataDirDb(dir);
    const runner = answeringRunner(view, noEngine, more.map((file) => Promise.resolve(file.answers)));
    const { paint, sections, drilldowns } = firstViewQueries(view.catalog);
    expect(sections.length).toBeGreaterThan(5);
    for (const q of [...paint, ...sections, ...drilldowns]) expect(await runner.run(q), q.sql).toEqual(await engine.runner.run(q));
    const chart = view.catalog.charts[1];
    await expect(runner.run(configBarsQuery(chart?.mode ?? '', chart?.test ?? ''))).rejects.toThrow('the engine was asked');
  });

  it('names the byte size of every data file it was made from', async () => {
    const { view } = await published(dir);
    const sizes = Object.fromEntries(TABLES.filter((t) => fs.existsSync(path.join(dir, tableFile(t)))).map((t) => [t, fs.statSync(path.join(dir, tableFile(t))).size]));
    expect(sameFiles(view, sizes)).toBe(true);
    expect(sameFiles(view, { ...sizes, results: (sizes.results ?? 0) + 1 })).toBe(false);
  });
});
