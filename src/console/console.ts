/**
 * The SQL console: a query over the published tables, run by the page's DuckDB on a connection of
 * its own. Results show as a sortable table (up to the row limit; downloads hold every row),
 * errors with the spot DuckDB points at, a long query can be cancelled, and the query and limit
 * live in the URL: the console only reports what the user ran, the app records it.
 */
import { CancelledError, type Database, type ResultTable, UserSqlError } from '../data/duckdb';
import { MAX_ROW_LIMIT } from '../model/state';
import { type Statement, splitStatements } from '../sql/scan';
import { h } from '../ui/dom';
import { saveRows, type RowFormat } from '../export/resultFiles';
import { dataTable } from '../ui/dataTable';
import { parseSqlError } from './errorPosition';
import { EXAMPLES } from './examples';
import { renderSchema } from './schemaList';

/** What the console needs from the page. */
export interface ConsoleHost {
  readonly db: Database;
  /** The user ran `sql` with `limit`, or closed the console (sql null): record it. */
  commit(sql: string | null, limit: number): void;
}

/** The console on the page. */
export interface SqlConsole {
  /** Shows the console for `sql` (null hides it) and runs it if that is not what ran last. */
  sync(sql: string | null, limit: number): void;
  /** Scrolls the console into view and puts the cursor in the editor. */
  reveal(): void;
}

const button = (label: string, on: () => void, primary = false) =>
  h('button', {
    class: `rounded-md border px-3 py-1 text-sm disabled:opacity-50 ${primary ? 'border-slate-800 bg-slate-800 text-white hover:bg-slate-700' : 'border-slate-300 hover:bg-slate-100'}`,
    attrs: { type: 'button' },
    on: { click: on },
  }, label);

/** 1-based line and column of `offset` in `text`. */
function lineColumn(text: string, offset: number): { line: number; column: number; lineText: string } {
  const before = text.slice(0, offset).split('\n');
  const line = before.length;
  return { line, column: (before.at(-1)?.length ?? 0) + 1, lineText: text.split('\n')[line - 1] ?? '' };
}

/** The console's elements. */
interface ConsoleParts {
  readonly editor: HTMLTextAreaElement;
  readonly limitInput: HTMLInputElement;
  readonly examples: HTMLSelectElement;
  readonly run: HTMLButtonElement;
  readonly cancel: HTMLButtonElement;
  readonly close: HTMLButtonElement;
  readonly status: HTMLElement;
  readonly error: HTMLElement;
  /** Says a download is being written, or why it could not be. */
  readonly fileStatus: HTMLElement;
  readonly downloads: HTMLElement;
  readonly results: HTMLElement;
  readonly schema: HTMLElement;
}

/** What the console's controls do. */
interface ConsoleActions {
  /** Runs the editor's text (Run, Ctrl+Enter). */
  runEditor(): void;
  /** Puts `sql` in the editor and runs it (an example). */
  runText(sql: string): void;
  cancel(): void;
  close(): void;
  /** Saves every row of the last successful run. */
  save(format: RowFormat): void;
}

/** What a console remembers between runs. */
interface Session {
  controller: AbortController | null;
  /** What the last run was asked to run (what sync compares against). */
  requested: { sql: string; limit: number } | null;
  /** The statements of the last successful run (what the downloads save). */
  ran: readonly Statement[] | null;
  schemaShown: boolean;
}

/** Builds the console into `root` (hidden until sync shows it). */
export function createConsole(root: HTMLElement, host: ConsoleHost): SqlConsole {
  const session: Session = { controller: null, requested: null, ran: null, schemaShown: false };
  const runFromEditor = () => {
    const limit = limitValue(parts.limitInput);
    void execute(root, parts, host.db, session, parts.editor.value, limit);
    host.commit(parts.editor.value, limit);
  };
  const parts = consoleParts({
    runEditor: runFromEditor,
    runText: (sql) => {
      parts.editor.value = sql;
      runFromEditor();
    },
    cancel: () => session.controller?.abort(),
    close: () => host.commit(null, limitValue(parts.limitInput)),
    save: (format) => {
      if (session.ran) saveResult(host.db, session.ran, format, parts.fileStatus);
    },
  });
  placeConsole(root, parts);
  return {
    sync(sql, limit) {
      root.hidden = sql === null;
      if (sql === null) {
        session.controller?.abort();
        return;
      }
      if (!session.schemaShown) {
        session.schemaShown = true;
        showSchema(parts, host.db, runFromEditor);
      }
      if (session.requested?.sql === sql && session.requested.limit === limit) return;
      parts.editor.value = sql;
      parts.limitInput.value = String(limit);
      void execute(root, parts, host.db, session, sql, limit);
    },
    reveal() {
      root.scrollIntoView({ block: 'start' });
      parts.editor.focus({ preventScroll: true });
    },
  };
}

