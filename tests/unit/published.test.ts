/**
 * The published dataset (public/data), read as the site reads it: it must load, and nothing the
 * collector measured may be lost, doubled or shown as something else on the way to the charts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { TABLES, tableFile } from '../../src/sql/schema';
import { compareVersions } from '../../src/model/versions';
import { releasePairs } from '../../src/model/releaseChanges';
import { compareQuery } from '../../src/sql/compare';
import { effectsQuery } from '../../src/sql/effects';
import { query, type Query } from '../../src/sql/query';
import { releaseChangesQuery } from '../../src/sql/releaseChanges';
import { summaryQuery } from '../../src/sql/summary';
import { versionVerdictsQuery } from '../../src/sql/verdicts';
import { COUNTED_METRICS, LATENCY_METRICS, type Metric, METRICS } from '../../src/vocabulary';
import { openDataDirDb, type FixtureDb } from '../support/fixture-db';

// These tests compute every chart and section of the published data, in both metrics, with the
// engine (minutes on a 2-core machine): a time limit of their own, not the suite's 2 minutes.
vi.setConfig({ testTimeout: 900_000, hookTimeout: 900_000 });

const published = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../public/data');
let db: FixtureDb;
/** The count of rows `sql` returns (each row one problem, so the expected count is 0). */
const problems = async (sql: string) => (await db.runner.run(query<object>(sql))).length;

beforeAll(async () => {
  db = await openDataDirDb(published);
});

