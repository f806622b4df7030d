/**
 * The current versions (plan.current) and every release: the catalog, the version bars and noise
 * verdicts of the current versions only, an old plan without the column, and the versions a state
 * shows.
 */
import { describe, expect, it } from 'vitest';
import { chartParts, createChartData } from '../../src/views/chartData';
import { type AppState, chartKey, DEFAULTS, decodeState, encodeState, shownVersions, versionsInRange } from '../../src/model/state';
import { versionBarsQuery } from '../../src/sql/charts';
import type { Query } from '../../src/sql/query';
import { versionVerdictsQuery } from '../../src/sql/verdicts';
import { openFixtureDb, rewrittenFixture } from '../support/fixture-db';

describe('plan.current', () => {
  it('marks every version of the fixture current, so the current set is every version', async () => {
    const fx = await openFixtureDb();
    expect(fx.catalog.currentVersions).toEqual(fx.versions);
  });

  it('reads a plan without the column (collectors before 0.2.0) as every version current', async () => {
    const plan = await rewrittenFixture('plan', 'SELECT * EXCLUDE ("current") FROM fixture');
    const fx = await openFixtureDb(undefined, { plan });
    expect(fx.catalog.currentVersions).toEqual(fx.versions);
  });

  it('leaves a version that is not current out of the current set and of the current-only version bars', async () => {
    const plan = await rewrittenFixture('plan', `SELECT * REPLACE (version <> '3.0.7' AS "current") FROM fixture`);
    const fx = await openFixtureDb(undefined, { plan });
    expect(fx.catalog.currentVersions).toEqual(fx.versions.filter((v) => v !== '3.0.7'));
    const current = await fx.runner.run(versionBarsQuery(null, undefined, true));
    const every = await fx.runner.run(versionBarsQuery(null));
    expect(new Set(current.map((r) => r.version)).has('3.0.7')).toBe(false);
    expect(new Set(every.map((r) => r.version)).has('3.0.7')).toBe(true);
    expect(every.length - current.length).toBe(every.filter((r) => r.version === '3.0.7').length);
  });

  it("keeps the current versions' noise verdicts alone with currentOnly, each as among every release (a change still against the release before, current or not)", async () => {
    const plan = await rewrittenFixture('plan', `SELECT * REPLACE (version <> '3.0.7' AS "current") FROM fixture`);
    const fx = await openFixtureDb(undefined, { plan });
    const every = await fx.runner.run(versionVerdictsQuery(undefined, false));
    const current = await fx.runner.run(versionVerdictsQuery(undefined, true));
    expect(current).toEqual(every.filter((r) => r.version !== '3.0.7'));
    expect(current.length).toBeLessThan(every.length);
    expect(current.some((r) => r.prev_version === '3.0.7')).toBe(true);
  });

  it('gives a state the verdicts of the versions it shows: the current ones by default, every release with releases=all, each asked once', async () => {
    const plan = await rewrittenFixture('plan', `SELECT * REPLACE (version <> '3.0.7' AS "current") FROM fixture`);
    const fx = await openFixtureDb(undefined, { plan });
    const asked: unknown[] = [];
    const runner = { run: <Row>(q: Query<Row>) => (asked.push(q), fx.runner.run(q)) };
    const data = createChartData(runner, fx.versions, fx.catalog.charts, fx.catalog.currentVersions);
    const all = { ...DEFAULTS, releases: 'all' as const };
    const versionsOf = async (state: AppState) => new Set([...(await data.verdicts(state)).values()].map((r) => r.version));
    expect((await versionsOf(DEFAULTS)).has('3.0.7')).toBe(false);
    expect((await versionsOf(all)).has('3.0.7')).toBe(true);
    // A range does not change them; the verdicts a state shows are ready once asked.
    expect((await versionsOf({ ...DEFAULTS, from: '6.2.16' })).has('3.0.7')).toBe(false);
    expect(asked).toHaveLength(2 * chartParts(fx.catalog.charts).length);
    const [chart] = fx.catalog.charts;
    expect(data.verdictsIfReady(all, chartKey(chart?.mode ?? '', chart?.test ?? ''))).not.toBeNull();
    expect(data.verdictsKey(all)).not.toBe(data.verdictsKey(DEFAULTS));
  });
});

describe('the versions a state shows', () => {
  const versions = ['7.0.0', '7.0.1', '7.2.0', '7.2.1', '7.4.0'];
  const current = ['7.0.1', '7.2.1', '7.4.0'];

  it('versionsInRange keeps the range, open ends at the oldest and newest', () => {
    expect(versionsInRange({ from: '7.0.1', to: '7.2.1' }, versions)).toEqual(['7.0.1', '7.2.0', '7.2.1']);
    expect(versionsInRange({ from: null, to: null }, versions)).toEqual(versions);
  });

  it('shownVersions keeps the current versions only, unless every release is asked for', () => {
    expect(shownVersions({ from: null, to: null, releases: 'current' }, versions, current)).toEqual(current);
    expect(shownVersions({ from: '7.2.0', to: null, releases: 'all' }, versions, current)).toEqual(['7.2.0', '7.2.1', '7.4.0']);
  });

  it('releases=all round-trips through the URL; the current set is the default and not written', () => {
    expect(encodeState(DEFAULTS)).toBe('');
    const all = { ...DEFAULTS, releases: 'all' as const };
    expect(encodeState(all)).toBe('?releases=all');
    expect(decodeState('?releases=all').state).toEqual(all);
    expect(decodeState('?releases=some').problems).toEqual(['Unknown releases "some"; using "current".']);
  });
});
