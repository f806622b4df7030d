/**
 * The console's list of tables: the published ones first (as the site reads them), then those
 * the page derives from them at load, each with its columns, types and row count, asked of
 * DuckDB itself so the list is what the console can query.
 */
import type { Database } from '../data/duckdb';
import { TABLES } from '../sql/schema';
import { COUNTED_METRICS, LATENCY_METRICS } from '../vocabulary';
import { CELL_STATUS_SQL, countStatusSql, latencyStatusSql, PLAN_VERSIONS_SQL } from '../sql/load';
import { sqlLiteral } from '../sql/scan';
import { h } from '../ui/dom';

/** What a click in the list asks of the console. */
export interface SchemaActions {
  /** Insert this text (a column or table name) at the editor's cursor. */
  insert(text: string): void;
  /** Replace the editor's text with this query and run it. */
  run(sql: string): void;
}

const COLUMNS_SQL = `SELECT table_name, column_name, data_type
FROM information_schema.columns WHERE table_schema = 'main'
ORDER BY table_name, ordinal_position`;

const HARDWARE_NOTE = 'of the hardware shown on this page only (the machines machine_hardware marks as selected); every machine\'s are in';

/** Each counted metric's view (ir_status, cycles_status, l1_status, ...): what it holds and how it is built. */
const COUNTED_NOTES = Object.fromEntries(COUNTED_METRICS.map((m) => [m.table, {
  tag: 'derived',
  note: `Built at page load (a view): cell_status's rows and columns for ${m.name}, counts.${m.countColumn ?? ''}; `
    + 'best_value and worst_value hold the cheapest and the costliest repeat, band_floor the metric\'s rebuild band (rebuild_bands, 0 without one). The charts read it under that metric.',
  sql: countStatusSql(m),
}]));

/** Each latency metric's view (p50_status, p95_status, p99_status): what it holds and how it is built. */
const LATENCY_NOTES = Object.fromEntries(LATENCY_METRICS.map((m) => [m.table, {
  tag: 'derived',
  note: `Built at page load (a view): cell_status's rows and columns of the reference modes for ${m.name}, results.${m.latencyColumn ?? ''} (ms); `
    + 'best_value and worst_value hold the lowest and the highest repeat, band_floor 0 (requests/second\'s noise rule). The charts read it under that metric.',
  sql: latencyStatusSql(m),
}]));

/** What a table is when it is not simply a published file: its tag in the list, a note, and how it is built. */
const NOTES: Readonly<Record<string, { tag: string; note: string; sql?: string }>> = {
  builds: { tag: 'this hardware', note: `The builds ${HARDWARE_NOTE} all_builds.` },
  runs: { tag: 'this hardware', note: `The runs ${HARDWARE_NOTE} all_runs.` },
  results: { tag: 'this hardware', note: `The results ${HARDWARE_NOTE} all_results.` },
  all_builds: { tag: 'every machine', note: 'builds.parquet as published: every machine\'s builds.' },
  all_runs: { tag: 'every machine', note: 'runs.parquet as published: every machine\'s runs.' },
  all_results: { tag: 'every machine', note: 'results.parquet as published: every machine\'s results.' },
  redone_runs: {
    tag: 'this hardware',
    note: `Runs measured again (kept, never charted: runs holds their replacements), with redo_reason and replaced_by, ${HARDWARE_NOTE} all_redone_runs.`,
  },
  redone_results: { tag: 'this hardware', note: `The results of the runs measured again ${HARDWARE_NOTE} all_redone_results.` },
  all_redone_runs: { tag: 'every machine', note: 'redone_runs.parquet as published: every machine\'s runs measured again.' },
  all_redone_results: { tag: 'every machine', note: 'redone_results.parquet as published: their results.' },
  machine_hardware: {
    tag: 'derived',
    note: 'Built at page load: each machine\'s hardware class (machines.hardware_class as the collector recorded it, or "<cpu_model>, <cores> cores" for machines described before collector 0.1.8) and whether it is the one shown. Figures from different classes are never combined.',
  },
  cell_status: {
    tag: 'derived',
    note: 'Built at page load: one row per planned cell, mode and test, with the best-of-repeats figures and a status. The charts read it.',
    sql: CELL_STATUS_SQL,
  },
  counts: {
    tag: 'every machine',
    note: 'counts.parquet as published: the counted instrument (Valgrind, collector count), one row per counting run and test; a count does not depend on the machine, so it is not restricted to the hardware shown.',
  },
  count_runs: { tag: 'every machine', note: 'count_runs.parquet as published: one row per counting run (cell, mode, repeat) with its commands and raw output.' },
  all_plan: { tag: 'every configuration', note: 'plan.parquet as published: the reference and the extended configurations (plan.extended); plan holds those the page shows.' },
  all_counts: { tag: 'every configuration', note: 'counts.parquet as published, the extended configurations\' counts too; counts holds those of the configurations the page shows.' },
  all_count_runs: { tag: 'every configuration', note: 'count_runs.parquet as published, the extended configurations\' runs too; count_runs holds those of the configurations the page shows.' },
  all_count_runs_superseded: { tag: 'every configuration', note: 'count_runs_superseded.parquet as published, the extended configurations\' too.' },
  count_runs_superseded: {
    tag: 'every machine',
    note: 'count_runs_superseded.parquet as published: counting runs set aside, kept as evidence and never charted: runs of earlier counting protocols, and both repeats of a (cell, mode) counted again because they differed (redone: in which test, by how much). Their counts are in counts_superseded.parquet, which the page does not load.',
  },
  rebuild_bands: {
    tag: 'every machine',
    note: 'rebuild_bands.parquet as published: per counted metric, the largest relative difference between two counted builds of one cell from the same inputs (band), the floor of its noise bands; empty when the data has no such file. Each metric\'s table carries it as band_floor.',
  },
  ...COUNTED_NOTES,
  ...LATENCY_NOTES,
  versions: { tag: 'derived', note: 'Built at page load: each planned version and its release order (ord, 0 = oldest).', sql: PLAN_VERSIONS_SQL },
};