/** The console's elements, wired to `actions`. */
function consoleParts(actions: ConsoleActions): ConsoleParts {
  const editor = h('textarea', {
    class: 'block h-40 w-full resize-y rounded-md border border-slate-300 bg-white p-2 font-mono text-sm',
    attrs: {
      id: 'sql-editor', spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off',
      'aria-label': 'SQL query', placeholder: 'SELECT * FROM results LIMIT 10',
    },
    on: {
      keydown: (event) => {
        const key = event as KeyboardEvent;
        if (key.key === 'Enter' && (key.ctrlKey || key.metaKey)) {
          key.preventDefault();
          actions.runEditor();
        }
      },
    },
  });
  const examples = h('select', {
    class: 'max-w-full rounded-md border border-slate-300 bg-white px-1 py-1 text-sm',
    attrs: { 'aria-label': 'Example queries' },
    on: {
      change: () => {
        const example = EXAMPLES[Number(examples.value)];
        examples.value = '';
        if (example) actions.runText(example.sql);
      },
    },
  }, h('option', { attrs: { value: '' } }, 'Examples…'), ...EXAMPLES.map((e, i) => h('option', { attrs: { value: String(i) } }, e.name)));
  const cancel = button('Cancel', actions.cancel);
  cancel.disabled = true;
  const fileStatus = h('span', { class: 'text-xs text-slate-600', attrs: { role: 'status' } });
  return {
    editor,
    limitInput: h('input', {
      class: 'w-24 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm',
      attrs: { id: 'sql-limit', type: 'number', min: '1', max: String(MAX_ROW_LIMIT), step: '1', inputmode: 'numeric' },
    }),
    examples,
    run: button('Run', actions.runEditor, true),
    cancel,
    close: button('Close console', actions.close),
    status: h('p', { class: 'text-sm text-slate-700', attrs: { id: 'sql-status', role: 'status', 'aria-live': 'polite' } }),
    error: h('div', {
      class: 'mt-2 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900',
      attrs: { id: 'sql-error', role: 'alert', hidden: '' },
    }),
    fileStatus,
    downloads: h('div', { class: 'flex flex-wrap items-center gap-2 text-sm', attrs: { hidden: '' } },
      h('span', { class: 'text-slate-700' }, 'Download all rows:'),
      button('CSV', () => actions.save('csv')), button('Parquet', () => actions.save('parquet')), fileStatus),
    results: h('div', { class: 'mt-2 max-h-[28rem] overflow-auto rounded-md border border-slate-200', attrs: { id: 'sql-results', hidden: '' } }),
    schema: h('nav', { class: 'min-w-0 text-slate-800', attrs: { 'aria-label': 'Tables and columns' } },
      h('p', { class: 'text-xs text-slate-600' }, 'Loading the table list…')),
  };
}

/** Lays the console's parts out in `root`, hidden. */
function placeConsole(root: HTMLElement, parts: ConsoleParts): void {
  root.className = 'mx-auto mt-3 max-w-7xl px-4';
  root.setAttribute('aria-labelledby', 'console-title');
  root.replaceChildren(
    h('div', { class: 'rounded-lg border border-slate-300 bg-white p-3 shadow-sm' },
      h('div', { class: 'flex flex-wrap items-start justify-between gap-2' },
        h('h2', { class: 'text-lg font-semibold', attrs: { id: 'console-title' } }, 'SQL console'),
        parts.close,
      ),
      h('p', { class: 'mt-1 max-w-4xl text-xs text-slate-600' },
        'SQL (DuckDB 0.9) over the published tables, run in your browser. Several statements may be separated by semicolons; the last one\'s rows are shown. ',
        'runs, results and builds hold the hardware shown on this page only (machines of one CPU model and core count, as machine_hardware marks them); all_runs, all_results and all_builds hold every machine\'s. ',
        'Every run starts from the published tables and is rolled back at its end, so nothing you run changes the charts. ',
        'Ctrl+Enter (⌘+Enter) runs. The query is part of this page\'s link.'),
      h('div', { class: 'mt-2 grid grid-cols-1 gap-3 md:grid-cols-[15rem_minmax(0,1fr)]' },
        // On a phone the table list starts folded, so the editor is in view.
        h('details', { class: 'min-w-0', attrs: { open: matchMedia('(min-width: 768px)').matches ? '' : null } },
          h('summary', { class: 'cursor-pointer text-sm font-semibold text-slate-800' }, 'Tables'),
          parts.schema),
        h('div', { class: 'min-w-0' },
          parts.editor,
          h('div', { class: 'mt-2 flex flex-wrap items-center gap-2' },
            parts.run, parts.cancel,
            h('label', { class: 'flex items-center gap-1 text-sm text-slate-700', attrs: { for: 'sql-limit' } }, 'Show up to', parts.limitInput, 'rows'),
            parts.examples),
          h('div', { class: 'mt-2 flex flex-wrap items-center justify-between gap-2' }, parts.status, parts.downloads),
          parts.error,
          parts.results,
        ),
      ),
    ),
  );
  root.hidden = true;
}

/** The row limit asked for: a whole number from 1 to MAX_ROW_LIMIT, 1000 when unreadable. */
function limitValue(input: HTMLInputElement): number {
  const value = Math.round(Number(input.value));
  return Number.isFinite(value) && value >= 1 ? Math.min(value, MAX_ROW_LIMIT) : 1000;
}

