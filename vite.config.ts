import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vitest/config';

/** The site's public path: BASE_PATH from the environment (e.g. /REPO/ on GitHub Pages), default '/'. */
function basePath(raw: string | undefined): string {
  const trimmed = (raw ?? '/').trim().replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}/` : '/';
}

export default defineConfig({
  base: basePath(process.env.BASE_PATH),
  plugins: [tailwindcss()],
  // DuckDB-WASM ships its own workers and wasm; pre-bundling would break their URLs.
  optimizeDeps: { exclude: ['@duckdb/duckdb-wasm'] },
  build: {
    target: 'es2022',
    // The DuckDB wasm (18 MB) is fetched by its worker, never inlined; silence the size warning for it.
    chunkSizeWarningLimit: 1024,
    assetsInlineLimit: 0,
  },
  preview: { host: '127.0.0.1' },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    // The collector benchmarks on this machine at the same time: stay on one worker.
    maxWorkers: 1,
    // A guard against a hang, not a speed check (speed is measured by npm run bench): tests over
    // the published data take 12-27 s on a loaded 2-core machine, and the data keeps growing.
    testTimeout: 120_000,
    // Building a dataset's derived files (firstViewOf) in a beforeAll takes seconds, more under load.
    hookTimeout: 60_000,
  },
});
