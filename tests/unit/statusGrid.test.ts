/**
 * The status grid's content (src/model/statusGrid.ts), made from hand-made query rows: the
 * layout, each cell's mark and description, and an opened cell's build, runs and runs measured
 * again.
 */
import { describe, expect, it } from 'vitest';
import {
  allBuildsLines, buildFacts, buildFigures, codeText, gridCaption, gridCellMark, gridCellText, gridLayout, memWriteText, othersText, redoneSummaryText,
  redoneTable, runsTable, speedText, stealText,
} from '../../src/model/statusGrid';
import type { BuildDetailRow, GridRow, RedoneRunRow, RunDetailRow } from '../../src/sql/status';
import { METRICS, RPS } from '../../src/vocabulary';

function cell(version: string, compiler: string, flag_set: string, fields: Partial<GridRow> = {}): GridRow {
  return {
    cell_id: `${version}|${compiler}|${flag_set}`, version, compiler, flag_set, status: 'ok', planned_repeats: 3, modes: 2, min_repeats: 3,
    measured_runs: 6, server_failed_runs: 0, build_attempts: 1, build_error: null, failed_tests: 0, unsupported_tests: 0, ...fields,
  };
}

function build(fields: Partial<BuildDetailRow> = {}): BuildDetailRow {
  return {
    status: 'ok', error: null, log_tail: 'done', cc: 'gcc', cc_path: '/usr/bin/gcc', cc_version: 'gcc 12.2.0', cflags: '-O2', ldflags: '',
    compat_flags: '', deps_get_flags: false, make_args: 'make -j2', source_kind: 'tarball', source_ref: 'redis-7.4.1.tar.gz',
    source_commit: '', source_verified: true, build_seconds: 95.4, deps_seconds: 40.2, binary_bytes: 2_400_000,
    redis_build_id: '1700000000', code_sha256: '3d4667a469dc010b' + '0'.repeat(48), code_identified_by: null, jemalloc_lg_vaddr: 48,
    finished_at: '2026-11-02 10:00', machine_id: 'm1', ...fields,
  };
}

describe('the grid', () => {
  const configs = [{ compiler: 'gcc', flag_set: '-O2' }, { compiler: 'gcc', flag_set: '-Os' }, { compiler: 'clang', flag_set: '-O2' }];

  it('lays cells out by version and configuration, with each compiler spanning its flag sets', () => {
    const layout = gridLayout([cell('7.4.1', 'clang', '-O2'), cell('7.2.6', 'gcc', '-O2')], ['7.2.6', '7.4.1'], configs);
    expect(layout.compilers).toEqual([{ compiler: 'gcc', span: 2 }, { compiler: 'clang', span: 1 }]);
    expect(layout.rows.map((r) => [r.version, ...r.cells.map((c) => (c.row ? c.id : null))])).toEqual([
      ['7.2.6', '7.2.6|gcc|-O2', null, null],
      ['7.4.1', null, null, '7.4.1|clang|-O2'],
    ]);
    expect(layout.rows[0]?.cells[1]?.id).toBe('7.2.6|gcc|-Os');
  });

  it('names the instrument in its caption', () => {
    expect(gridCaption(RPS)).toBe('Collection status: one row per Redis version, one column per configuration');
    expect(gridCaption(METRICS.ir)).toBe('Counting status (Valgrind, every machine): one row per Redis version, one column per configuration');
  });

  it('marks a cell with its glyph and, once anything ran, its repeats', () => {
    expect(gridCellMark(cell('7.4.1', 'gcc', '-O2'))).toBe('✓ 3/3');
    expect(gridCellMark(cell('7.4.1', 'gcc', '-O2', { status: 'partial', min_repeats: 1 }))).toBe('◐ 1/3');
    expect(gridCellMark(cell('7.4.1', 'gcc', '-O2', { status: 'server_failed', min_repeats: 0 }))).toBe('⚠ 0/3');
    expect(gridCellMark(cell('7.4.1', 'gcc', '-O2', { status: 'build_failed' }))).toBe('✗');
    expect(gridCellMark(cell('7.4.1', 'gcc', '-O2', { status: 'not_collected' }))).toBe('·');
  });

  it('describes a cell with its status, repeats, failures and builds', () => {
    expect(gridCellText(cell('7.4.1', 'gcc', '-O2'))).toBe('Redis 7.4.1 gcc -O2: ok; 3 of 3 repeats measured in every mode. Show its build and runs.');
    expect(gridCellText(cell('7.4.1', 'gcc', '-O2', { status: 'partial', modes: 1, min_repeats: 1, server_failed_runs: 1, failed_tests: 2, build_attempts: 2 })))
      .toBe('Redis 7.4.1 gcc -O2: repeats to come; 1 of 3 repeats measured; 1 run where the server failed; 2 test results failed in every repeat; '
        + '2 builds (retries, or one per machine). Show its build and runs.');
    expect(gridCellText(cell('2.6.17', 'clang', '-Os', { status: 'build_failed', build_error: 'make exited 2' })))
      .toBe('Redis 2.6.17 clang -Os: build failed; make exited 2. Show its build and runs.');
    expect(gridCellText(cell('2.6.17', 'clang', '-Os', { status: 'build_failed' }))).toContain('build failed; no error recorded.');
    expect(gridCellText(cell('7.4.1', 'gcc', '-O2', { status: 'not_collected', min_repeats: 0 }))).toBe('Redis 7.4.1 gcc -O2: not collected. Show its build and runs.');
  });
});

