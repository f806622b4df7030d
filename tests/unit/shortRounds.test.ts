/**
 * Precision results that lasted less than min_time: counted per cell in cell_status (from
 * results.requests / rps, on the fixture, whose pipe-long has two such results), carried to the
 * bars, and named in the chart card's note.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { configBar } from '../../src/model/bars';
import { configBarsQuery } from '../../src/sql/charts';
import { query } from '../../src/sql/query';
import { shortRoundsText } from '../../src/ui/chartCard';
import { MIN_TIME_SECONDS } from '../../src/vocabulary';
import { openFixtureDb, type FixtureDb } from '../support/fixture-db';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('precision rounds shorter than min_time', () => {
  let fx: FixtureDb;
  beforeAll(async () => {
    fx = await openFixtureDb();
  });

  it("is the collector's min_time of every precision mode (collector/matrix.toml)", () => {
    const matrix = fs.readFileSync(path.join(root, 'collector/matrix.toml'), 'utf8');
    const modes = matrix.split('[[benchmark.precision]]').slice(1);
    expect(modes.length).toBeGreaterThan(0);
    for (const mode of modes) expect(/\nmin_time = "([\d.]+)s"/.exec(mode)?.[1]).toBe(String(MIN_TIME_SECONDS));
  });

  it('counts, per cell, mode and test, the results whose requests / rps fell under min_time', async () => {
    const short = await fx.runner.run(query<{ cell_id: string; mode: string; test: string; short_rounds: number }>(
      'SELECT cell_id, mode, test, short_rounds FROM cell_status WHERE short_rounds > 0 ORDER BY cell_id'));
    expect(short).toEqual([
      { cell_id: '6.2.16|clang|-O2 -flto', mode: 'pipe-long', test: 'INCR', short_rounds: 1 },
      { cell_id: '7.4.1|gcc|-Os -flto', mode: 'pipe-long', test: 'SET', short_rounds: 1 },
    ]);
    // The same results straight from the table: the reference modes' have no requests.
    const [direct] = await fx.runner.run(query<{ n: number }>(
      `SELECT count(*)::INTEGER AS n FROM results WHERE status = 'ok' AND requests / rps < ${MIN_TIME_SECONDS}`));
    expect(direct?.n).toBe(2);
  });

  it("marks the drilldown's bar, says so in its tooltip, and the card names it", async () => {
    const rows = (await fx.runner.run(configBarsQuery('pipe-long', 'SET'))).filter((r) => r.version === '7.4.1');
    const short = rows.filter((r) => r.short_rounds > 0);
    expect(short.map((r) => `${r.compiler} ${r.flag_set}`)).toEqual(['gcc -Os -flto']);
    const bars = rows.filter((r) => r.best_value !== null).map((r) => configBar(r, () => 'blue'));
    const marked = bars.filter((b) => b.short);
    expect(marked.map((b) => b.key)).toEqual(['7.4.1|gcc|-Os -flto']);
    expect(marked[0]?.tooltip.join('\n')).toContain("⚠ 1 round shorter than 1.5 s (one millisecond of the client's clock weighs more)");
    expect(shortRoundsText(marked.map((b) => `${b.group} ${b.label}`)))
      .toBe(" · ⚠ a round shorter than 1.5 s (one millisecond of the client's clock weighs more): gcc -Os -flto");
    expect(shortRoundsText([])).toBe('');
  });
});
