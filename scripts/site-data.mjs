// @ts-check
/**
 * Adds the build's derived files to a data folder: `node scripts/site-data.mjs DIR` writes
 * DIR/first-view.json, the further answer files and the split files (DIR/split/) from DIR's
 * Parquet files (scripts/siteData.ts). `npm run build` runs it on
 * dist/data; the browser tests and the benchmark run it on the data they install.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Writes the derived files into `dir`.
 * @param {string} dir
 */
export async function writeSiteData(dir) {
  const { module } = await runnerImport(path.join(root, 'scripts/siteData.ts'), { configFile: false, logLevel: 'error' });
  return /** @type {{ writeSiteData(dir: string): Promise<string> }} */ (module).writeSiteData(dir);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: node scripts/site-data.mjs DATA_DIR');
  const out = await writeSiteData(path.resolve(dir));
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
}
