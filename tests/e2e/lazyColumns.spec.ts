/**
 * The large columns (raw client output, build log tails, latencies other than p50, the counters) are not
 * fetched at start: the page loads the lean split files, and a table's lazy file when something
 * asks for its columns (the status grid's build log, the SQL console).
 */
import { expect, test } from '@playwright/test';
import { dataRequests, waitForCharts } from './helpers';

test('the page starts with the lean files only, and fetches a lazy column when the status grid shows a build log', async ({ page }) => {
  const seen = dataRequests(page);
  await page.goto('./?metric=rps&section=status');
  await waitForCharts(page);
  await page.waitForFunction(() => performance.getEntriesByName('page:ready').length > 0);
  expect(seen).toContain('first-view.json');
  expect(seen).toContain('split/runs.parquet');
  expect(seen).toContain('split/results.parquet');
  expect(seen.filter((p) => /^(builds|runs|results|redone_runs|redone_results)\.parquet$/.test(p))).toEqual([]);
  expect(seen.filter((p) => p.endsWith('.lazy.parquet'))).toEqual([]);

  const status = page.locator('#section-status');
  await status.locator('button[data-cell="7.4.1|clang|-Ofast"]').click();
  const detail = status.locator('article[data-cell="7.4.1|clang|-Ofast"]');
  await expect(detail.locator('pre.build-log')).toHaveText(/hiredis\.c:1:1: error: compilation failed/);
  expect(seen.filter((p) => p.endsWith('.lazy.parquet'))).toEqual(['split/builds.lazy.parquet']);
});

test('the console reads every lazy column, fetched before its first script', async ({ page }) => {
  const seen = dataRequests(page);
  const sql = `SELECT (SELECT count(*) FROM runs WHERE raw_output IS NULL) AS runs_without_output,
  (SELECT count(*) FROM results WHERE status = 'ok' AND p99_latency_ms IS NULL) AS results_without_p99,
  (SELECT count(*) FROM builds WHERE log_tail IS NULL) AS builds_without_log`;
  await page.goto(`./?metric=rps&sql=${encodeURIComponent(sql)}`);
  await expect(page.locator('#sql-status')).toHaveText(/1 row/);
  await expect(page.locator('#sql-results tbody tr').first()).toHaveText(/^\s*0\s*0\s*0\s*$/);
  expect(seen.filter((p) => p.endsWith('.lazy.parquet')).sort()).toEqual([
    'split/builds.lazy.parquet', 'split/count_runs.lazy.parquet', 'split/count_runs_superseded.lazy.parquet', 'split/counts.lazy.parquet', 'split/redone_results.lazy.parquet',
    'split/redone_runs.lazy.parquet', 'split/results.lazy.parquet', 'split/runs.lazy.parquet',
  ]);
});
