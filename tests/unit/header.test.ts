/** The header's counted-protocol lines, from hand-made rows. */
import { describe, expect, it } from 'vitest';
import type { CountProtocolRow } from '../../src/sql/meta';
import { countProtocolLines, countProtocolSummary, plannedRepeatsText } from '../../src/ui/header';

const row = (mode: string, env: string, runs: number, client_args = `-n 1000 -c 1${mode === 'pipe' ? ' -P 1000' : ''}`): CountProtocolRow => ({
  mode, protocol: 4, valgrind_version: 'valgrind-3.19.0', command: 'setarch -R valgrind --tool=callgrind', env,
  settings: 'jemalloc-bg-thread no', client_version: 'redis-benchmark 7.4.1', client_args, runs,
});

describe('countProtocolLines', () => {
  it('gives each mode its client and the environment only it has, then what the modes share', () => {
    const lines = countProtocolLines([
      row('data', 'LD_PRELOAD=freezeclock.so LD_BIND_NOW=1 FREEZECLOCK_SETTLE_READS=no', 24),
      row('data', 'LD_PRELOAD=freezeclock.so LD_BIND_NOW=1', 2, '-n 500 -c 1'),
      row('pipe', 'LD_PRELOAD=freezeclock.so LD_BIND_NOW=1', 24),
    ]);
    expect(lines).toEqual([
      'data: redis-benchmark -n 1000 -c 1; server env FREEZECLOCK_SETTLE_READS=no',
      'pipe: redis-benchmark -n 1000 -c 1 -P 1000',
      'server: setarch -R valgrind --tool=callgrind (valgrind-3.19.0)',
      'server env: LD_PRELOAD=freezeclock.so LD_BIND_NOW=1',
      'CONFIG SET: jemalloc-bg-thread no',
      'client: redis-benchmark 7.4.1; counting protocol 4; 1 older run setting besides (each run\'s own in the status grid)',
    ]);
  });

  it('says in one line what was counted, with which tool and protocol', () => {
    expect(countProtocolSummary([row('data', '', 24), row('pipe', '', 24)])).toBe(
      'instructions per request under valgrind-3.19.0 (callgrind), data and pipe modes, counting protocol 4: the workload and why it differs from the throughput modes\'',
    );
  });

  it('leaves out what no run has', () => {
    expect(countProtocolLines([{ ...row('data', '', 2), settings: '', protocol: null }])).toEqual([
      'data: redis-benchmark -n 1000 -c 1',
      'server: setarch -R valgrind --tool=callgrind (valgrind-3.19.0)',
      'client: redis-benchmark 7.4.1',
    ]);
  });
});

describe('plannedRepeatsText', () => {
  it('says how many repeats the plan asks, and for how many cells when it varies', () => {
    expect(plannedRepeatsText({ planned_repeats: 3, min_planned_repeats: 3, next_planned_repeats: 0, most_repeats_cells: 84, planned_cells: 84 }))
      .toBe('3 repeats planned per build and mode');
    expect(plannedRepeatsText({ planned_repeats: 1, min_planned_repeats: 1, next_planned_repeats: 0, most_repeats_cells: 12, planned_cells: 12 }))
      .toBe('1 repeat planned per build and mode');
    // The published plan: 3 for the current lines, 1 for every other cell (none planned 2).
    expect(plannedRepeatsText({ planned_repeats: 3, min_planned_repeats: 1, next_planned_repeats: 1, most_repeats_cells: 132, planned_cells: 1896 }))
      .toBe('3 repeats planned per build and mode for 132 of 1,896 cells, 1 for the others');
    expect(plannedRepeatsText({ planned_repeats: 4, min_planned_repeats: 1, next_planned_repeats: 2, most_repeats_cells: 132, planned_cells: 1896 }))
      .toBe('4 repeats planned per build and mode for 132 of 1,896 cells, 1 to 2 for the others');
  });
});
