/**
 * Colours: compilers from the Okabe-Ito palette (distinguishable with the common colour-vision
 * deficiencies), missing data as grey patterns so it never reads as a short bar.
 */
import { scaleOrdinal, type ScaleOrdinal } from 'd3-scale';
import type { CellStatus } from '../sql/charts';

const OKABE_ITO = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#F0E442'];

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

const PATTERNS_ID = 'chart-patterns';

/** Adds the shared SVG patterns for missing data to the document, once. */
export function ensurePatterns(doc: Document): void {
  if (doc.getElementById(PATTERNS_ID)) return;
  const ns = 'http://www.w3.org/2000/svg';
  const svg = doc.createElementNS(ns, 'svg');
  svg.id = PATTERNS_ID;
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('width', '0');
  svg.setAttribute('height', '0');
  svg.style.position = 'absolute';
  const defs = doc.createElementNS(ns, 'defs');
  const make = (id: string, stroke: string, shape: 'diagonal' | 'dots' | 'none') => {
    const p = doc.createElementNS(ns, 'pattern');
    p.id = id;
    p.setAttribute('width', '6');
    p.setAttribute('height', '6');
    p.setAttribute('patternUnits', 'userSpaceOnUse');
    if (shape === 'diagonal') {
      p.setAttribute('patternTransform', 'rotate(45)');
      const line = doc.createElementNS(ns, 'line');
      line.setAttribute('x1', '0');
      line.setAttribute('y1', '0');
      line.setAttribute('x2', '0');
      line.setAttribute('y2', '6');
      line.setAttribute('stroke', stroke);
      line.setAttribute('stroke-width', '2');
      p.append(line);
    } else if (shape === 'dots') {
      const dot = doc.createElementNS(ns, 'circle');
      dot.setAttribute('cx', '3');
      dot.setAttribute('cy', '3');
      dot.setAttribute('r', '1');
      dot.setAttribute('fill', stroke);
      p.append(dot);
    }
    defs.append(p);
  };
  make('pattern-failed', '#b91c1c55', 'diagonal');
  make('pattern-unsupported', '#6b728088', 'dots');
  make('pattern-pending', '#0000', 'none');
  svg.append(defs);
  doc.body.append(svg);
}
