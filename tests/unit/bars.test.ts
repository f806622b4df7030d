import { describe, expect, it } from 'vitest';
import { busyText, configBar, versionBar } from '../../src/model/bars';
import { METRICS } from '../../src/vocabulary';
import type { ConfigRow, VersionRow } from '../../src/sql/charts';

const colorOf = (compiler: string) => (compiler === 'gcc' ? 'blue' : 'orange');

const measured: VersionRow = {
  mode: 'data', test: 'SET', test_index: 2, version: '7.4.1', ord: 6, status: 'ok',
  best_value: 123456.7, worst_value: 120000, ok_repeats: 3, planned_repeats: 3, p50_ms: 0.311,
  compiler: 'clang', flag_set: '-O2 -flto', cc_version: 'clang 19', busy_pct: 4, steal_pct: null, reason: null, cv: 0.014, protocol: 'reference', short_rounds: 0,
  planned_cells: 12, ok_cells: 10, unsupported_cells: 0, failed_cells: 0,
  build_failed_cells: 2, server_failed_cells: 0, not_collected_cells: 0,
};

describe('versionBar', () => {
  it('names the winning configuration, its latency and the spread of its repeats', () => {
    const bar = versionBar(measured, colorOf);
    expect(bar).toMatchObject({ key: '7.4.1', value: 123456.7, status: 'ok', color: 'orange' });
    expect(bar.ariaLabel).toBe('Redis 7.4.1: 123,457 requests per second, best configuration clang -O2 -flto. Show its configurations.');
    expect(bar.tooltip).toContain('p50 latency 0.31 ms');
    expect(bar.tooltip).toContain('Best of 3 of 3 repeats, spread 120,000 – 123,457 req/s (2.8%)');
    expect(bar.tooltip).toContain('10 of 12 configurations measured · 2 build failed');
  });

  it('says how busy the machine was, and marks a figure measured on a busy machine', () => {
    const quiet = versionBar(measured, colorOf);
    expect(quiet.busy).toBe(false);
    expect(quiet.tooltip).toContain('Quiet machine: other processes used up to 4% of a CPU during the runs');
    const busy = versionBar({ ...measured, busy_pct: 85.4 }, colorOf);
    expect(busy.busy).toBe(true);
    expect(busy.tooltip).toContain('⚠ Busy machine: other processes used up to 85% of a CPU during the runs; the figure may be low');
    expect(busy.ariaLabel).toBe('Redis 7.4.1: 123,457 requests per second, best configuration clang -O2 -flto, measured on a busy machine. Show its configurations.');
    // The threshold is the collector's own for a quiet machine: 20% of a CPU.
    const load = (busy_pct: number | null, steal_pct: number | null) => busyText({ busy_pct, steal_pct });
    expect([load(20, null), load(20.5, null), load(null, null)]).toEqual([
      'Quiet machine: other processes used up to 20% of a CPU during the runs',
      '⚠ Busy machine: other processes used up to 21% of a CPU during the runs; the figure may be low',
      'Machine load during the runs: not recorded',
    ]);
  });

  it("counts the VM host's steal: above 10% of a CPU the machine was busy, however quiet its own processes", () => {
    const stolen = versionBar({ ...measured, busy_pct: 1, steal_pct: 24.46 }, colorOf);
    expect(stolen.busy).toBe(true);
    expect(stolen.tooltip).toContain("⚠ Busy machine: other processes used up to 1% of a CPU and the VM's host took up to 24.5% (steal) during the runs; the figure may be low");
    expect(stolen.ariaLabel).toContain(', measured on a busy machine.');
    const config = configBar({ ...configRow, steal_pct: 24.46 }, colorOf);
    expect(config.busy).toBe(true);
    expect(config.ariaLabel).toContain(', measured on a busy machine.');
    // The threshold is the collector's -redo-steal for this dataset: 10% of a CPU.
    const load = (busy_pct: number | null, steal_pct: number | null) => busyText({ busy_pct, steal_pct });
    expect([load(3, 10), load(3, 10.04), load(null, 2.5)]).toEqual([
      "Quiet machine: other processes used up to 3% of a CPU and the VM's host took up to 10.0% (steal) during the runs",
      "⚠ Busy machine: other processes used up to 3% of a CPU and the VM's host took up to 10.0% (steal) during the runs; the figure may be low",
      "Quiet machine: other processes' CPU not recorded and the VM's host took up to 2.5% (steal) during the runs",
    ]);
  });

  it('gives a version without a figure no value and says why', () => {
    const bar = versionBar({ ...measured, status: 'unsupported', best_value: null, compiler: null, reason: "ERR unknown command 'XADD'" }, colorOf);
    expect(bar.value).toBeNull();
    expect(bar.status).toBe('unsupported');
    expect(bar.ariaLabel).toContain("no figure, not supported by this Redis version: ERR unknown command 'XADD'");
  });
});

