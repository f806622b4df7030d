/**
 * The tools under each chart: its data table, the SQL behind it (as the state draws it), its rows
 * as CSV or Parquet and its picture as SVG or PNG. The table modules and the image export load on
 * first use; the console and the file writers are the app's (SectionTools).
 */
import { MISSING_STYLE, textureFor } from '../chart/palette';
import { VIEW_NAMES } from '../model/domain';
import { formatAxisRange } from '../model/format';
import { metricSuffix } from '../model/metric';
import { type AppState, chartKey, DEFAULTS } from '../model/state';
import { configBarsQuery } from '../sql/charts';
import { chartSql } from '../sql/chartSql';
import { TABLES, tableFile } from '../sql/schema';
import { fileSlug, MIME, saveFile } from '../export/download';
import { chartElementId } from '../ui/chartCard';
import { type ChartFile, chartTools, type ChartTools } from '../ui/chartTools';
import type { SectionTools } from '../ui/section';
import { type Metric, metricOf } from '../vocabulary';
import type { ChartData } from './chartData';

/** What the chart tools need from the page. */
export interface ChartResultsContext {
  readonly data: ChartData;
  /** Compilers in plan order, and their colours (the exported picture's legend). */
  readonly compilers: readonly string[];
  readonly colorOf: (compiler: string) => string;
  /** Folder URL of the published Parquet files (ends in '/'). */
  readonly dataUrl: string;
  state(): AppState;
  /** Shows and records a new state (a user action: pushed to history). */
  show(next: AppState): void;
  /** The absolute link to a state. */
  link(state: AppState): string;
  /** The console (a chart's SQL) and the file writers (its rows). */
  readonly tools: SectionTools;
}

/** A chart the tools are attached to. */
export interface ToolTarget {
  readonly mode: string;
  readonly test: string;
  readonly element: HTMLElement;
}

/** The tools of every chart. */
export interface ChartResults {
  /** Adds the tools under a chart. */
  attach(chart: ToolTarget): void;
  /** Brings the charts' data tables in line with `state`, after the charts are drawn for it. */
  sync(state: AppState): void;
}

interface Attached extends ToolTarget {
  readonly key: string;
  readonly tools: ChartTools;
  /** What the shown table was made for ('' when none is shown). */
  table: string;
}

/** An exported chart's subtitle: what its bars are, in `metric`. */
function imageSubtitle(metric: Metric, drill: string | undefined): string {
  const what = metric.name.replace(/^./, (c) => c.toUpperCase());
  const counted = metric.kind === 'counted' ? ` (counted under Valgrind, ${metric.direction})` : metric.lower ? ` (${metric.direction})` : '';
  return `${drill === undefined
    ? `${what}${counted} of each Redis version's ${metric.best} configuration`
    : `${what}${counted} of each configuration of Redis ${drill} (★ the ${metric.best})`}, best of its repeats`;
}

/** The SQL behind a chart as `state` draws it, runnable on its own. */
function chartQuery(data: ChartData, state: AppState, { key, mode, test }: Attached): string {
  const drill = state.open[key];
  const metric = metricOf(state.metric);
  return drill === undefined
    ? chartSql(data.versionQuery(state), `${test}, ${mode} mode${metricSuffix(metric)}: one bar per Redis version (its ${metric.best} configuration)`, { mode, test })
    : chartSql(configBarsQuery(mode, test, metric), `${test}, ${mode} mode${metricSuffix(metric)}: the configurations of Redis ${drill}`, { version: drill });
}

/** A chart's downloaded file name without extension: mode, test, the version opened, the metric. */
function fileBase(state: AppState, { key, mode, test }: Attached): string {
  const drill = state.open[key];
  return `redis-benchmarks-${mode}-${fileSlug(test)}${drill === undefined ? '' : `-${fileSlug(drill)}`}${state.metric === 'rps' ? '' : `-${state.metric}`}`;
}

/** Saves a chart's picture as drawn for `state` (SVG or PNG), with title, axis, legend and source. */
async function saveImage(ctx: ChartResultsContext, state: AppState, chart: Attached, file: 'svg' | 'png'): Promise<void> {
  const { chartImage, pngBlob } = await import('../export/chartImage');
  const svg = chart.element.querySelector<SVGSVGElement>('svg[data-domain]');
  if (!svg) throw new Error('the chart is not drawn yet');
  const domain = (svg.getAttribute('data-domain') ?? '').split(',').map(Number);
  const drill = state.open[chart.key];
  const metric = metricOf(state.metric);
  const statuses = new Set([...chart.element.querySelectorAll('g.bar[data-status]')].map((bar) => bar.getAttribute('data-status')));
  const image = chartImage(svg, chart.element, {
    title: `${chart.test} — ${chart.mode} mode`,
    subtitle: imageSubtitle(metric, drill),
    axis: `${domain.length === 2 ? formatAxisRange([domain[0] ?? 0, domain[1] ?? 0], metric.unit) : 'no figures in this range'} · ${VIEW_NAMES[state.view]}`,
    legend: [
      ...ctx.compilers.map((c) => ({ label: c, fill: ctx.colorOf(c), texture: textureFor(ctx.colorOf(c)) })),
      ...Object.entries(MISSING_STYLE).filter(([status]) => statuses.has(status))
        .map(([status, style]) => ({ label: style.label, fill: `url(#${style.pattern})`, dashed: status === 'not_collected' })),
    ],
    source: [
      `Redis Compiler Benchmarks: ${ctx.link({ ...state, chart: chart.key, sql: null, limit: DEFAULTS.limit, tables: [] })}`,
      `Data: ${TABLES.map((t) => tableFile(t)).join(', ')} in ${ctx.dataUrl}; exported ${new Date().toISOString().slice(0, 10)}`,
    ],
  });
  const base = fileBase(state, chart);
  if (file === 'svg') saveFile(`${base}.svg`, new Blob([image.svg], { type: MIME.svg }));
  else saveFile(`${base}.png`, await pngBlob(image));
}

