import { beforeAll, describe, expect, it } from 'vitest';
import { trendTicks } from '../../src/chart/trendChart';
import { trendPanels } from '../../src/model/trends';
import { type ConfigRow, configBarsQuery } from '../../src/sql/charts';
import { openFixtureDb, type FixtureDb } from '../support/fixture-db';

let fx: FixtureDb;
let rows: ConfigRow[];
const flagSets = ['-O2', '-Os', '-Ofast', '-O2 -flto', '-Os -flto', '-Ofast -flto'];
const configs = ['gcc', 'clang'].flatMap((compiler) => flagSets.map((flag_set) => ({ compiler, flag_set })));
const colorOf = (compiler: string) => (compiler === 'gcc' ? 'blue' : 'orange');

beforeAll(async () => {
  fx = await openFixtureDb();
  rows = await fx.runner.run(configBarsQuery('data', 'SET'));
});

describe('trendPanels', () => {
  it('makes a panel per flag set in plan order, a series per compiler, a point per planned version', () => {
    const panels = trendPanels(rows, fx.versions, configs, colorOf);
    expect(panels.map((p) => p.key)).toEqual(flagSets);
    for (const panel of panels) {
      expect(panel.series.map((s) => [s.compiler, s.color, s.dashed])).toEqual([['gcc', 'blue', false], ['clang', 'orange', true]]);
      for (const s of panel.series) expect(s.points.map((p) => p.version)).toEqual(fx.versions);
    }
  });

  it("takes each point's figure from the query, and keeps why a release has none instead of a value", () => {
    const panels = trendPanels(rows, fx.versions, configs, colorOf);
    const series = (flag: string, compiler: string) => panels.find((p) => p.key === flag)?.series.find((s) => s.compiler === compiler);
    const gccO2 = series('-O2', 'gcc');
    for (const p of gccO2?.points ?? []) {
      const row = rows.find((r) => r.cell_id === `${p.version}|gcc|-O2`);
      expect(p.value).toBe(row?.status === 'ok' ? row.best_value : null);
    }
    // 5.0.14 was not collected at all; 6.2.16 gcc -Os is pending; 7.4.1 clang -Ofast failed to build.
    expect(gccO2?.points.find((p) => p.version === '5.0.14')).toMatchObject({ value: null, status: 'not_collected' });
    expect(series('-Os', 'gcc')?.points.find((p) => p.version === '6.2.16')).toMatchObject({ value: null, status: 'not_collected' });
    const failed = series('-Ofast', 'clang')?.points.find((p) => p.version === '7.4.1');
    expect(failed).toMatchObject({ value: null, status: 'build_failed' });
    expect(failed?.tooltip[1]).toMatch(/^The build failed: /);
    expect(gccO2?.ariaLabel).toMatch(/^gcc -O2 across releases: 2\.6\.17 [\d,]+ req\/s; .*5\.0\.14 not collected yet; 6\.2\.16 [\d,]+ req\/s/);
  });

  it('compares each figure with the same configuration in the last release measured before it', () => {
    const gccO2 = trendPanels(rows, fx.versions, configs, colorOf)[0]?.series[0];
    const at = (v: string) => gccO2?.points.find((p) => p.version === v);
    expect(at('2.6.17')?.tooltip[2]).toBe('The first release measured in this configuration');
    // 5.0.14 has no figure: 6.2.16 is compared with 3.0.7.
    const change = ((at('6.2.16')?.value ?? 0) / (at('3.0.7')?.value ?? 1) - 1) * 100;
    expect(at('6.2.16')?.tooltip[2]).toMatch(new RegExp(`^[+−]${Math.abs(change).toFixed(1)}% against 3\\.0\\.7 \\(same configuration\\)$`));
  });

  it('marks points measured on a busy machine', () => {
    const panels = trendPanels(rows, fx.versions, configs, colorOf);
    const busy = panels.flatMap((p) => p.series.flatMap((s) => s.points.filter((pt) => pt.busy).map((pt) => pt.version)));
    expect(new Set(busy)).toEqual(new Set(['6.2.16']));
  });
});

describe('trendTicks', () => {
  const current = ['2.6.17', '2.8.24', '3.0.7', '3.2.13', '4.0.14', '5.0.14', '6.0.20', '6.2.16', '7.0.15', '7.2.6', '7.4.1'];
  it('labels every release when there is room', () => {
    const ticks = trendTicks(current, 27);
    expect(ticks.values).toEqual(current);
    expect(ticks.format('7.4.1')).toBe('7.4.1');
  });

  it('labels the first release of each minor line with the line when releases are too dense to read', () => {
    const every = [...Array.from({ length: 18 }, (_, i) => `2.6.${i}`), ...Array.from({ length: 7 }, (_, i) => `7.2.${i}`), '7.4.0', '7.4.1'];
    const ticks = trendTicks(every, 2);
    // 7.4.0 is 7 releases (14 units) after 7.2.0: room for its label; 2.6 and 7.2 too.
    expect(ticks.values).toEqual(['2.6.0', '7.2.0', '7.4.0']);
    expect(ticks.values.map(ticks.format)).toEqual(['2.6', '7.2', '7.4']);
    // A line too close to the last one labelled is left unlabelled rather than overprinted.
    expect(trendTicks(every, 1).values).toEqual(['2.6.0', '7.2.0']);
  });
});
