/**
 * Builds the benchmark's two floor pages (tests/bench/floors/) into <site>/floors/, served next to
 * the site, whose data/ folder they read: `vite build --config tests/bench/vite.floors.config.ts`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

const floors = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floors');
const base = `/${(process.env.BASE_PATH ?? '/').replace(/^\/+|\/+$/g, '')}/floors/`.replace(/^\/\/+/, '/');

export default defineConfig({
  root: floors,
  base,
  plugins: [tailwindcss()],
  optimizeDeps: { exclude: ['@duckdb/duckdb-wasm'] },
  build: {
    target: 'es2022',
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1024,
    rollupOptions: { input: { static: path.join(floors, 'static.html'), duckdb: path.join(floors, 'duckdb.html') } },
  },
  logLevel: 'warn',
});
