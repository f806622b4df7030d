/**
 * The layering of src/ (docs/site.md, "Architecture"): every relative import, static, type-only or
 * dynamic, runs to the importer's own folder or to a layer listed before its own. The layer list
 * is read from the docs, so the rule checked is the rule documented.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = path.join(root, 'src');

/** A layer's place: its position in the list (1 = the bottom), per folder ("sql/") or root module ("main.ts"). */
type Levels = ReadonlyMap<string, number>;

/**
 * The numbered list at the top of the Architecture section: each item names its folders in
 * backticks, before its first colon or as sub-items ("   - `data/`: ...").
 */
function documentedLevels(markdown: string): Levels {
  const start = markdown.indexOf('\n## Architecture\n');
  if (start < 0) throw new Error('docs/site.md has no "## Architecture" section');
  const section = markdown.slice(start + 1).split(/\n#{2,3} /)[0] ?? '';
  const levels = new Map<string, number>();
  let level = 0;
  const named = (text: string) => [...(text.split(':')[0] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
  for (const line of section.split('\n')) {
    const item = /^(\d+)\. (.*)$/.exec(line);
    const sub = /^ {2,}- (`.*)$/.exec(line);
    if (item) {
      level = Number(item[1]);
      for (const name of named(item[2] ?? '')) levels.set(name, level);
    } else if (sub && level > 0) {
      for (const name of named(sub[1] ?? '')) levels.set(name, level);
    }
  }
  return levels;
}

/** The layer name of a module path relative to src/: its top folder ("sql/") or, at the root, its file name. */
function layerOf(relative: string): string {
  const parts = relative.split('/');
  return parts.length > 1 ? `${parts[0]}/` : relative;
}

/** Every .ts file under `dir`, relative to it, with its text. */
function readSources(dir: string): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const full = path.join(folder, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts')) sources.set(path.relative(dir, full).split(path.sep).join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(dir);
  return sources;
}

/** One relative import: who imports what (both relative to src/), on which line. */
interface Edge {
  readonly from: string;
  readonly to: string;
  readonly line: number;
}

/**
 * Every relative import of every module, resolved to a module of `sources` (a stylesheet is not
 * a module; an import that resolves to nothing is an error).
 */
function importEdges(sources: ReadonlyMap<string, string>): Edge[] {
  const edges: Edge[] = [];
  for (const [file, text] of sources) {
    // Syntactic only: import, import type, export ... from, and import() all count.
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      if (/\.css(\?.*)?$/.test(ref.fileName)) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), ref.fileName));
      const to = [target, `${target}.ts`, `${target}/index.ts`].find((candidate) => sources.has(candidate));
      if (!to) throw new Error(`${file}: import '${ref.fileName}' resolves to no module under src/`);
      edges.push({ from: file, to, line: text.slice(0, ref.pos).split('\n').length });
    }
  }
  return edges;
}

/** The imports that do not run to the importer's own folder or to a lower layer, as sentences. */
function upwardImports(edges: readonly Edge[], levels: Levels): string[] {
  return edges.flatMap(({ from, to, line }) => {
    const [a, b] = [levels.get(layerOf(from)), levels.get(layerOf(to))];
    if (layerOf(from) === layerOf(to) || (a !== undefined && b !== undefined && b < a)) return [];
    const unlisted = [from, to].map(layerOf).filter((layer) => !levels.has(layer));
    const how = unlisted.length ? `${unlisted.join(' and ')} not in the list` : a === b ? 'a folder of the same layer' : 'a higher layer';
    return [`${from}:${line} imports ${to} (${layerOf(to)}, ${how})`];
  });
}

const docs = readFileSync(path.join(root, 'docs/site.md'), 'utf8');

describe('the layers of src/', () => {
  const levels = documentedLevels(docs);
  const sources = readSources(SRC);

  it('are listed in docs/site.md, the vocabulary at the bottom and the entry point at the top', () => {
    expect(levels.get('vocabulary.ts')).toBe(1);
    expect(Math.max(...levels.values())).toBe(levels.get('main.ts'));
    expect([...levels.keys()].sort()).toEqual(['app/', 'chart/', 'console/', 'data/', 'export/', 'main.ts', 'model/', 'sql/', 'ui/', 'views/', 'vocabulary.ts']);
  });

  it('cover every module under src/', () => {
    const unlisted = [...sources.keys()].filter((file) => !levels.has(layerOf(file)));
    expect(unlisted).toEqual([]);
  });

  it('keep the vocabulary free of imports', () => {
    expect(importEdges(sources).filter((e) => e.from === 'vocabulary.ts')).toEqual([]);
  });

  it('see no import in src/ run upward or sideways', () => {
    const edges = importEdges(sources);
    // The parse found the imports (a broken parser would find none and pass).
    expect(edges.length).toBeGreaterThan(300);
    expect(edges.some((e) => e.from === 'app/openResults.ts' && e.to === 'console/console.ts')).toBe(true);
    expect(upwardImports(edges, levels)).toEqual([]);
  });

  it('tell an upward import from a downward one, whatever its form', () => {
    const planted = new Map([
      ['model/bars.ts', "import type { Bar } from '../chart/barChart';\nimport { query } from '../sql/query';\n"],
      ['sql/query.ts', 'export const query = 1;\n'],
      ['sql/charts.ts', "export { RPS } from '../vocabulary';\nconst later = () => import('../data/duckdb');\n"],
      ['chart/barChart.ts', "import {\n  type AxisView,\n} from '../model/domain';\nimport { Verdict } from '../vocabulary';\n"],
      ['model/domain.ts', ''],
      ['data/duckdb.ts', "import { svgElement } from '../chart/svg';\n"],
      ['chart/svg.ts', ''],
      ['vocabulary.ts', ''],
    ]);
    expect(upwardImports(importEdges(planted), levels)).toEqual([
      'model/bars.ts:1 imports chart/barChart.ts (chart/, a higher layer)',
      'sql/charts.ts:2 imports data/duckdb.ts (data/, a higher layer)',
      'data/duckdb.ts:1 imports chart/svg.ts (chart/, a folder of the same layer)',
    ]);
  });
});
