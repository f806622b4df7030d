/**
 * The rebuild bands (rebuild_bands, docs/method.md "Rebuild bands") on the fixture dataset: each
 * counted metric's table carries its band as the floor of the noise bands (src/sql/noise.ts), the
 * verdicts use it, and "How this was measured" states it, or that the data has none.
 */
import { describe, expect, it } from 'vitest';
import { rebuildBandsQuery } from '../../src/sql/counted';
import { query } from '../../src/sql/query';
import { TABLES } from '../../src/sql/schema';
import { summaryQuery } from '../../src/sql/summary';
import { versionVerdictsQuery } from '../../src/sql/verdicts';
import { rebuildBandLines } from '../../src/ui/header';
import { METRICS } from '../../src/vocabulary';
import { openFixtureDb, rewrittenFixture } from '../support/fixture-db';

const GCC_O2 = { compiler: 'gcc', flag_set: '-O2' };

/** Each metric table's band_floor (one value per table). */
const floorsQuery = () => query<{ rps: number; p50: number; p95: number; p99: number; ir: number; cycles: number; l1: number; ll: number; branch: number }>(
  `SELECT ${Object.values(METRICS).map((m) => `(SELECT max(band_floor) FROM ${m.table}) AS ${m.id}`).join(', ')}`);

/** How the summary's scores in instructions per request are called, over all versions. */
async function irVerdicts(db: Awaited<ReturnType<typeof openFixtureDb>>): Promise<string[]> {
  const rows = await db.runner.run(summaryQuery(GCC_O2, METRICS.ir));
  return [...new Set(rows.filter((r) => r.version === null && !(r.compiler === 'gcc' && r.flag_set === '-O2')).map((r) => r.verdict))].sort();
}

describe('rebuild bands', () => {
  it("make each counted metric's floor, 0 for requests/second and the latencies", async () => {
    const db = await openFixtureDb();
    expect((await db.runner.run(floorsQuery()))[0]).toEqual({ rps: 0, p50: 0, p95: 0, p99: 0, ir: 0.0025, cycles: 0.004, l1: 0.006, ll: 0.008, branch: 0 });
  });

  it('are 0 everywhere in a data folder without the file', async () => {
    const db = await openFixtureDb(TABLES.filter((t) => t !== 'rebuild_bands'));
    expect((await db.runner.run(floorsQuery()))[0]).toEqual({ rps: 0, p50: 0, p95: 0, p99: 0, ir: 0, cycles: 0, l1: 0, ll: 0, branch: 0 });
    expect(await db.runner.run(rebuildBandsQuery())).toEqual([]);
  });

  it('decide the verdicts: a floor above every planted effect leaves only ties', async () => {
    const small = await openFixtureDb();
    expect(await irVerdicts(small)).toEqual(['faster', 'slower']);
    const wide = await openFixtureDb(TABLES, { rebuild_bands: await rewrittenFixture('rebuild_bands', 'SELECT * REPLACE (0.5 AS band) FROM fixture') });
    expect(await irVerdicts(wide)).toEqual(['tie']);
    const winners = await wide.runner.run(versionVerdictsQuery(METRICS.ir));
    expect(new Set(winners.map((r) => r.winner_call))).toEqual(new Set(['tie']));
    // Requests/second has no rebuild band: its verdicts stay as the repeats decide them.
    const [rps, rpsWide] = await Promise.all([small.runner.run(summaryQuery(GCC_O2)), wide.runner.run(summaryQuery(GCC_O2))]);
    expect(rpsWide).toEqual(rps);
  });

  it('are stated in "How this was measured", or that the data has none', async () => {
    const rows = await (await openFixtureDb()).runner.run(rebuildBandsQuery());
    expect(rows.map((r) => r.metric)).toEqual(['ir', 'cycles', 'l1', 'll', 'branch']);
    const lines = rebuildBandLines(rows);
    expect(lines[1]).toBe('instructions per request: 0.25% (95% of differences within 0.02%), over 3 rebuild pairs of 3 cells, 1 of identical code');
    expect(lines[5]).toBe('simulated branch mispredictions per request: no rebuild compared yet, floor 0');
    expect(rebuildBandLines([])[0]).toMatch(/^The data has no rebuild bands \(rebuild_bands\.parquet\)/);
  });
});
