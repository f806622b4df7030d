import { describe, expect, it } from 'vitest';
import { prioritized } from '../../src/data/priority';
import { query, type Query, type QueryRunner } from '../../src/sql/query';

/** A database whose statements finish only when the test says so; it records starts and how many run at once. */
function manualDb() {
  const started: string[] = [];
  const pending = new Map<string, { resolve(rows: unknown[]): void; reject(error: Error): void }>();
  let running = 0;
  let mostAtOnce = 0;
  const db: QueryRunner = {
    run<Row>(q: Query<Row>): Promise<Row[]> {
      if (q.sql === 'throws') throw new Error('fixture: thrown before any promise');
      started.push(q.sql);
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      return new Promise<Row[]>((resolve, reject) => {
        pending.set(q.sql, {
          resolve: (rows) => { running--; resolve(rows as Row[]); },
          reject: (error) => { running--; reject(error); },
        });
      });
    },
  };
  const tick = () => new Promise((r) => setTimeout(r, 0));
  return { db, started, pending, tick, mostAtOnce: () => mostAtOnce };
}

describe('prioritized', () => {
  it('runs one statement at a time, a waiting urgent one before every waiting background one', async () => {
    const m = manualDb();
    const { urgent, background } = prioritized(m.db);
    const results = [
      background.run(query('header')), background.run(query('summary')), background.run(query('prefetch')),
    ];
    await m.tick();
    expect(m.started).toEqual(['header']);
    const click = urgent.run(query('click'));
    m.pending.get('header')?.resolve([1]);
    await m.tick();
    expect(m.started).toEqual(['header', 'click']);
    m.pending.get('click')?.resolve([2]);
    expect(await click).toEqual([2]);
    await m.tick();
    m.pending.get('summary')?.resolve([3]);
    await m.tick();
    m.pending.get('prefetch')?.resolve([4]);
    expect(await Promise.all(results)).toEqual([[1], [3], [4]]);
    expect(m.started).toEqual(['header', 'click', 'summary', 'prefetch']);
    expect(m.mostAtOnce()).toBe(1);
  });

  it('passes errors on and keeps going after a failed or throwing statement', async () => {
    const m = manualDb();
    const { urgent, background } = prioritized(m.db);
    const failed = background.run(query('bad'));
    const thrown = urgent.run(query('throws'));
    const after = background.run(query('after'));
    await m.tick();
    m.pending.get('bad')?.reject(new Error('fixture: no such table'));
    await expect(failed).rejects.toThrow('no such table');
    await expect(thrown).rejects.toThrow('thrown before any promise');
    await m.tick();
    m.pending.get('after')?.resolve(['ok']);
    expect(await after).toEqual(['ok']);
  });
});
