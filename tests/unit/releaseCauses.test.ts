/**
 * Likely causes of a change between releases, from the builds: the query on the fixture (2.8.24 is
 * 2.6.17's code, -fcommon before 3.0, the bundled jemalloc's version in builds.deps_jemalloc), and
 * the phrases made of its rows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { pairChanges } from '../../src/model/releaseChanges';
import { causePhrases, causeText, pairCauses, pairCauseText } from '../../src/model/releaseCauses';
import { query } from '../../src/sql/query';
import { SCHEMA } from '../../src/sql/schema';
import { depColumnsQuery, releaseCausesQuery, type ReleaseCauseRow } from '../../src/sql/releaseCauses';
import { releaseChangesQuery } from '../../src/sql/releaseChanges';
import { METRICS } from '../../src/vocabulary';
import { type FixtureDb, openFixtureDb } from '../support/fixture-db';

const PAIRS = [['2.6.17', '2.8.24'], ['2.8.24', '3.0.7'], ['3.0.7', '6.2.16'], ['6.2.16', '7.2.6']] as const;

let fx: FixtureDb;
beforeAll(async () => {
  fx = await openFixtureDb();
});

/** The fixture with builds read with every column of the file: deps_jemalloc too, as a schema that lists it would. */
async function withDeps(): Promise<FixtureDb> {
  const db = await openFixtureDb();
  await db.runner.run(query(`CREATE OR REPLACE VIEW all_builds AS SELECT * FROM read_parquet('builds.parquet')`));
  return db;
}

const row = (fields: Partial<ReleaseCauseRow>): ReleaseCauseRow => ({
  pair_index: 0, compiler: 'gcc', flag_set: '-O2', same_code: false, same_commit: false, compat_from: null, compat_to: null, deps_changed: null, ...fields,
});

describe('releaseCausesQuery on the fixture', () => {
  it('finds the jemalloc column in builds when the schema lists it, none otherwise', async () => {
    const listed = 'deps_jemalloc' in SCHEMA.builds ? ['deps_jemalloc'] : [];
    expect(fx.catalog.depColumns).toEqual(listed);
    expect((await fx.runner.run(depColumnsQuery())).map((r) => r.column_name)).toEqual(listed);
  });

  it('says 2.8.24 is 2.6.17\'s code, and 3.0.7 dropped -fcommon, in every configuration counted on both', async () => {
    const rows = await fx.runner.run(releaseCausesQuery(PAIRS));
    const same = rows.filter((r) => r.pair_index === 0);
    // 2.6.17 clang -Os -flto failed to build: 11 configurations counted on both.
    expect(same).toHaveLength(11);
    expect(same.every((r) => r.same_code && r.same_commit && r.compat_from === null)).toBe(true);
    const compat = rows.filter((r) => r.pair_index === 1);
    expect(compat).toHaveLength(12);
    expect(compat.every((r) => !r.same_code && r.compat_from === '-fcommon' && r.compat_to === '')).toBe(true);
    // Nothing known between 3.0.7 and 6.2.16, nor 6.2.16 and 7.2.6: no row.
    expect(rows.filter((r) => r.pair_index >= 2)).toEqual([]);
    expect(rows.every((r) => r.deps_changed === null)).toBe(true);
  });

  it('names a bundled dependency\'s change when builds has its column', async () => {
    const db = await withDeps();
    const columns = (await db.runner.run(depColumnsQuery())).map((r) => r.column_name);
    expect(columns).toEqual(['deps_jemalloc']);
    const rows = await db.runner.run(releaseCausesQuery(PAIRS, columns));
    expect(new Set(rows.filter((r) => r.pair_index === 1).map((r) => r.deps_changed))).toEqual(new Set(['jemalloc 3.6.0 → 4.0.3']));
    expect(new Set(rows.filter((r) => r.pair_index === 2).map((r) => r.deps_changed))).toEqual(new Set(['jemalloc 4.0.3 → 5.3.0']));
    expect(rows.filter((r) => r.pair_index === 3)).toEqual([]);
  });

  it('puts the causes beside the entries and the pairs they hold for', async () => {
    const db = await withDeps();
    const pairs = PAIRS.slice(1, 3);
    const causes = pairCauses(await db.runner.run(releaseCausesQuery(pairs, ['deps_jemalloc'])));
    const changed = pairChanges(await db.runner.run(releaseChangesQuery(pairs, METRICS.ir)), METRICS.ir, false, causes);
    expect(changed[0]?.cause).toBe('compatibility flags -fcommon → none (all 12 configurations); bundled jemalloc 3.6.0 → 4.0.3 (all 12 configurations)');
    // SET got costlier on gcc only from 2.8.24 to 3.0.7: its six configurations, all with both causes.
    const set = changed[0]?.entries.find((e) => e.test === 'SET' && e.mode === 'data');
    expect(set?.cause).toBe('compatibility flags -fcommon → none; bundled jemalloc 3.6.0 → 4.0.3');
    expect(changed[1]?.entries[0]?.cause).toBe('bundled jemalloc 4.0.3 → 5.3.0');
  });
});

describe('the causes in words', () => {
  it('say identical code over a shared commit, then flags and dependencies', () => {
    expect(causePhrases(row({ same_code: true, same_commit: true }))).toEqual(['identical code on both releases']);
    expect(causePhrases(row({ same_commit: true }))).toEqual(['the same source commit']);
    expect(causePhrases(row({ compat_from: '', compat_to: '-fcommon', deps_changed: 'jemalloc 4.0.3 → 4.4.0; lua 5.1 → 5.1.5' })))
      .toEqual(['compatibility flags none → -fcommon', 'bundled jemalloc 4.0.3 → 4.4.0', 'bundled lua 5.1 → 5.1.5']);
    expect(causePhrases(row({}))).toEqual([]);
  });

  it('name each phrase once, with the share of configurations it holds for', () => {
    const causes = pairCauses([
      row({ compat_from: '-fcommon', compat_to: '' }),
      row({ flag_set: '-Os', compat_from: '-fcommon', compat_to: '', deps_changed: 'jemalloc 4.0.3 → 4.4.0' }),
      row({ pair_index: 1, same_code: true }),
    ]);
    expect(causeText(causes, 0, ['gcc -O2', 'gcc -Os'])).toBe('compatibility flags -fcommon → none; bundled jemalloc 4.0.3 → 4.4.0 (1 of 2 configurations)');
    expect(causeText(causes, 0, ['clang -O2'])).toBe('');
    expect(causeText(causes, 2, ['gcc -O2'])).toBe('');
    expect(pairCauseText(causes, 0, 12)).toBe('compatibility flags -fcommon → none (2 of 12 configurations); bundled jemalloc 4.0.3 → 4.4.0 (1 of 12 configurations)');
    expect(pairCauseText(causes, 1, 1)).toBe('identical code on both releases (1 configuration)');
    expect(pairCauseText(causes, 1, 12)).toBe('identical code on both releases (1 of 12 configurations)');
  });
});
