/**
 * The precision statistics off the main thread: each job of src/model/precision.ts runs in one
 * shared worker (precisionWorker.ts), started on first use; where workers are unavailable the
 * job runs here. The answers are the model's own, so tests call the model directly.
 */
import {
  precisionCompare, precisionEffects, precisionReleaseChanges, precisionSummary, precisionVersionVerdicts,
} from '../model/precision';

/** The jobs, their arguments and results (the model's functions). */
export interface PrecisionJobs {
  summary: { args: Parameters<typeof precisionSummary>; result: ReturnType<typeof precisionSummary> };
  effects: { args: Parameters<typeof precisionEffects>; result: ReturnType<typeof precisionEffects> };
  compare: { args: Parameters<typeof precisionCompare>; result: ReturnType<typeof precisionCompare> };
  verdicts: { args: Parameters<typeof precisionVersionVerdicts>; result: ReturnType<typeof precisionVersionVerdicts> };
  releases: { args: Parameters<typeof precisionReleaseChanges>; result: ReturnType<typeof precisionReleaseChanges> };
}

const LOCAL: { [K in keyof PrecisionJobs]: (...args: PrecisionJobs[K]['args']) => PrecisionJobs[K]['result'] } = {
  summary: precisionSummary,
  effects: precisionEffects,
  compare: precisionCompare,
  verdicts: precisionVersionVerdicts,
  releases: precisionReleaseChanges,
};

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

function started(): Worker | null {
  if (worker || typeof Worker === 'undefined') return worker;
  worker = new Worker(new URL('./precisionWorker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (event: MessageEvent<{ id: number; result?: unknown; error?: string }>) => {
    const job = pending.get(event.data.id);
    pending.delete(event.data.id);
    if (event.data.error !== undefined) job?.reject(new Error(event.data.error));
    else job?.resolve(event.data.result);
  };
  return worker;
}

/** Runs one job of the precision statistics: in the worker, or here where there is none. */
export function precisionStats<K extends keyof PrecisionJobs>(job: K, ...args: PrecisionJobs[K]['args']): Promise<PrecisionJobs[K]['result']> {
  const w = started();
  if (!w) return Promise.resolve().then(() => (LOCAL[job] as (...a: unknown[]) => PrecisionJobs[K]['result'])(...args));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    w.postMessage({ id, job, args });
  });
}
