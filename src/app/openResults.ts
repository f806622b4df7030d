/**
 * Wires "open results" into the page: each chart's tools (data table, the SQL behind it, its rows
 * as CSV or Parquet, its picture as SVG or PNG), the SQL console, and the header's console button
 * and dataset downloads. The console, the image export and the file writers load on first use.
 */
import { MISSING_STYLE, textureFor } from '../chart/palette';
import type { Database } from '../data/duckdb';
import { TABLES, tableFile } from '../sql/schema';
import { fileSlug, MIME, saveFile } from '../export/download';
import { VIEW_NAMES } from '../model/domain';
import { formatAxisRange } from '../model/format';
import { metricSuffix } from '../model/metric';
import { type AppState, chartKey, DEFAULTS } from '../model/state';
import { configBarsQuery } from '../sql/charts';
import { chartSql } from '../sql/chartSql';
import type { SqlConsole } from '../console/console';
import { chartElementId } from '../ui/chartCard';
import { byId, h } from '../ui/dom';
import { type ChartFile, chartTools, type ChartTools } from '../ui/chartTools';
import type { SectionTools } from '../ui/section';
import { type Metric, metricOf } from '../vocabulary';
import type { ChartData } from './chartData';

/** What the wiring needs from the app. */
export interface OpenResultsContext {
  readonly data: ChartData;
  /** Compilers in plan order, and their colours. */
  readonly compilers: readonly string[];
  readonly colorOf: (compiler: string) => string;
  /** Folder URL of the published Parquet files (ends in '/'). */
  readonly dataUrl: string;
  /** The database with the published tables loaded (the console's and the file writers'). */
  database(): Promise<Database>;
  state(): AppState;
  /** Shows and records a new state (a user action: pushed to history). */
  setState(next: AppState): void;
  /** The absolute link to a state. */
  link(state: AppState): string;
}

/** A chart the tools are attached to. */
export interface ToolTarget {
  readonly mode: string;
  readonly test: string;
  readonly element: HTMLElement;
}

