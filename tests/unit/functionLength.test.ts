/**
 * Functions short enough to name what they do (docs/STYLE: a closure of 200 lines is several
 * functions): no function in src/ (declaration, method, arrow or function expression, nested or
 * not) spans more than MAX_LINES lines.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_LINES = 80;

/** One function: where it starts, what it is called, and how many lines it spans. */
interface Span {
  readonly where: string;
  readonly lines: number;
}

/** A function's name: its own, or the variable or property it is assigned to, else the enclosing one's. */
function nameOf(node: ts.FunctionLikeDeclaration, sf: ts.SourceFile, owner: string): string {
  if (node.name) return node.name.getText(sf);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(sf);
  return `${owner} (a function inside it)`;
}

/** Every function in `text` with its length in lines. */
function functionSpans(file: string, text: string): Span[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const spans: Span[] = [];
  const visit = (node: ts.Node, owner: string) => {
    let name = owner;
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
      name = nameOf(node, sf, owner);
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      spans.push({ where: `${file}:${start + 1} ${name}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(sf, '');
  return spans;
}

/** Every .ts file under `dir`, relative to the repository root. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith('.ts') ? [path.relative(root, full)] : [];
  });
}

describe('functions in src/', () => {
  it('measure nested closures and arrow functions, not only declarations', () => {
    const spans = functionSpans('x.ts', 'export function outer() {\n  const inner = () => {\n    return 1;\n  };\n  return inner;\n}\n');
    expect(spans.map((s) => [s.where, s.lines])).toEqual([['x.ts:1 outer', 6], ['x.ts:2 inner', 3]]);
  });

  it(`span at most ${MAX_LINES} lines each`, () => {
    const files = sources(path.join(root, 'src'));
    expect(files.length).toBeGreaterThan(50);
    const long = files.flatMap((file) => functionSpans(file, readFileSync(path.join(root, file), 'utf8')))
      .filter((s) => s.lines > MAX_LINES).map((s) => `${s.where}: ${s.lines} lines`);
    expect(long).toEqual([]);
  });
});
