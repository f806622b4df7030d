/**
 * The page's answer (src/sql/answer.ts, src/model/answer.ts) states the README headline's counted
 * figures: run on the published data, its cheapest and costliest build per mode, their changes
 * and the counts beyond noise are those of README.md's headline block (written in
 * Go by collector/internal/headline). A change to either definition fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type ModeAnswer, modeAnswers, roundsSentence, signedPercent } from '../../src/model/answer';
import { pipeResolutionText } from '../../src/model/metric';
import { answerQuery } from '../../src/sql/answer';
import { openDataDirDb } from '../support/fixture-db';

// These tests compute every chart and section of the published data, in both metrics, with the
// engine (minutes on a 2-core machine): a time limit of their own, not the suite's 2 minutes.
vi.setConfig({ testTimeout: 900_000, hookTimeout: 900_000 });

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The README headline's counted line, per mode: cheapest, costliest and the counts. */
function headlineCounted(): Map<string, { cheapest: string; low: string; costliest: string; high: string; cheaper: number; builds: number; costlier: number }> {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const block = readme.slice(readme.indexOf('<!-- headline'), readme.indexOf('<!-- /headline -->'));
  const line = block.split('\n').find((l) => l.startsWith('- **Instructions per request**'));
  if (!line) throw new Error('README.md has no counted headline line');
  const out = new Map();
  for (const m of line.matchAll(/(\w+) mode cheapest (.+?) \(([−+][\d.]+%)\), costliest (.+?) \(([−+][\d.]+%)\), (\d+) of (\d+) builds cheaper and (\d+) costlier/g)) {
    out.set(m[1], { cheapest: m[2], low: m[3], costliest: m[4], high: m[5], cheaper: Number(m[6]), builds: Number(m[7]), costlier: Number(m[8]) });
  }
  return out;
}

describe('the answer on the published data', () => {
  let answers: ModeAnswer[];
  beforeAll(async () => {
    const db = await openDataDirDb(path.join(root, 'public/data'));
    answers = modeAnswers(await db.runner.run(answerQuery()));
  }, 120_000);

  it('states the README headline counted figures, mode by mode', () => {
    const headline = headlineCounted();
    expect([...headline.keys()].sort()).toEqual(answers.map((a) => a.mode).sort());
    for (const a of answers) {
      const others = a.builds.filter((b) => !b.baseline);
      const cheapest = others[0];
      const costliest = others.at(-1);
      const h = headline.get(a.mode);
      expect(a.baseline).toBe('gcc -O2');
      expect({
        cheapest: cheapest?.name, low: signedPercent(cheapest?.change ?? NaN), costliest: costliest?.name, high: signedPercent(costliest?.change ?? NaN),
        cheaper: others.filter((b) => b.verdict === 'faster').length, builds: others.length, costlier: others.filter((b) => b.verdict === 'slower').length,
      }).toEqual(h);
      expect(a.sentence).toContain(`${cheapest?.name} runs ${(cheapest?.change ?? 0) < 0 ? signedPercent(cheapest?.change ?? 0).slice(1) : ''}`);
    }
  });

  it('keeps to the 12 reference configurations', () => {
    for (const a of answers) {
      expect(a.builds).toHaveLength(12);
      expect(a.builds.some((b) => b.name.includes('-O3'))).toBe(false);
    }
  });
});

describe('roundsSentence', () => {
  const score = (compiler: string, flag_set: string, version: string | null, ratio: number, verdict: 'faster' | 'slower' | 'tie') =>
    ({ mode: 'pipe-long', compiler, flag_set, version, ratio, verdict });
  it('names the builds beyond noise per release, largest first, and counts the rest', () => {
    const text = roundsSentence([
      score('gcc', '-O2', '7.4.1', 1, 'tie'),
      score('gcc', '-Os', '7.4.1', 0.88, 'slower'),
      score('clang', '-O2 -flto', '6.2.16', 1.068, 'faster'),
      score('clang', '-Ofast -flto', '6.2.16', 1.087, 'faster'),
      score('clang', '-O2', '6.2.16', 1.01, 'tie'),
      score('clang', '-O2', null, 1.01, 'tie'),
    ], 'pipe-long', 'gcc -O2', [{ version: '6.2.16', rounds: 5 }, { version: '7.4.1', rounds: 5 }]);
    expect(text).toBe('Interleaved rounds (pipe-long, 5 rounds on each of 6.2.16, 7.4.1), requests/second against gcc -O2, 95% intervals: '
      + 'faster clang -Ofast -flto +8.7% (6.2.16), clang -O2 -flto +6.8% (6.2.16); slower gcc -Os \u221212.0% (7.4.1); 1 of 4 build–release pairs within noise.');
  });
  it('says when there are no rounds', () => {
    expect(roundsSentence([], 'pipe-long', 'gcc -O2', [])).toBe('No interleaved rounds in pipe-long yet.');
  });
});

describe('pipeResolutionText', () => {
  it('states the millisecond step near the highest figure', () => {
    // 2,000,000 req/s: 120000 requests in 60 ms, one millisecond more is 1.7% less.
    expect(pipeResolutionText(2_000_000)).toBe('timed in whole milliseconds: each figure is 120000 requests / k ms, steps of 1.7% near 2.0M req/s');
  });
});
