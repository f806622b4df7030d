/**
 * Colours: compilers from the Okabe-Ito palette (distinguishable with the common colour-vision
 * deficiencies), each after the first with a white texture laid over it, so compilers stay apart
 * in grayscale too (Okabe-Ito's blue and vermillion are close in lightness); missing data as grey
 * patterns so it never reads as a short bar.
 */
import { scaleOrdinal, type ScaleOrdinal } from 'd3-scale';
import type { CellStatus } from '../vocabulary';
import { svgElement } from './svg';

/** In this order, the first four reach 3:1 contrast against both the light and the dark cards. */
export const OKABE_ITO = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#F0E442'];

/** The texture (pattern id) over each palette colour, by position; the first colour is plain. */
const TEXTURES = [null, 'texture-stripes', 'texture-dots', 'texture-crosshatch', 'texture-rows', 'texture-columns', 'texture-grid'];

/** The pattern id of the texture laid over bars of a compiler colour, or null for a plain fill. */
export function textureFor(color: string): string | null {
  return TEXTURES[OKABE_ITO.indexOf(color)] ?? null;
}

/** A colour per compiler, in the order given (the plan's compiler order). */
export function compilerColors(compilers: readonly string[]): ScaleOrdinal<string, string> {
  return scaleOrdinal<string, string>().domain(compilers).range(OKABE_ITO);
}

/** A status that has no figure: everything but ok. */
export type MissingStatus = Exclude<CellStatus, 'ok'>;

/** How each missing status is drawn and named. Short labels fit inside a bar's column. */
export const MISSING_STYLE: Readonly<Record<MissingStatus, { label: string; pattern: string }>> = {
  not_collected: { label: 'not collected', pattern: 'pattern-pending' },
  build_failed: { label: 'build failed', pattern: 'pattern-failed' },
  server_failed: { label: 'server failed', pattern: 'pattern-failed' },
  failed: { label: 'test failed', pattern: 'pattern-failed' },
  unsupported: { label: 'unsupported', pattern: 'pattern-unsupported' },
};

/** Id of the hidden SVG whose defs hold the shared patterns (chart export copies them). */
export const PATTERNS_ID = 'chart-patterns';

/** Adds the shared SVG patterns for missing data to the document, once. */
export function ensurePatterns(doc: Document): void {
  if (doc.getElementById(PATTERNS_ID)) return;
  const pattern = (id: string, transform: string | null, ...shapes: Node[]) =>
    svgElement(doc, 'pattern', { id, width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: transform }, ...shapes);
  const white = { stroke: '#ffffff', 'stroke-opacity': 0.6, 'stroke-width': 1.5 };
  const line = (x1: number, y1: number, x2: number, y2: number) => svgElement(doc, 'line', { x1, y1, x2, y2, ...white });
  const defs = svgElement(doc, 'defs', {},
    pattern('pattern-failed', 'rotate(45)', svgElement(doc, 'line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#b91c1c55', 'stroke-width': 2 })),
    pattern('pattern-unsupported', null, svgElement(doc, 'circle', { cx: 3, cy: 3, r: 1, fill: '#6b728088' })),
    pattern('pattern-pending', null),
    pattern('texture-stripes', 'rotate(45)', line(0, 0, 0, 6)),
    pattern('texture-dots', null, svgElement(doc, 'circle', { cx: 3, cy: 3, r: 1.4, fill: '#ffffff', 'fill-opacity': 0.7 })),
    pattern('texture-crosshatch', 'rotate(45)', line(0, 0, 0, 6), line(0, 0, 6, 0)),
    pattern('texture-rows', null, line(0, 3, 6, 3)),
    pattern('texture-columns', null, line(3, 0, 3, 6)),
    pattern('texture-grid', null, line(0, 3, 6, 3), line(3, 0, 3, 6)),
  );
  const svg = svgElement(doc, 'svg', { id: PATTERNS_ID, 'aria-hidden': 'true', width: 0, height: 0, style: 'position:absolute' }, defs);
  doc.body.append(svg);
}
