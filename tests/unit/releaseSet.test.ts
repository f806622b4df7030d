/**
 * The current versions (plan.current) and every release: the catalog, the version bars of the
 * current versions only, an old plan without the column, and the versions a state shows.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULTS, decodeState, encodeState, shownVersions, versionsInRange } from '../../src/model/state';
import { versionBarsQuery } from '../../src/sql/charts';
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
