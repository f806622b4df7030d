/** Creating SVG elements with their attributes in one call, and the selections a chart keeps of them. */
import type { Selection } from 'd3-selection';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element of `tag` with `attrs` (null omits one) and `children`. */
export function svgElement<K extends keyof SVGElementTagNameMap>(
  doc: Document,
  tag: K,
  attrs: Readonly<Record<string, string | number | null>> = {},
  ...children: Node[]
): SVGElementTagNameMap[K] {
  const node = doc.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== null) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

/** A d3 selection of one element a chart made and keeps (no data bound to it, no parent selection). */
export type Part<E extends Element> = Selection<E, unknown, null, undefined>;

/** The parts of a chart with a value axis, a category axis and a plot between them. */
export interface AxesParts {
  readonly svg: Part<SVGSVGElement>;
  readonly yAxis: Part<SVGGElement>;
  readonly xAxis: Part<SVGGElement>;
  readonly plot: Part<SVGGElement>;
}
