/** Creating SVG elements with their attributes in one call. */

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
