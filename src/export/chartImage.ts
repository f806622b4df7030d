/**
 * A chart as a standalone image: the drawn SVG with its styles written into it (the page's CSS
 * does not travel with a file), the patterns it uses, and around it the title, the axis range,
 * a legend and the data source, so the picture says what it shows wherever it ends up.
 * PNG is the same SVG drawn onto a canvas.
 */
import { PATTERNS_ID } from '../chart/palette';
import { svgElement } from '../chart/svg';

/** What the image states besides the chart. */
export interface ImageText {
  readonly title: string;
  readonly subtitle: string;
  /** The printed value-axis range. */
  readonly axis: string;
  /** Where the data comes from, a line each. */
  readonly source: readonly string[];
  readonly legend: readonly LegendEntry[];
}

/** One legend entry: a swatch (fill, optional texture pattern id, dashed outline) and its label. */
export interface LegendEntry {
  readonly label: string;
  readonly fill: string;
  readonly texture?: string | null;
  readonly dashed?: boolean;
}

/** An SVG document and its size in CSS pixels. */
export interface ChartImage {
  readonly svg: string;
  readonly width: number;
  readonly height: number;
}

/** Presentation properties copied from the page's computed styles; SVG inherits these. */
const INHERITED = [
  'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-opacity',
  'font-family', 'font-size', 'font-weight', 'text-anchor', 'dominant-baseline', 'visibility',
];
/** Properties that are not inherited, with their initial values. */
const NOT_INHERITED: Readonly<Record<string, string>> = { opacity: '1', display: 'inline' };
const PAD = 16;
/** Below the drawing: room for x-axis labels drawn past its edge (rotated ones). */
const LABEL_OVERHANG = 28;

/**
 * Breaks `text` into lines of at most `max` characters, at spaces, or after "/", "&" and "?" in
 * long URLs; a word longer than `max` is cut.
 */
export function wrapText(text: string, max: number): string[] {
  const pieces = text.split(/(?<=[\s/&?])/);
  const lines: string[] = [];
  let line = '';
  for (let piece of pieces) {
    while (piece.length > max) {
      if (line) lines.push(line.trimEnd());
      lines.push(piece.slice(0, max));
      piece = piece.slice(max);
      line = '';
    }
    if ((line + piece).trimEnd().length > max) {
      lines.push(line.trimEnd());
      line = '';
    }
    line += line || !/^\s+$/.test(piece) ? piece : '';
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

/**
 * Copies computed styles from `source` and its descendants onto `target` (a deep clone of it):
 * each property where it differs from what the element inherits, so the file stays small.
 */
function inlineStyles(source: Element, target: Element, parent: CSSStyleDeclaration | null): void {
  const computed = getComputedStyle(source);
  const own = (p: string) => computed.getPropertyValue(p);
  const declarations = [
    ...INHERITED.filter((p) => !parent || own(p) !== parent.getPropertyValue(p)),
    ...Object.keys(NOT_INHERITED).filter((p) => own(p) !== NOT_INHERITED[p]),
  ].map((p) => `${p}:${own(p)}`);
  if (declarations.length) target.setAttribute('style', declarations.join(';'));
  else target.removeAttribute('style');
  // A picture has no buttons: drop what made the page's bars interactive.
  for (const name of ['class', 'tabindex', 'role']) target.removeAttribute(name);
  [...source.children].forEach((child, i) => {
    const copy = target.children[i];
    if (copy) inlineStyles(child, copy, computed);
  });
}

const opaque = (color: string, fallback: string) => (!color || color === 'transparent' || /rgba\(.*,\s*0\)$/.test(color) ? fallback : color);

/** The image of `chart` (a drawn bar chart) inside `figure` (whose colours and font it takes). */
export function chartImage(chart: SVGSVGElement, figure: HTMLElement, text: ImageText): ChartImage {
  const doc = chart.ownerDocument;
  const box = chart.viewBox.baseVal;
  const width = Math.round(box.width) + 2 * PAD;
  // Characters that fit on a line at a font size (an average glyph is ~0.56 em wide).
  const fits = (size: number) => Math.floor((width - 2 * PAD) / (size * 0.56));
  const style = getComputedStyle(figure);
  const ink = style.color;
  const font = style.fontFamily;
  const background = opaque(style.backgroundColor, '#ffffff');

  const root = svgElement(doc, 'svg', { role: 'img', 'font-family': font, fill: ink });
  const parts: Element[] = [];
  let y = PAD;
  const textLine = (content: string, size: number, extra: Record<string, string | number> = {}) => {
    y += Math.round(size * 1.35);
    const node = svgElement(doc, 'text', { x: PAD, y, 'font-size': size, ...extra });
    node.textContent = content;
    parts.push(node);
  };
  textLine(text.title, 16, { 'font-weight': 700 });
  for (const line of wrapText(text.subtitle, fits(12))) textLine(line, 12, { 'fill-opacity': 0.85 });
  textLine(text.axis, 12, { 'fill-opacity': 0.85 });
  y += 8;

  const drawing = chart.cloneNode(true) as SVGSVGElement;
  inlineStyles(chart, drawing, null);
  drawing.removeAttribute('aria-label');
  Object.entries({ x: PAD, y, width: box.width, height: box.height, overflow: 'visible' }).forEach(([k, v]) => drawing.setAttribute(k, String(v)));
  parts.push(drawing);
  y += box.height + LABEL_OVERHANG;

  // Legend: swatches with labels, wrapped to the width.
  let x = PAD;
  y += 4;
  for (const entry of text.legend) {
    const span = 18 + entry.label.length * 11 * 0.56 + 14;
    if (x > PAD && x + span > width - PAD) {
      x = PAD;
      y += 18;
    }
    const swatch = { x, y: y - 10, width: 12, height: 12 };
    parts.push(svgElement(doc, 'rect', { ...swatch, fill: entry.fill, stroke: entry.fill.startsWith('url(') ? '#94a3b8' : 'none', 'stroke-dasharray': entry.dashed ? '3 2' : null }));
    if (entry.texture) parts.push(svgElement(doc, 'rect', { ...swatch, fill: `url(#${entry.texture})` }));
    const label = svgElement(doc, 'text', { x: x + 17, y, 'font-size': 11 });
    label.textContent = entry.label;
    parts.push(label);
    x += span;
  }
  y += 10;
  for (const line of text.source.flatMap((s) => wrapText(s, fits(10)))) textLine(line, 10, { 'fill-opacity': 0.8 });
  const height = Math.ceil(y + PAD);

  const title = svgElement(doc, 'title');
  title.textContent = `${text.title}: ${text.subtitle}`;
  const desc = svgElement(doc, 'desc');
  desc.textContent = [text.axis, ...text.source].join('\n');
  const patterns = doc.getElementById(PATTERNS_ID)?.querySelector('defs')?.cloneNode(true);
  Object.entries({ width, height, viewBox: `0 0 ${width} ${height}` }).forEach(([k, v]) => root.setAttribute(k, String(v)));
  root.append(title, desc, ...(patterns ? [patterns] : []), svgElement(doc, 'rect', { width, height, fill: background }), ...parts);
  const svg = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(root)}\n`;
  return { svg, width, height };
}

/** The image drawn at `scale` times its size as a PNG. */
export async function pngBlob(image: ChartImage, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([image.svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(image.width * scale);
    canvas.height = Math.round(image.height * scale);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This browser cannot draw on a canvas.');
    context.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The PNG could not be made.'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