const configRow: ConfigRow = {
  version: '7.4.1', cell_id: '7.4.1|gcc|-Os', compiler: 'gcc', flag_set: '-Os', status: 'ok', best_value: 100000, worst_value: 99000,
  ok_repeats: 1, planned_repeats: 3, p50_ms: null, reason: null, cc_version: 'gcc-12', cflags: '-Os',
  ldflags: '-Os', compat_flags: '', busy_pct: null, steal_pct: null, winner: false, vs_winner: -0.05, spread: null, vs_winner_verdict: null,
  cv: null, protocol: 'reference', short_rounds: 0,
};

describe('configBar', () => {
  it('groups by compiler, labels by flag set and says how far it is from the winner', () => {
    const bar = configBar(configRow, colorOf);
    expect(bar).toMatchObject({ key: '7.4.1|gcc|-Os', label: '-Os', group: 'gcc', color: 'blue', winner: false });
    expect(bar.tooltip).toContain('Redis 7.4.1, 5.0% slower than the fastest');
    expect(bar.tooltip).toContain('p50 latency: not printed by this client');
    expect(bar.tooltip).toContain('Best of 1 of 3 repeats: a single repeat, no noise estimate');
  });

  it('marks the winner in its accessible name', () => {
    expect(configBar({ ...configRow, winner: true, vs_winner: 0 }, colorOf).ariaLabel).toMatch(/requests per second, winner\./);
  });

  it('shows a failed build with its reason and no value', () => {
    const bar = configBar({ ...configRow, status: 'build_failed', best_value: null, reason: 'cc1: error' }, colorOf);
    expect(bar.value).toBeNull();
    expect(bar.tooltip[1]).toBe('The build failed: cc1: error');
  });
});

describe('bars under a counted cost (lower is better)', () => {
  const counted: VersionRow = { ...measured, best_value: 4823.5, worst_value: 4824.6, ok_repeats: 2, planned_repeats: 2, p50_ms: null, busy_pct: null };
  const verdict = {
    mode: 'data', test: 'SET', version: '7.4.1', spread: 0.0002, winner_call: 'clear' as const, ties: 0,
    runner_compiler: 'gcc', runner_flag_set: '-O2', runner_best: 4920, runner_spread: 0.0001,
    prev_version: '7.2.6', change: -0.04, change_band: 0.0002, change_verdict: 'faster' as const,
  };

  it('names the cost, its cheapest configuration, a cheaper release with ▼, and the spread of its repeats upward', () => {
    const bar = versionBar(counted, colorOf, verdict, METRICS.ir);
    expect(bar).toMatchObject({ value: 4823.5, low: 4824.6, change: 'faster', changeMark: '▼', busy: false });
    expect(bar.ariaLabel).toBe('Redis 7.4.1: 4,824 instructions per request, best configuration clang -O2 -flto, '
      + 'a clear winner: cheaper than every other configuration beyond noise (runner-up gcc -O2, 2.0% costlier), '
      + '▼ −4.0% against 7.2.6, cheaper beyond the ±0.020% noise band. Show its configurations.');
    expect(bar.tooltip).toContain('Best of 2 of 2 repeats, spread 4,824 – 4,825 instr/req (0.023%)');
    expect(bar.tooltip).toContain("Counted under Valgrind: the machine's load does not change a count");
    expect(bar.tooltip.some((line) => line.startsWith('p50'))).toBe(false);
  });

  it('says how much costlier a configuration is than the cheapest', () => {
    const row: ConfigRow = {
      version: '7.4.1', cell_id: '7.4.1|gcc|-Os', compiler: 'gcc', flag_set: '-Os', status: 'ok', best_value: 5257.6, worst_value: 5258, ok_repeats: 2,
      planned_repeats: 2, p50_ms: null, reason: null, cc_version: null, cflags: '-Os', ldflags: '', compat_flags: '', busy_pct: null, steal_pct: null,
      winner: false, vs_winner: 0.09, spread: 0.0001, vs_winner_verdict: 'slower', cv: null, protocol: 'reference', short_rounds: 0,
    };
    expect(configBar(row, colorOf, 'clear', METRICS.ir).tooltip).toContain('Redis 7.4.1, 9.0% costlier than the cheapest, beyond noise');
  });
});
