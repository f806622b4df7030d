/**
 * The precision statistics (src/model/precision.ts) in a worker: a section judges thousands of
 * effects, each 2,000 bootstrap resamples, which would hold the page's main thread for a second.
 * A message names a job and its arguments; the answer carries the job's result or its error.
 */
import { precisionCompare, precisionEffects, precisionReleaseChanges, precisionSummary, precisionVersionVerdicts } from '../model/precision';
import type { PrecisionJobs } from './precisionStats';

const JOBS: { [K in keyof PrecisionJobs]: (...args: PrecisionJobs[K]['args']) => PrecisionJobs[K]['result'] } = {
  summary: precisionSummary,
  effects: precisionEffects,
  compare: precisionCompare,
  verdicts: precisionVersionVerdicts,
  releases: precisionReleaseChanges,
};

self.onmessage = (event: MessageEvent<{ id: number; job: keyof PrecisionJobs; args: unknown[] }>) => {
  const { id, job, args } = event.data;
  try {
    const result = (JOBS[job] as (...a: unknown[]) => unknown)(...args);
    self.postMessage({ id, result });
  } catch (err) {
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
