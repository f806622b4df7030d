/**
 * The answer chart: one row per build, sorted, a dot at its change in instructions per request
 * against the baseline (filled beyond its noise band, hollow within it), its noise band
 * shaded around the dot, a dashed line at the baseline, and the change written at the right.
 * Rows are list items that name all of it. It only draws.
 */
import { axisBottom } from 'd3-axis';
import { format } from 'd3-format';
import { scaleBand, scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { type AnswerBuild, signedPercent } from '../model/answer';
import { svgElement } from './svg';

/** A drawn answer chart. */
export interface AnswerChart {
  update(builds: readonly AnswerBuild[], label: string): void;
  destroy(): void;
}

const WIDTH = 420;
const ROW_H = 13;
const MARGIN = { top: 2, right: 54, bottom: 20, left: 112 };
/** The axis spans at least −2% … +2%. */
const MIN_SPAN = 0.02;

/** Draws `builds` into `el` (emptied first), coloured by `colorOf(compiler)`; `label` is its accessible name. */
export function answerChart(el: HTMLElement, builds: readonly AnswerBuild[], label: string, colorOf: (compiler: string) => string): AnswerChart {
  const svg = select(svgElement(el.ownerDocument, 'svg'))
    .attr('class', 'answer-chart block h-auto w-full select-none overflow-visible')
    .attr('role', 'list');
  el.replaceChildren(svg.node() as SVGSVGElement);
  const axis = svg.append('g').attr('class', 'x-axis text-slate-600');
  const zero = svg.append('line').attr('class', 'stroke-slate-500').attr('stroke-dasharray', '2 2');
  const plot = svg.append('g');

  function draw(data: readonly AnswerBuild[], name: string): void {
    const bottom = MARGIN.top + data.length * ROW_H;
    svg.attr('viewBox', `0 0 ${WIDTH} ${bottom + MARGIN.bottom}`).attr('aria-label', name);
    const low = Math.min(-MIN_SPAN / 2, ...data.map((b) => b.change - (b.band ?? 0)));
    const high = Math.max(MIN_SPAN / 2, ...data.map((b) => b.change + (b.band ?? 0)));
    const x = scaleLinear().domain([low, high]).range([MARGIN.left, WIDTH - MARGIN.right]).nice();
    const y = scaleBand<string>().domain(data.map((b) => b.name)).range([MARGIN.top, bottom]).padding(0.1);
    axis.attr('transform', `translate(0,${bottom})`).call(axisBottom(x).ticks(5).tickFormat(format('+.0%')).tickSizeOuter(0));
    axis.selectAll('text').attr('class', 'text-[10px]');
    zero.attr('x1', x(0)).attr('x2', x(0)).attr('y1', MARGIN.top).attr('y2', bottom);

    const rows = plot.selectAll<SVGGElement, AnswerBuild>('g.answer-row')
      .data(data, (b) => b.name)
      .join((enter) => {
        const g = enter.append('g').attr('class', 'answer-row').attr('role', 'listitem');
        g.append('rect').attr('class', 'band fill-slate-300');
        g.append('text').attr('class', 'row-label fill-slate-800 text-[10px]').attr('text-anchor', 'end').attr('dy', '0.35em');
        g.append('circle').attr('class', 'dot').attr('r', 4);
        g.append('text').attr('class', 'row-note fill-slate-800 text-[10px] tabular-nums').attr('dy', '0.35em');
        return g;
      })
      .attr('data-build', (b) => b.name)
      .attr('data-change', (b) => String(b.change))
      .attr('data-verdict', (b) => b.verdict)
      .attr('aria-label', (b) => rowText(b));

    rows.each(function (b) {
      const g = select(this);
      const top = y(b.name) ?? 0;
      const mid = top + y.bandwidth() / 2;
      const band = b.band ?? 0;
      g.select('rect.band').attr('x', x(b.change - band)).attr('width', Math.max(0, x(b.change + band) - x(b.change - band)))
        .attr('y', top).attr('height', y.bandwidth());
      g.select('text.row-label').attr('x', MARGIN.left - 6).attr('y', mid).text(b.name).classed('font-semibold', b.baseline);
      const color = colorOf(b.compiler);
      g.select('circle.dot').attr('cx', x(b.change)).attr('cy', mid)
        .attr('fill', b.verdict === 'tie' || b.baseline ? 'white' : color).attr('stroke', color).attr('stroke-width', 1.5);
      g.select('text.row-note').attr('x', WIDTH - MARGIN.right + 6).attr('y', mid).text(b.baseline ? 'baseline' : signedPercent(b.change));
    });
  }

  draw(builds, label);
  return {
    update: draw,
    destroy() {
      svg.remove();
    },
  };
}

/** A row in words, for screen readers: "clang -Ofast -flto: −2.26% instructions per request, beyond the spread ±0.00%". */
function rowText(b: AnswerBuild): string {
  if (b.baseline) return `${b.name}: the baseline`;
  const band = b.band === null ? 'spread unknown' : `${b.verdict === 'tie' ? 'within' : 'beyond'} the noise band of ±${(b.band * 100).toFixed(2)}%`;
  return `${b.name}: ${signedPercent(b.change)} instructions per request, ${band}`;
}