describe('a cell\'s build', () => {
  it('has no facts before it is built', () => {
    expect(buildFacts([])).toEqual([]);
  });

  it('gives the facts of the build the site uses, its time and size only when it succeeded', () => {
    const facts = buildFacts([build({ source_commit: 'abc123', compat_flags: '-std=gnu99' })]);
    expect(facts.map((f) => f.term)).toEqual([
      'Build', 'Compiler', 'CFLAGS (OPTIMIZATION)', 'LDFLAGS (REDIS_LDFLAGS)', 'Compatibility flags', 'Dependencies built with the flags',
      'Make command', 'Source', 'Build time, binary', 'Code (mapped sections)',
    ]);
    expect(facts.map((f) => f.value)).toEqual([
      'ok, 2026-11-02 10:00 UTC, machine m1', 'gcc (/usr/bin/gcc): gcc 12.2.0', '-O2', '(none)', '-std=gnu99', 'no', 'make -j2',
      'tarball redis-7.4.1.tar.gz (commit abc123), checksum verified', '95 s (+40 s dependencies), redis-server 2.3 MiB',
      `sha256 3d4667a469dc010b${'0'.repeat(48)}; REDIS_BUILD_ID 1700000000; jemalloc for 48-bit addresses`,
    ]);
    expect(codeText({ code_sha256: null, redis_build_id: null, jemalloc_lg_vaddr: null }))
      .toBe("not recorded; REDIS_BUILD_ID not recorded (host name and build time); jemalloc's address bits not recorded (then the build host's)");
    expect(codeText({ code_sha256: null, redis_build_id: '', jemalloc_lg_vaddr: 0 })).toBe('not recorded; no REDIS_BUILD_ID (2.6); jemalloc without address bits (before 5.0)');
    expect(codeText({ code_sha256: 'ad11cf07', redis_build_id: '1700000000', jemalloc_lg_vaddr: 57 }))
      .toBe("sha256 ad11cf07; REDIS_BUILD_ID 1700000000; jemalloc for 57-bit addresses (the build host's, not the fixed 48)");
    const failed = buildFacts([build({ status: 'failed', error: 'make exited 2', finished_at: null, source_verified: false })]);
    expect(failed[0]?.value).toBe('failed: make exited 2, machine m1');
    expect(failed.find((f) => f.term === 'Source')?.value).toBe('tarball redis-7.4.1.tar.gz');
    expect(failed.some((f) => f.term === 'Build time, binary' || f.term === 'Code (mapped sections)')).toBe(false);
  });

  it('lists every build when there are several, a line each', () => {
    const builds = [build(), build({ machine_id: 'm2', finished_at: null }), build({ status: 'failed', error: 'out of memory', machine_id: 'm3' })];
    const all = buildFacts(builds).at(-1);
    expect(all?.term).toBe('All 3 builds');
    expect(all?.value).toEqual(allBuildsLines(builds));
    expect(allBuildsLines(builds)).toEqual([
      `ok on machine m1, 2026-11-02 10:00 UTC: ${buildFigures(builds[0]!)}, code 3d4667a469dc`,
      `ok on machine m2: ${buildFigures(builds[0]!)}, code 3d4667a469dc`,
      'failed on machine m3, 2026-11-02 10:00 UTC: out of memory',
    ]);
  });

  it('says when a build\'s code hash was given by its counts, not read from its binary', () => {
    const old = build({ code_identified_by: '7.4.1|gcc|-O2|count-data|1|20261207T220000.000' });
    expect(allBuildsLines([old])).toEqual([`ok on machine m1, 2026-11-02 10:00 UTC: ${buildFigures(old)}, code 3d4667a469dc (identified by its counts)`]);
  });
});

