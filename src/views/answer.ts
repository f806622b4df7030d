/**
 * The answer on the first screen: per reference mode, each build against the baseline in
 * instructions per request (answerQuery: the README headline's figures) as a sorted dot chart
 * with one sentence, why the count decides, and beside it what measured speed can say: the
 * interleaved rounds in pipe mode (computed once the engine is up), and why data mode cannot.
 * The counted part comes from the first view, so it paints without the engine.
 */
import { answerChart } from '../chart/answerChart';
import { precisionStats } from '../data/precisionStats';
import { modeAnswers, roundsSentence } from '../model/answer';
import type { AppState } from '../model/state';
import { type AnswerNoiseRow, answerNoiseQuery, answerQuery } from '../sql/answer';
import { precisionSummaryQuery } from '../sql/precision';
import type { QueryRunner } from '../sql/query';
import { h } from '../ui/dom';
import type { ConfigRef } from '../vocabulary';

/** What the answer needs from the app. */
export interface AnswerOptions {
  /** Answers its first queries from the first view; the rounds go to the engine. */
  readonly db: QueryRunner;
  readonly baseline: ConfigRef | undefined;
  readonly precisionModes: readonly string[];
  readonly rounds: readonly { readonly mode: string; readonly version: string; readonly rounds: number }[];
  colorOf(compiler: string): string;
  /** The absolute link to the current state with `patch` applied. */
  link(patch: Partial<AppState>): string;
  /** Settles when the rounds may go to the engine (after the first charts: they would compete for the CPU). */
  readonly roundsAfter: Promise<unknown>;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The one line under the heading: why the answer is counted, from the repeats' spreads and the rebuild band. */
function whyLine(noise: readonly AnswerNoiseRow[]): string {
  const rps = noise.filter((n) => n.rps_median !== null);
  const counted = Math.max(0, ...noise.map((n) => n.ir_max ?? 0));
  const spread = rps.length
    ? `requests/second repeats on this hardware lie a median ${rps.map((n) => `${pct(n.rps_median ?? 0)} (${n.mode})`).join(' / ')} apart, too far to rank builds`
    : 'requests/second have no repeats on this hardware yet';
  const floor = Math.max(0, ...noise.map((n) => n.ir_floor));
  // The rebuild band is the least noise band of every verdict (src/sql/noise.ts).
  const rebuilt = floor > 0 ? `, rebuilds up to ${(floor * 100).toFixed(2)}%` : '';
  return `Ranked by instructions per request, counted under Valgrind: repeated counts of a build lie at most ${(counted * 100).toFixed(2)}% apart${rebuilt}, while ${spread}.`;
}

/** What the answer has drawn: the rounds settle once they are drawn too (or said to be missing). */
export interface AnswerShown {
  readonly rounds: Promise<void>;
}

/** Builds the answer into `root`: settles once the counted part is drawn (the rounds follow). */
export async function showAnswer(root: HTMLElement, options: AnswerOptions): Promise<AnswerShown> {
  const [rows, noise] = await Promise.all([options.db.run(answerQuery()), options.db.run(answerNoiseQuery())]);
  const answers = modeAnswers(rows);
  if (!answers.length) {
    root.hidden = true;
    return { rounds: Promise.resolve() };
  }
  const speed = h('div', { class: 'answer-speed rounded-md border border-slate-200 bg-white p-3 text-sm text-slate-800 max-md:text-xs' });
  root.replaceChildren(
    h('h2', { class: 'text-base font-semibold text-slate-900', attrs: { id: 'answer-title' } }, `Which build runs Redis best? Each build against ${answers[0]?.baseline ?? 'the baseline'}`),
    h('p', { class: 'answer-why mt-0.5 text-xs text-slate-700' }, whyLine(noise), ' ',
      h('a', { class: 'text-blue-700 underline hover:no-underline', attrs: { href: options.link({ metric: 'rps' }) } }, 'Show requests/second')),
    h('div', { class: 'mt-2 grid grid-cols-1 gap-3 md:grid-cols-3' },
      ...answers.map((a) => {
        const chart = h('div', { class: 'mt-1' });
        answerChart(chart, a.builds, `${a.mode} mode: instructions per request of each build against ${a.baseline}`, options.colorOf);
        return h('figure', { class: 'answer-mode rounded-md border border-slate-200 bg-white p-3', attrs: { 'data-mode': a.mode } },
          h('figcaption', { class: 'text-sm font-semibold text-slate-900' }, `${a.mode} mode: instructions per request`),
          chart,
          h('p', { class: 'answer-sentence mt-1 text-sm text-slate-800' }, a.sentence),
        );
      }),
      speed,
    ),
  );
  speed.append(
    h('h3', { class: 'text-sm font-semibold text-slate-900' }, 'What measured speed says'),
    h('p', { class: 'answer-data mt-1' },
      h('strong', {}, 'data mode: '),
      'the client and the kernel set the pace. The server spends 73–77% of its CPU in the kernel (loopback reads, writes, epoll), so a build that saves 5% of its instructions moves requests/second by about 1%, under ~10% run-to-run noise: speed cannot rank builds there.'),
  );
  // The rounds need the engine: they fill in later, the counted answer is drawn now.
  return { rounds: showRounds(speed, options, answers[0]?.baseline ?? '') };
}

/** Appends what the pipe-mode interleaved rounds say (the precision summary), once the engine has them. */
async function showRounds(box: HTMLElement, options: AnswerOptions, baseline: string): Promise<void> {
  const mode = options.precisionModes.find((m) => m.startsWith('pipe'));
  const line = h('p', { class: 'answer-rounds mt-2' }, h('strong', {}, 'pipe mode: '), 'speed follows the server’s own work there. ');
  box.append(line);
  if (!mode || !options.baseline) {
    line.append('No interleaved rounds are measured yet.');
    return;
  }
  const status = h('span', { class: 'text-slate-600' }, 'Computing the interleaved rounds…');
  line.append(status);
  try {
    await options.roundsAfter;
    const rows = await options.db.run(precisionSummaryQuery(options.baseline));
    const { scores } = await precisionStats('summary', rows.filter((r) => r.mode === mode), null);
    const rounds = options.rounds.filter((r) => r.mode === mode);
    status.replaceWith(
      roundsSentence(scores, mode, baseline, rounds), ' ',
      h('a', { class: 'text-blue-700 underline hover:no-underline', attrs: { href: options.link({ metric: 'rps', mode, section: 'summary' }) } }, 'Every build and release'),
    );
  } catch (error) {
    status.textContent = `The interleaved rounds could not be computed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
