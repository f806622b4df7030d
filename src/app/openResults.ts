/**
 * Wires "open results" into the page: the SQL console, the header's console button and dataset
 * downloads, and the tools the charts and sections share (a query in the console, its rows as CSV
 * or Parquet). The console and the file writers load on first use.
 */
import type { Database } from '../data/duckdb';
import { TABLES, tableFile } from '../sql/schema';
import { type AppState, DEFAULTS } from '../model/state';
import type { SqlConsole } from '../console/console';
import { chartElementId } from '../ui/chartCard';
import { byId, h } from '../ui/dom';
import type { SectionTools } from '../ui/section';

/** What the wiring needs from the app. */
export interface OpenResultsContext {
  /** Folder URL of the published Parquet files (ends in '/'). */
  readonly dataUrl: string;
  /** The database with the published tables loaded (the console's and the file writers'). */
  database(): Promise<Database>;
  state(): AppState;
  /** Shows and records a new state (a user action: pushed to history). */
  setState(next: AppState): void;
}

/** The wiring, driven by the app. */
export interface OpenResults {
  /** Brings the console in line with `state`, after the page is drawn for it. */
  sync(state: AppState): void;
  /** The console and downloads for the queries behind the charts and the analysis sections. */
  readonly tools: SectionTools;
}

/** Creates the wiring and the header's tools (into #site-tools). */
export function createOpenResults(ctx: OpenResultsContext): OpenResults {
  let sqlConsole: Promise<SqlConsole> | null = null;
  let revealConsole = false;

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
    tools: {
      showSql(sql, chart) {
        revealConsole = true;
        ctx.setState({ ...ctx.state(), sql, chart: chart ?? null });
      },
      async save(sql, format, file) {
        const [{ saveRows }, db] = await Promise.all([import('../export/resultFiles'), ctx.database()]);
        await saveRows(db, [{ sql, offset: 0 }], format, file);
      },
    },
    sync(state) {
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