describe('a cell\'s runs', () => {
  const run: RunDetailRow = {
    mode: 'data', repeat: 2, status: 'ok', duration_seconds: 61.6, load1_before: 0.5, load1_after: 1.25, ok_tests: 20, failed_tests: 1,
    unsupported_tests: 2, started_at: '2026-11-02 10:05', machine_id: 'm1', busy_pct: 35.4, mem_write_before: 45.12e9, mem_write_after: 44.8e9, steal_pct: 1.23,
  };

  it('give a row per run, in the header\'s order', () => {
    const table = runsTable([run, { ...run, busy_pct: null, mem_write_after: null, steal_pct: null, started_at: null }]);
    expect(table.headers).toHaveLength(11);
    expect(table.rows).toEqual([
      ['data', '2', 'ok', '20 / 1 / 2', '62 s', '0.50 → 1.25', '⚠ 35%', '45.1 → 44.8 GB/s', '1.2%', 'm1', '2026-11-02 10:05'],
      ['data', '2', 'ok', '20 / 1 / 2', '62 s', '0.50 → 1.25', 'not recorded', 'not recorded', 'not recorded', 'm1', ''],
    ]);
  });

  it('flag a busy machine and a busy host, and say when nothing was recorded', () => {
    expect([othersText(10), othersText(20.4), othersText(null)]).toEqual(['10%', '⚠ 20%', 'not recorded']);
    expect([stealText(10), stealText(24.06), stealText(null)]).toEqual(['10.0%', '⚠ 24.1%', 'not recorded']);
    expect(memWriteText(1e9, null)).toBe('not recorded');
  });

  it('give a row per run measured again, with its speed against its replacement', () => {
    const redone: RedoneRunRow = {
      mode: 'pipe', repeat: 1, status: 'ok', started_at: '2026-11-01 09:00', redo_reason: 'steal', busy_pct: 3, steal_pct: 30, speed: 0.8, replaced_at: null,
    };
    const table = redoneTable([redone, { ...redone, speed: null }]);
    expect(table.headers).toHaveLength(9);
    expect(table.rows).toEqual([
      ['pipe', '1', 'ok', 'steal', '3%', '⚠ 30.0%', '−20.0% (0.80×)', '2026-11-01 09:00', ''],
      ['pipe', '1', 'ok', 'steal', '3%', '⚠ 30.0%', 'no figures to compare', '2026-11-01 09:00', ''],
    ]);
    expect(speedText(1.05)).toBe('+5.0% (1.05×)');
  });

  it('sum up the runs measured again per mode, or say there are none', () => {
    expect(redoneSummaryText([])).toBe('No run on this hardware was measured again.');
    expect(redoneSummaryText([{ mode: 'data', runs: 0, compared: 0, median_speed: null }])).toBe('No run on this hardware was measured again.');
    expect(redoneSummaryText([{ mode: 'data', runs: 3, compared: 2, median_speed: 0.9 }, { mode: 'pipe', runs: 1, compared: 0, median_speed: null }])).toBe(
      'Runs measured again on this hardware (busy machine, host steal, failed server or an older measurement; kept, not charted; each cell lists its own): 4: '
      + 'data mode 3, a median −10.0% against their replacements (2 compared); pipe mode 1.');
  });
});