const rowsText = (n: number) => `${n.toLocaleString('en-US')} row${n === 1 ? '' : 's'}`;
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Fills `root` with the tables DuckDB holds. */
export async function renderSchema(root: HTMLElement, db: Database, actions: SchemaActions): Promise<void> {
  const columns = await db.runScript([{ sql: COLUMNS_SQL, offset: 0 }], Infinity);
  const byTable = new Map<string, [string, string][]>();
  for (const [table, column, type] of columns.rows) {
    const list = byTable.get(String(table)) ?? [];
    list.push([String(column), String(type)]);
    byTable.set(String(table), list);
  }
  const published = TABLES.filter((t) => byTable.has(t));
  const names = [...published, ...[...byTable.keys()].filter((t) => !published.includes(t as never)).sort()];
  const counts = await db.runScript([{
    sql: names.map((t) => `SELECT ${sqlLiteral(t)} AS t, count(*)::DOUBLE AS n FROM ${ident(t)}`).join(' UNION ALL '),
    offset: 0,
  }], Infinity);
  const rowCount = new Map(counts.rows.map(([t, n]) => [String(t), Number(n)]));

  root.replaceChildren(
    ...names.map((table) => {
      const notes = NOTES[table];
      return h('details', { class: 'mt-1 text-xs', attrs: { 'data-table': table } },
        h('summary', { class: 'cursor-pointer py-0.5' },
          h('span', { class: 'font-mono font-semibold' }, table),
          ` · ${rowsText(rowCount.get(table) ?? 0)}${notes ? ` · ${notes.tag}` : ''}`),
        h('div', { class: 'ml-3 border-l border-slate-200 pl-2' },
          notes ? h('p', { class: 'my-1 text-slate-600' }, notes.note) : null,
          h('button', {
            class: 'my-1 rounded border border-slate-300 px-1.5 py-0.5 hover:bg-slate-100',
            attrs: { type: 'button' },
            on: { click: () => actions.run(`SELECT * FROM ${table} LIMIT 100`) },
          }, 'Preview rows'),
          h('ul', {}, ...(byTable.get(table) ?? []).map(([column, type]) =>
            h('li', {},
              h('button', {
                class: 'font-mono text-left hover:underline',
                attrs: { type: 'button', title: `Insert ${column} into the query` },
                on: { click: () => actions.insert(column) },
              }, column),
              h('span', { class: 'ml-1 text-slate-500' }, type.toUpperCase())))),
          notes?.sql ? h('details', { class: 'mt-1' },
            h('summary', { class: 'cursor-pointer text-slate-700' }, 'How it is built'),
            h('pre', { class: 'mt-1 max-h-64 overflow-auto whitespace-pre bg-slate-50 p-1 font-mono text-[10px]' }, notes.sql)) : null,
        ),
      );
    }),
  );
}
