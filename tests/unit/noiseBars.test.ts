import { describe, expect, it } from 'vitest';
import { configBar, versionBar } from '../../src/model/bars';
import type { ConfigRow, VersionRow } from '../../src/sql/charts';
import type { VersionVerdictRow } from '../../src/sql/verdicts';

const colorOf = () => 'blue';

const row: VersionRow = {
  mode: 'data', test: 'GET', test_index: 3, version: '7.2.6', ord: 5, status: 'ok',
  best_value: 125000, worst_value: 123000, ok_repeats: 3, planned_repeats: 3, p50_ms: 0.3,
  compiler: 'clang', flag_set: '-O2 -flto', cc_version: null, busy_pct: null, steal_pct: null, reason: null, cv: 0.007, protocol: 'reference', short_rounds: 0,
  planned_cells: 12, ok_cells: 12, unsupported_cells: 0, failed_cells: 0, build_failed_cells: 0, server_failed_cells: 0, not_collected_cells: 0,
};

const verdict: VersionVerdictRow = {
  mode: 'data', test: 'GET', version: '7.2.6', spread: 0.016, winner_call: 'tie', ties: 2,
  runner_compiler: 'gcc', runner_flag_set: '-Ofast -flto', runner_best: 124500, runner_spread: 0.01,
  prev_version: '6.2.16', change: -0.08, change_band: 0.016, change_verdict: 'slower',
};

describe('versionBar with noise verdicts', () => {
  it('draws the spread of the winner\'s repeats as a whisker, only with two repeats or more', () => {
    expect(versionBar(row, colorOf).low).toBe(123000);
    expect(versionBar({ ...row, ok_repeats: 1 }, colorOf).low).toBeNull();
  });

  it('marks a regression beyond noise against the previous release and says so', () => {
    const bar = versionBar(row, colorOf, verdict);
    expect(bar.change).toBe('slower');
    expect(bar.ariaLabel).toContain('▼ −8.0% against 6.2.16, slower beyond the ±1.6% noise band');
    expect(versionBar(row, colorOf, { ...verdict, change_verdict: 'tie' }).change).toBeNull();
    expect(versionBar(row, colorOf, { ...verdict, prev_version: null, change: null, change_verdict: null }).ariaLabel).not.toContain('against');
  });

  it('names a tie within noise with its runner-up, 0.4% slower', () => {
    expect(versionBar(row, colorOf, verdict).tooltip).toContain('A tie within noise with 2 other configurations (runner-up gcc -Ofast -flto, 0.4% slower)');
    expect(versionBar(row, colorOf, { ...verdict, winner_call: 'clear', ties: 0 }).tooltip[2]).toMatch(/^A clear winner: faster than every other configuration beyond noise/);
  });
});

const config: ConfigRow = {
  version: '7.2.6', cell_id: '7.2.6|clang|-O2 -flto', compiler: 'clang', flag_set: '-O2 -flto', status: 'ok', best_value: 125000, worst_value: 123000,
  ok_repeats: 3, planned_repeats: 3, p50_ms: null, reason: null, cc_version: null, cflags: '-O2 -flto', ldflags: '-O2 -flto', compat_flags: '', busy_pct: null, steal_pct: null,
  winner: true, vs_winner: 0, spread: 0.016, vs_winner_verdict: null, cv: 0.007, protocol: 'reference', short_rounds: 0,
};

describe('configBar with the winner call', () => {
  it('marks the fastest and those within its noise as a tie, not a winner', () => {
    const fastest = configBar(config, colorOf, 'tie');
    expect(fastest).toMatchObject({ winner: true, noise: 'tie', low: 123000 });
    expect(fastest.ariaLabel).toContain(', tie within noise.');
    const close = { ...config, cell_id: 'x', winner: false, vs_winner: -0.004, vs_winner_verdict: 'tie' as const };
    expect(configBar(close, colorOf, 'tie').noise).toBe('tie');
    expect(configBar(close, colorOf, 'tie').tooltip[1]).toBe('Redis 7.2.6, 0.4% slower than the fastest, within noise');
    expect(configBar({ ...close, vs_winner: -0.05, vs_winner_verdict: 'slower' }, colorOf, 'tie').noise).toBeNull();
  });

  it('calls a clear winner a winner, and does not call one with too few repeats', () => {
    expect(configBar(config, colorOf, 'clear')).toMatchObject({ winner: true, noise: null });
    expect(configBar(config, colorOf, 'clear').ariaLabel).toContain(', winner.');
    expect(configBar(config, colorOf, 'unknown')).toMatchObject({ winner: true, noise: 'unknown' });
    expect(configBar(config, colorOf, 'unknown').ariaLabel).toContain(', fastest.');
    expect(configBar(config, colorOf, 'unknown').tooltip[1]).toContain('not called a winner');
  });
});