/** The wiring, driven by the app. */
export interface OpenResults {
  /** Adds the tools under a chart. */
  attach(chart: ToolTarget): void;
  /** Brings tables and console in line with `state`, after the charts are drawn for it. */
  sync(state: AppState): void;
  /** The console and downloads for the analysis sections' queries. */
  readonly sectionTools: SectionTools;
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

/** Creates the wiring and the header's tools (into #site-tools). */
export function createOpenResults(ctx: OpenResultsContext): OpenResults {
  const attached: Attached[] = [];
  let sqlConsole: Promise<SqlConsole> | null = null;
  let revealConsole = false;

  /** The SQL behind a chart as the state draws it, runnable on its own. */
  const chartQuery = (state: AppState, { key, mode, test }: Attached): string => {
    const drill = state.open[key];
    return drill === undefined
      ? chartSql(ctx.data.versionQuery(state), `${test}, ${mode} mode${metricSuffix(metricOf(state.metric))}: one bar per Redis version (its ${metricOf(state.metric).best} configuration)`, { mode, test })
      : chartSql(configBarsQuery(mode, test, metricOf(state.metric)), `${test}, ${mode} mode${metricSuffix(metricOf(state.metric))}: the configurations of Redis ${drill}`, { version: drill });
  };

  const fileBase = (state: AppState, { key, mode, test }: Attached) => {
    const drill = state.open[key];
    return `redis-benchmarks-${mode}-${fileSlug(test)}${drill === undefined ? '' : `-${fileSlug(drill)}`}${state.metric === 'rps' ? '' : `-${state.metric}`}`;
  };

  async function save(chart: Attached, file: ChartFile): Promise<void> {
    const state = ctx.state();
    if (file === 'csv' || file === 'parquet') {
      const [{ saveRows }, db] = await Promise.all([import('../export/resultFiles'), ctx.database()]);
      return saveRows(db, [{ sql: chartQuery(state, chart), offset: 0 }], file, fileBase(state, chart));
    }
    const { chartImage, pngBlob } = await import('../export/chartImage');
    const svg = chart.element.querySelector<SVGSVGElement>('svg[data-domain]');
    if (!svg) throw new Error('the chart is not drawn yet');
    const domain = (svg.getAttribute('data-domain') ?? '').split(',').map(Number);
    const drill = state.open[chart.key];
    const statuses = new Set([...chart.element.querySelectorAll('g.bar[data-status]')].map((bar) => bar.getAttribute('data-status')));
    const image = chartImage(svg, chart.element, {
      title: `${chart.test} — ${chart.mode} mode`,
      subtitle: imageSubtitle(metricOf(state.metric), drill),
      axis: `${domain.length === 2 ? formatAxisRange([domain[0] ?? 0, domain[1] ?? 0], metricOf(state.metric).unit) : 'no figures in this range'} · ${VIEW_NAMES[state.view]}`,
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

  async function showTable(chart: Attached, state: AppState, signature: string): Promise<void> {
    const drill = state.open[chart.key];
    const [{ dataTable }, { versionTable, configTable }] = await Promise.all([import('../ui/dataTable'), import('../ui/chartTable')]);
    const metric = metricOf(state.metric);
    const model = drill === undefined
      ? versionTable((await ctx.data.versionRows(state)).get(chart.key) ?? [], metric)
      : configTable((await ctx.data.configRows(chart.mode, chart.test, state.metric)).get(drill) ?? [], metric);
    if (chart.table !== signature) return;
    const caption = drill === undefined
      ? `${chart.test}, ${chart.mode} mode${metricSuffix(metric)}: each Redis version's ${metric.best} configuration`
      : `${chart.test}, ${chart.mode} mode${metricSuffix(metric)}: the configurations of Redis ${drill}`;
    chart.tools.setTable(dataTable(model.columns, model.rows, caption));
  }

  const consoleButton = h('button', {
    class: 'rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100',
    attrs: { type: 'button', 'aria-expanded': 'false', 'aria-controls': 'console', 'data-action': 'console' },
    on: {
      click: () => {
        const state = ctx.state();
        const open = state.sql === null;
        revealConsole = open;
        ctx.setState({ ...state, sql: open ? '' : null, limit: open ? state.limit : DEFAULTS.limit });
      },
    },
  }, 'SQL console');
  byId('site-tools').prepend(
    consoleButton,
    h('details', { class: 'relative text-sm' },
      h('summary', { class: 'cursor-pointer rounded-md border border-slate-300 px-3 py-1 hover:bg-slate-100' }, 'Download data'),
      h('div', { class: 'absolute right-0 z-20 mt-1 w-64 max-w-[calc(100vw-2rem)] rounded-md border border-slate-300 bg-white p-3 shadow-lg' },
        h('p', { class: 'text-xs text-slate-600' }, 'The whole published dataset, as the collector wrote it (Parquet, zstd). The SQL console lists every column.'),
        h('ul', { class: 'mt-2 space-y-1' }, ...TABLES.map((t) =>
          h('li', {}, h('a', { class: 'font-mono text-blue-700 underline', attrs: { href: `${ctx.dataUrl}${tableFile(t)}`, download: tableFile(t) } }, tableFile(t))))),
      ),
    ),
  );

  return {
    sectionTools: {
      showSql(sql) {
        revealConsole = true;
        ctx.setState({ ...ctx.state(), sql, chart: null });
      },
      async save(sql, format, file) {
        const [{ saveRows }, db] = await Promise.all([import('../export/resultFiles'), ctx.database()]);
        await saveRows(db, [{ sql, offset: 0 }], format, file);
      },
    },
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
            ctx.setState({ ...state, tables, chart: key });
          },
          showSql: () => {
            revealConsole = true;
            const state = ctx.state();
            ctx.setState({ ...state, sql: chartQuery(state, chart), chart: key });
          },
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
        if (signature) void showTable(chart, state, signature);
        else chart.tools.setTable(null);
      }
      consoleButton.setAttribute('aria-expanded', String(state.sql !== null));
      if (state.sql === null && !sqlConsole) return;
      sqlConsole ??= Promise.all([import('../console/console'), ctx.database()]).then(([{ createConsole }, db]) =>
        createConsole(byId('console'), {
          db,
          commit: (sql, limit) => {
            const current = ctx.state();
            ctx.setState({ ...current, sql, limit: sql === null ? DEFAULTS.limit : limit });
            if (sql === null && current.chart) document.getElementById(chartElementId(current.chart))?.scrollIntoView({ block: 'start' });
          },
        }));
      const reveal = revealConsole;
      revealConsole = false;
      void sqlConsole.then((c) => {
        c.sync(state.sql, state.limit);
        if (reveal) c.reveal();
      });
    },
  };
}
