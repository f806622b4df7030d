/**
 * Every relative link in README.md, CHANGELOG.md and docs/**\/*.md resolves: to a file or folder of
 * the repository and, for a link with `#anchor` into a Markdown file, to one of its headings as
 * GitHub names them. The docs are split into rules and evidence that link to each other, so a
 * heading renamed or a section moved breaks a link nobody would notice; no network.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The Markdown files checked, relative to the repository root. */
function markdownFiles(): string[] {
  const files = ['README.md', 'CHANGELOG.md'].filter((f) => existsSync(path.join(root, f)));
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir)).sort()) {
      const rel = `${dir}/${name}`;
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.md')) files.push(rel);
    }
  };
  walk('docs');
  return files;
}

/** A fenced code block, indented or not. */
const FENCED = /^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[^\n]*$/gm;

/** Code blanked out (lines kept): fenced blocks and inline spans, whose brackets are not links. */
function withoutCode(markdown: string): string {
  const blank = (code: string) => code.replace(/[^\n]/g, ' ');
  return markdown.replace(FENCED, blank).replace(/(`+)[\s\S]*?\1/g, blank);
}

/**
 * The anchors GitHub gives a file's headings: lower case, inline code's backticks and every
 * character but letters, digits, spaces, `-` and `_` dropped, spaces as `-`; a repeated one gets
 * `-1`, `-2`, ...
 */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.replace(FENCED, '');
  for (const m of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const slug = (m[1] ?? '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** The targets of a file's inline links and images (`[text](target)`, `src="target"`), with their lines. */
function linkTargets(markdown: string): { target: string; line: number }[] {
  const text = withoutCode(markdown);
  const found: { target: string; line: number }[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push({ target: m[1] ?? '', line: lineOf(m.index) });
  for (const m of text.matchAll(/\b(?:src|href)="([^"]+)"/g)) found.push({ target: m[1] ?? '', line: lineOf(m.index) });
  return found;
}

/** Why `target`, linked from `file`, does not resolve, or null when it does. */
function broken(file: string, target: string, anchorsOf: (file: string) => Set<string>): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto:, ...: not checked offline
  const [pathPart = '', anchor] = target.split('#', 2);
  const resolved = pathPart ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(pathPart))) : file;
  if (resolved.startsWith('..')) return `${target}: outside the repository`;
  if (!existsSync(path.join(root, resolved))) return `${target}: no file ${resolved}`;
  if (anchor === undefined || !resolved.endsWith('.md')) return null;
  return anchorsOf(resolved).has(decodeURIComponent(anchor).toLowerCase()) ? null : `${target}: no heading #${anchor} in ${resolved}`;
}

describe('the links of the docs', () => {
  it('name GitHub anchors as GitHub does', () => {
    const anchors = headingAnchors('# Method\n## The noise rule (`src/sql/noise.ts`)\n### jemalloc\'s bits (`LG_VADDR`)\n## Reading Parquet: DuckDB-WASM 1.28.0\n## Again\n## Again\n```\n# not a heading\n```\n');
    expect([...anchors]).toEqual(['method', 'the-noise-rule-srcsqlnoisets', 'jemallocs-bits-lg_vaddr', 'reading-parquet-duckdb-wasm-1280', 'again', 'again-1']);
  });

  it('read link targets outside code only', () => {
    const targets = linkTargets('See [a](method.md#x) and `[b](nowhere.md)`.\n```\n[c](no.md)\n```\n<img src="shot.png" alt="">\n[d](https://example.org)');
    expect(targets).toEqual([
      { target: 'method.md#x', line: 1 },
      { target: 'https://example.org', line: 6 },
      { target: 'shot.png', line: 5 },
    ]);
  });

  it('resolve to a file of the repository and a heading of it', () => {
    const files = markdownFiles();
    // The walk found the docs (a broken walk would find none and pass).
    expect(files).toContain('docs/method.md');
    expect(files.some((f) => f.startsWith('docs/evidence/'))).toBe(true);
    const cache = new Map<string, Set<string>>();
    const anchorsOf = (file: string) => {
      let anchors = cache.get(file);
      if (!anchors) cache.set(file, (anchors = headingAnchors(readFileSync(path.join(root, file), 'utf8'))));
      return anchors;
    };
    const problems = files.flatMap((file) =>
      linkTargets(readFileSync(path.join(root, file), 'utf8')).flatMap(({ target, line }) => {
        const why = broken(file, target, anchorsOf);
        return why ? [`${file}:${line}: ${why}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });
});
