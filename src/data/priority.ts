/**
 * Two doors to one database: DuckDB-WASM's worker runs one statement at a time, in the order
 * they arrive, so a click's query sent while the page's background work (the header, the
 * analysis sections, prefetches) is queued would wait for all of it. Here statements go to the
 * database one at a time, and a waiting urgent statement goes before every waiting background
 * one: a click waits at most for the statement already running.
 */
import type { Query, QueryRunner } from '../sql/query';

/** The same database, through an urgent door and a background door. */
export interface PrioritizedRunners {
  /** For what a reader is waiting on (charts, drilldowns). */
  readonly urgent: QueryRunner;
  /** For work the page does on its own (header, sections, prefetches). */
  readonly background: QueryRunner;
}

interface Waiting {
  start(): void;
}

/** Both doors to `db`; FIFO within each. */
export function prioritized(db: QueryRunner): PrioritizedRunners {
  const urgent: Waiting[] = [];
  const background: Waiting[] = [];
  let running = false;
  const next = () => {
    const job = urgent.shift() ?? background.shift();
    running = job !== undefined;
    job?.start();
  };
  const door = (queue: Waiting[]): QueryRunner => ({
    run<Row>(q: Query<Row>): Promise<Row[]> {
      return new Promise<Row[]>((resolve, reject) => {
        queue.push({
          start: () => void Promise.resolve().then(() => db.run(q)).then(resolve, reject).finally(next),
        });
        if (!running) next();
      });
    },
  });
  return { urgent: door(urgent), background: door(background) };
}
