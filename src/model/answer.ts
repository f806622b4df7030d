/**
 * The page's answer in words and marks, from answerQuery's rows (src/sql/answer.ts): per mode,
 * each build against the baseline in instructions per request, sorted cheapest first, and one
 * sentence saying which build runs the fewest instructions, by how much, and how many builds
 * differ beyond noise (the repeats' spread, at least the metric's rebuild band: src/sql/noise.ts).
 */
import type { AnswerRow } from '../sql/answer';
import { configName } from './changeText';

/** One mode's answer: its builds (cheapest first, the baseline among them) and its sentence. */
export interface ModeAnswer {
  readonly mode: string;
  readonly baseline: string;
  readonly builds: readonly AnswerBuild[];
  readonly sentence: string;
}

/** One build's place in a mode's answer. */
export interface AnswerBuild {
  readonly name: string;
  readonly compiler: string;
  /** Change in instructions per request against the baseline, a fraction (−0.0226 = 2.26% fewer). */
  readonly change: number;
  /** The noise band, a fraction; null when unknown. */
  readonly band: number | null;
  readonly verdict: AnswerRow['verdict'];
  readonly baseline: boolean;
}

/** A change as the README's headline prints it: "−2.26%", "+9.02%" (two decimals, a true minus). */
export function signedPercent(change: number): string {
  const text = `${Math.abs(change * 100).toFixed(2)}%`;
  return change < 0 ? `\u2212${text}` : `+${text}`;
}

/** A change in words: "2.26% fewer" or "9.02% more". */
const fewerOrMore = (change: number) => `${Math.abs(change * 100).toFixed(2)}% ${change < 0 ? 'fewer' : 'more'}`;

/** The answer per mode, in the rows' mode order. */
export function modeAnswers(rows: readonly AnswerRow[]): ModeAnswer[] {
  const modes = [...new Set(rows.map((r) => r.mode))];
  return modes.flatMap((mode) => {
    const inMode = rows.filter((r) => r.mode === mode).sort((a, b) => a.ratio - b.ratio || a.compiler_index - b.compiler_index || a.flag_index - b.flag_index);
    const base = inMode.find((r) => r.baseline);
    if (!base) return [];
    const builds = inMode.map((r) => ({
      name: configName(r), compiler: r.compiler, change: r.ratio - 1, band: r.band, verdict: r.verdict, baseline: r.baseline,
    }));
    return [{ mode, baseline: configName(base), builds, sentence: modeSentence(mode, configName(base), builds, base.releases) }];
  });
}

/**
 * "In pipe mode, gcc -Ofast runs 2.97% fewer instructions per request than gcc -O2 (geometric
 * mean over 21 tests and 158 releases); gcc -Os -flto runs 7.46% more. 5 of 11 builds are cheaper
 * and 6 costlier beyond noise."
 */
function modeSentence(mode: string, baseline: string, builds: readonly AnswerBuild[], releases: number): string {
  const others = builds.filter((b) => !b.baseline);
  const cheapest = others[0];
  const costliest = others.at(-1);
  if (!cheapest || !costliest) return `In ${mode} mode no other build is counted on a release where ${baseline} is.`;
  const cheaper = others.filter((b) => b.verdict === 'faster').length;
  const costlier = others.filter((b) => b.verdict === 'slower').length;
  const lead = cheapest.change < 0
    ? `${cheapest.name} runs ${fewerOrMore(cheapest.change)} instructions per request than ${baseline}`
    : `no build runs fewer instructions per request than ${baseline}`;
  return `In ${mode} mode, ${lead} (over every test and ${releases} releases); ${costliest.name} runs ${fewerOrMore(costliest.change)}. ` +
    `${cheaper} of ${others.length} builds are cheaper and ${costlier} costlier beyond noise.`;
}

/** A precision mode's scores as precisionSummary gives them, the parts the speed sentence reads. */
export interface RoundScore {
  readonly mode: string;
  readonly compiler: string;
  readonly flag_set: string;
  readonly version: string | null;
  readonly ratio: number;
  readonly verdict: AnswerRow['verdict'];
}

/**
 * What interleaved rounds of requests/second say in `mode` (e.g. pipe-long), per release:
 * "Interleaved rounds (pipe-long, 5 rounds on each of 2.8.24, 6.2.16, 7.4.1), against gcc -O2:
 * faster clang -Ofast -flto +8.7% (6.2.16), …; slower gcc -Os −12.0% (7.4.1); 28 of 33 within
 * noise." `rounds` are the rounds per version.
 */
export function roundsSentence(scores: readonly RoundScore[], mode: string, baseline: string, rounds: readonly { version: string; rounds: number }[]): string {
  const shown = scores.filter((s) => s.mode === mode && s.version !== null && configName(s) !== baseline);
  if (!shown.length) return `No interleaved rounds in ${mode} yet.`;
  const counts = [...new Set(rounds.map((r) => r.rounds))];
  const versions = rounds.map((r) => r.version).join(', ');
  const pct = (r: number) => `${r >= 1 ? '+' : '\u2212'}${Math.abs((r - 1) * 100).toFixed(1)}%`;
  const list = (verdict: AnswerRow['verdict']) => shown.filter((s) => s.verdict === verdict)
    .sort((a, b) => Math.abs(b.ratio - 1) - Math.abs(a.ratio - 1))
    .map((s) => `${configName(s)} ${pct(s.ratio)} (${s.version})`);
  const faster = list('faster');
  const slower = list('slower');
  const within = shown.length - faster.length - slower.length;
  const parts = [
    faster.length ? `faster ${faster.join(', ')}` : '',
    slower.length ? `slower ${slower.join(', ')}` : '',
    `${within} of ${shown.length} build–release pairs within noise`,
  ].filter(Boolean);
  return `Interleaved rounds (${mode}, ${counts.join('–')} rounds on each of ${versions}), requests/second against ${baseline}, 95% intervals: ${parts.join('; ')}.`;
}
