// @ts-check
/**
 * Builds the site for browser tests and the benchmark, served under a sub-path like GitHub Pages,
 * and puts a dataset into its data/ folder (never into public/data/, which holds real results only).
 *
 *   node tests/e2e/build-site.mjs                       -> dist-e2e/ with the fixture dataset
 *   node tests/e2e/build-site.mjs --out D --data DIR    -> D/ with DIR's Parquet files
 *
 * Rebuilds only when a source file is newer than the last build. Data files are copied under the
 * names the site reads: "fixture-results.parquet", "fixture-full-results.parquet" and
 * "fixture-every-release-results.parquet" become "results.parquet".
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSiteData } from '../../scripts/site-data.mjs';

/** The sub-path the tests serve the site under, as on https://USER.github.io/REPO/. */
export const BASE_PATH = '/redis-compiler-benchmarks/';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCES = ['src', 'scripts', 'index.html', 'vite.config.ts', 'package.json', 'tsconfig.json'];

/** @param {string} p @returns {number} newest modification time under p */
function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(p).map((name) => newest(path.join(p, name))));
}

/**
 * Builds into `outDir` if needed and installs the Parquet files of `dataDir` as its data, with
 * the files the build derives from them (scripts/site-data.mjs: the first view).
 * @param {{ outDir: string, dataDir: string }} options
 */
export async function buildSite({ outDir, dataDir }) {
  const stamp = path.join(outDir, '.built');
  const stale = !fs.existsSync(stamp) || Math.max(...SOURCES.map((s) => newest(path.join(root, s)))) > fs.statSync(stamp).mtimeMs;
  if (stale) {
    console.log(`building the site into ${path.relative(root, outDir)} with BASE_PATH=${BASE_PATH}`);
    execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, BASE_PATH },
    });
    fs.writeFileSync(stamp, new Date().toISOString());
  }
  const target = path.join(outDir, 'data');
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  for (const name of fs.readdirSync(dataDir).filter((n) => n.endsWith('.parquet'))) {
    fs.copyFileSync(path.join(dataDir, name), path.join(target, name.replace(/^fixture-(full-|every-release-)?/, '')));
  }
  await writeSiteData(target);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (/** @type {string} */ name, /** @type {string} */ fallback) => {
    const i = args.indexOf(name);
    return path.resolve(root, (i >= 0 && args[i + 1]) || fallback);
  };
  await buildSite({ outDir: option('--out', 'dist-e2e'), dataDir: option('--data', 'tests/fixtures') });
}