/** Shows a chart's data table for `state`, unless the table asked for has changed meanwhile (`signature`). */
async function showTable(data: ChartData, chart: Attached, state: AppState, signature: string): Promise<void> {
  const drill = state.open[chart.key];
  const [{ dataTable }, { versionTable, configTable }] = await Promise.all([import('../ui/dataTable'), import('../ui/chartTable')]);
  const metric = metricOf(state.metric);
  const model = drill === undefined
    ? versionTable((await data.versionRows(state)).get(chart.key) ?? [], metric)
    : configTable((await data.configRows(chart.mode, chart.test, state.metric)).get(drill) ?? [], metric);
  if (chart.table !== signature) return;
  const caption = drill === undefined
    ? `${chart.test}, ${chart.mode} mode${metricSuffix(metric)}: each Redis version's ${metric.best} configuration`
    : `${chart.test}, ${chart.mode} mode${metricSuffix(metric)}: the configurations of Redis ${drill}`;
  chart.tools.setTable(dataTable(model.columns, model.rows, caption));
}

/** Creates the chart tools; each chart's are added by attach(). */
export function createChartResults(ctx: ChartResultsContext): ChartResults {
  const attached: Attached[] = [];
  const save = (chart: Attached, file: ChartFile): Promise<void> => {
    const state = ctx.state();
    return file === 'csv' || file === 'parquet'
      ? ctx.tools.save(chartQuery(ctx.data, state, chart), file, fileBase(state, chart))
      : saveImage(ctx, state, chart, file);
  };
  return {
    attach(target) {
      const key = chartKey(target.mode, target.test);
      const chart: Attached = {
        ...target,
        key,
        table: '',
        tools: chartTools(target.element, chartElementId(key), {
          toggleTable: () => {
            const state = ctx.state();
            const tables = state.tables.includes(key) ? state.tables.filter((k) => k !== key) : [...state.tables, key];
            ctx.show({ ...state, tables, chart: key });
          },
          showSql: () => ctx.tools.showSql(chartQuery(ctx.data, ctx.state(), chart), key),
          save: (file) => save(chart, file),
        }),
      };
      attached.push(chart);
    },
    sync(state) {
      for (const chart of attached) {
        const signature = state.tables.includes(chart.key) && !chart.element.hidden
          ? `${state.metric}|${ctx.data.range(state).key}|${state.open[chart.key] ?? ''}` : '';
        if (signature === chart.table) continue;
        chart.table = signature;
        if (signature) void showTable(ctx.data, chart, state, signature);
        else chart.tools.setTable(null);
      }
    },
  };
}