/** Writes every row of `statements`' result as a file; `note` says so, or why it could not. */
function saveResult(db: Database, statements: readonly Statement[], format: RowFormat, note: HTMLElement): void {
  note.textContent = `Writing ${format.toUpperCase()}…`;
  saveRows(db, statements, format, 'redis-benchmarks-query').then(
    () => (note.textContent = ''),
    (err: unknown) => (note.textContent = `Could not write the file: ${err instanceof Error ? err.message : String(err)}`),
  );
}

/** Fills the table list once: a name inserts itself at the cursor, an example query runs. */
function showSchema(parts: ConsoleParts, db: Database, runEditor: () => void): void {
  const { editor, schema } = parts;
  renderSchema(schema, db, {
    insert: (text) => {
      editor.setRangeText(text, editor.selectionStart, editor.selectionEnd, 'end');
      editor.focus();
    },
    run: (sql) => {
      editor.value = sql;
      runEditor();
    },
  }).catch((err: unknown) => schema.replaceChildren(h('p', { class: 'text-xs text-red-800' }, `The table list could not be read: ${err instanceof Error ? err.message : String(err)}`)));
}

/**
 * Runs `sql` (its statements, up to `limit` rows of the last) on the console's connection,
 * cancelling the run before; only the latest run shows its outcome.
 */
async function execute(root: HTMLElement, parts: ConsoleParts, db: Database, session: Session, sql: string, limit: number): Promise<void> {
  session.controller?.abort();
  session.requested = { sql, limit };
  parts.error.hidden = true;
  const statements = splitStatements(sql);
  if (!statements.length) {
    parts.status.textContent = sql.trim() ? 'Nothing to run: the text holds only comments.' : 'Type a query, or pick an example.';
    parts.results.hidden = true;
    parts.downloads.hidden = true;
    return;
  }
  const mine = new AbortController();
  session.controller = mine;
  parts.run.disabled = true;
  parts.cancel.disabled = false;
  root.setAttribute('aria-busy', 'true');
  parts.status.textContent = 'Running…';
  const start = performance.now();
  try {
    const result = await db.runScript(statements, limit, mine.signal);
    if (session.controller !== mine) return;
    session.ran = statements;
    showResult(parts, result, Math.round(performance.now() - start), limit);
  } catch (err) {
    if (session.controller !== mine) return;
    parts.results.hidden = true;
    parts.downloads.hidden = true;
    if (err instanceof CancelledError) parts.status.textContent = `Cancelled after ${((performance.now() - start) / 1000).toFixed(1)} s.`;
    else {
      parts.status.textContent = 'The query failed.';
      showError(parts, err, sql);
    }
  } finally {
    if (session.controller === mine) {
      session.controller = null;
      parts.run.disabled = false;
      parts.cancel.disabled = true;
      root.setAttribute('aria-busy', 'false');
    }
  }
}

/** Shows a run's rows as a sortable table, and how many there are. */
function showResult(parts: ConsoleParts, result: ResultTable, ms: number, limit: number): void {
  const count = result.rows.length.toLocaleString('en-US');
  parts.status.textContent = result.truncated
    ? `The first ${count} rows (the row limit); the result has more, and the downloads have them all. ${ms} ms.`
    : `${count} row${result.rows.length === 1 ? '' : 's'} in ${ms} ms.`;
  parts.results.hidden = false;
  parts.downloads.hidden = false;
  parts.results.replaceChildren(dataTable(
    result.columns.map((c) => ({ header: c.name, numeric: c.numeric, title: c.type })),
    result.rows,
    `Query result${result.truncated ? `, first ${limit.toLocaleString('en-US')} rows` : ''}. Select a column name to sort.`,
  ));
}

/** Shows an error, with the line and column DuckDB points at in `script`, and selects that spot in the editor. */
function showError(parts: ConsoleParts, err: unknown, script: string): void {
  const { error, editor } = parts;
  error.hidden = false;
  if (!(err instanceof UserSqlError)) {
    error.replaceChildren(h('p', {}, err instanceof Error ? err.message : String(err)));
    return;
  }
  const parsed = parseSqlError(err.message, err.statement.sql);
  const offset = parsed.position ? err.statement.offset + parsed.position.offset : null;
  const where = offset === null ? null : lineColumn(script, offset);
  error.dataset.offset = offset === null ? '' : String(offset);
  error.replaceChildren(
    h('pre', { class: 'max-h-48 overflow-auto whitespace-pre-wrap break-words font-mono text-xs' }, parsed.message),
    ...(where ? [
      h('p', { class: 'mt-2 font-semibold' }, `At line ${where.line}, column ${where.column}:`),
      h('pre', { class: 'mt-1 overflow-x-auto font-mono text-xs' }, `${where.lineText}\n${' '.repeat(where.column - 1)}^`),
    ] : []),
  );
  // Select the spot in the editor, so the cursor is there when the reader goes back to it.
  if (offset !== null) editor.setSelectionRange(offset, Math.min(offset + 1, editor.value.length));
}
