import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES } from '../../src/console/examples';
import { query } from '../../src/sql/query';
import { splitStatements } from '../../src/sql/scan';
import { openFixtureDb, type FixtureDb } from '../support/fixture-db';

let fx: FixtureDb;
beforeAll(async () => {
  fx = await openFixtureDb();
});

describe('console examples', () => {
  it.each(EXAMPLES.map((e) => [e.name, e.sql]))('"%s" is one statement that returns rows from the fixture', async (_name, sql) => {
    expect(splitStatements(sql)).toHaveLength(1);
    expect((await fx.runner.run(query(sql))).length).toBeGreaterThan(0);
  });
});