describe('the published dataset', () => {
  it('holds the tables the collector writes and no other file (the counted ones once counting has begun)', () => {
    // The counts of the counting runs set aside, kept as evidence, and the precision modes' request
    // counts (each result carries its own): the page does not read them (docs/data-schema.md).
    const notRead = ['counts_superseded.parquet', 'calibrations.parquet'];
    const files = fs.readdirSync(published).filter((name) => name !== '.gitkeep' && !notRead.includes(name));
    // rebuild_bands is written with the counts (and by collector bands): data folders written before it lack it.
    const optional = ['counts', 'count_runs', 'count_runs_superseded', 'rebuild_bands'];
    expect(files.filter((f) => !optional.map((t) => `${t}.parquet`).includes(f)).sort())
      .toEqual(TABLES.filter((t) => !optional.includes(t)).map(tableFile).sort());
    expect(files.every((f) => TABLES.map(tableFile).includes(f))).toBe(true);
  });

  it('loads with the documented schema and lists its versions in release order', () => {
    expect(db.versions.length).toBeGreaterThan(0);
    expect([...db.versions].sort(compareVersions)).toEqual(db.versions);
  });

  it('shows every measured test of every run, with its figure (best repeat, or geometric mean of the rounds) and its repeat count', async () => {
    expect(await problems(`
      SELECT r.* FROM (SELECT cell_id, mode, test, max(rps) AS best, exp(avg(ln(rps)) FILTER (WHERE rps > 0)) AS mean,
                              count(rps) AS n, bool_or(status = 'unsupported') AS unsupported
                       FROM results GROUP BY ALL) r
      LEFT JOIN cell_status c USING (cell_id, mode, test)
      WHERE c.status IS NULL
         OR c.status <> CASE WHEN r.n > 0 THEN 'ok' WHEN r.unsupported THEN 'unsupported' ELSE 'failed' END
         OR c.ok_repeats <> r.n
         OR (c.protocol = 'reference' AND c.best_value IS DISTINCT FROM r.best)
         OR (c.protocol = 'precision' AND NOT abs(c.best_value - r.mean) <= 1e-9 * r.mean)`)).toBe(0);
    expect(await problems(`SELECT DISTINCT mode FROM runs WHERE round_seed IS NOT NULL
                           EXCEPT SELECT DISTINCT mode FROM cell_status WHERE protocol = 'precision'`)).toBe(0);
  });

  it('keeps every run measured again apart from the charted runs, with why and an existing replacement', async () => {
    expect(await problems('SELECT run_id FROM all_redone_runs INTERSECT SELECT run_id FROM all_runs')).toBe(0);
    expect(await problems(`SELECT d.run_id FROM all_redone_runs d
      WHERE d.replaced_by NOT IN (SELECT run_id FROM all_runs UNION ALL SELECT run_id FROM all_redone_runs)
         OR coalesce(d.redo_reason, '') = ''`)).toBe(0);
    // A replacement measures the same cell, mode and repeat, and started later.
    expect(await problems(`SELECT d.run_id FROM all_redone_runs d
      JOIN (SELECT run_id, cell_id, mode, repeat, started_at FROM all_runs UNION ALL
            SELECT run_id, cell_id, mode, repeat, started_at FROM all_redone_runs) n ON n.run_id = d.replaced_by
      WHERE n.cell_id <> d.cell_id OR n.mode <> d.mode OR n.repeat <> d.repeat OR n.started_at <= d.started_at`)).toBe(0);
    expect(await problems('SELECT run_id FROM all_redone_results WHERE run_id NOT IN (SELECT run_id FROM all_redone_runs)')).toBe(0);
    expect(await problems('SELECT run_id, test FROM all_redone_results GROUP BY ALL HAVING count(*) > 1')).toBe(0);
  });

  it('has no measurement twice: one run per cell, mode and repeat; one result per run and test', async () => {
    expect(await problems('SELECT cell_id, mode, repeat FROM runs GROUP BY ALL HAVING count(*) > 1')).toBe(0);
    expect(await problems('SELECT run_id, test FROM results GROUP BY ALL HAVING count(*) > 1')).toBe(0);
    expect(await problems('SELECT * FROM cell_status WHERE ok_repeats > planned_repeats')).toBe(0);
  });

  it('ties every result to its run, every run to a built cell of the plan and a described machine', async () => {
    expect(await problems('SELECT * FROM results ANTI JOIN runs USING (run_id, cell_id, mode, repeat)')).toBe(0);
    // A run's server binary was built on the machine that ran it (each machine rebuilds a cell).
    expect(await problems(`SELECT * FROM runs r ANTI JOIN builds b
                           ON b.build_id = r.build_id AND b.cell_id = r.cell_id AND b.status = 'ok' AND b.machine_id = r.machine_id`)).toBe(0);
    expect(await problems('SELECT * FROM builds ANTI JOIN machines USING (machine_id)')).toBe(0);
    expect(await problems('SELECT * FROM runs ANTI JOIN plan USING (cell_id, version, compiler, flag_set)')).toBe(0);
    expect(await problems('SELECT * FROM runs ANTI JOIN machines USING (machine_id)')).toBe(0);
  });

  it('never puts machines of different CPU models or core counts into one hardware class', async () => {
    expect(await problems(`SELECT hardware FROM machine_hardware JOIN machines USING (machine_id)
                           GROUP BY hardware HAVING count(DISTINCT cpu_model) > 1 OR count(DISTINCT cores) > 1`)).toBe(0);
  });

  it('gives every figure a positive value and every failure its reason', async () => {
    expect(await problems(`SELECT * FROM results WHERE status = 'ok' AND NOT (rps > 0 AND isfinite(rps))`)).toBe(0);
    expect(await problems(`SELECT * FROM results WHERE status <> 'ok' AND coalesce(error, '') = ''`)).toBe(0);
    expect(await problems(`SELECT * FROM builds WHERE status <> 'ok' AND coalesce(error, '') = ''`)).toBe(0);
    expect(await problems(`SELECT * FROM cell_status WHERE status NOT IN ('ok', 'not_collected') AND coalesce(reason, '') = ''`)).toBe(0);
  });

  it('counts each cell, mode and repeat once, ties every count to its counting run and a planned cell, and gives every uncounted test its reason', async () => {
    expect(await problems(`SELECT cell_id, mode, repeat FROM count_runs GROUP BY ALL HAVING count(*) > 1`)).toBe(0);
    // One counting protocol, recorded on every run: the collector keeps earlier ones apart.
    expect(await problems(`SELECT * FROM count_runs WHERE protocol IS NULL`)).toBe(0);
    expect(await problems(`SELECT DISTINCT protocol FROM count_runs`)).toBeLessThanOrEqual(1);
    expect(await problems(`SELECT run_id, test FROM counts GROUP BY ALL HAVING count(*) > 1`)).toBe(0);
    expect(await problems(`SELECT * FROM counts c LEFT JOIN count_runs r USING (run_id) WHERE r.run_id IS NULL OR r.cell_id <> c.cell_id OR r.mode <> c.mode`)).toBe(0);
    expect(await problems(`SELECT * FROM count_runs r LEFT JOIN plan p USING (cell_id) WHERE p.cell_id IS NULL`)).toBe(0);
    expect(await problems(`SELECT * FROM counts WHERE status = 'ok' AND NOT (instructions_per_request > 0 AND requests > 0)`)).toBe(0);
    expect(await problems(`SELECT * FROM counts WHERE status <> 'ok' AND (coalesce(error, '') = '' OR instructions_per_request IS NOT NULL)`)).toBe(0);
  });

  // Rows, not only no error: the Node build of DuckDB answers some errors raised while a query runs
  // (a logarithm of zero) with no rows instead of throwing. Every counted metric has the same
  // cells counted as instructions per request, so its queries give as many rows.
  it('answers every section\'s queries under every counted metric as under instructions (a count of zero misses included)', async () => {
    const base = db.catalog.configs[0];
    const [older, newer] = db.versions.slice(-2);
    expect(base && older && newer).toBeTruthy();
    if (!base || !older || !newer) return;
    const queries = (metric: Metric) => [summaryQuery(base, metric), effectsQuery(metric), versionVerdictsQuery(metric),
      compareQuery({ version: older, config: null }, { version: newer, config: null }, metric), releaseChangesQuery(releasePairs(db.versions), metric)];
    const rows = async (metric: Metric) => Promise.all(queries(metric).map(async (q) => (await db.runner.run(q as Query<unknown>)).length));
    const ir = await rows(METRICS.ir);
    expect(ir.some((n) => n > 0)).toBe(true);
    for (const metric of COUNTED_METRICS) expect(await rows(metric), metric.id).toEqual(ir);
  });

  it('answers every section\'s queries under every latency, whose figures are positive where there is one', async () => {
    const base = db.catalog.configs[0];
    const [older, newer] = db.versions.slice(-2);
    if (!base || !older || !newer) return;
    for (const metric of LATENCY_METRICS) {
      const queries: Query<unknown>[] = [summaryQuery(base, metric), effectsQuery(metric), versionVerdictsQuery(metric),
        compareQuery({ version: older, config: null }, { version: newer, config: null }, metric)];
      for (const q of queries) expect((await db.runner.run(q)).length, metric.id).toBeGreaterThan(0);
      expect(await problems(`SELECT * FROM ${metric.table} WHERE best_value IS NOT NULL AND NOT (best_value > 0 AND worst_value >= best_value)`), metric.id).toBe(0);
    }
  });
});
