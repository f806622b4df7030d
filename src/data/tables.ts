/**
 * Turns the registered Parquet files into the tables the queries read. Shared by the browser
 * (behind DuckDB-WASM) and the tests (behind a Node DuckDB), so both run the same statements.
 */
import { type HardwareClass, hardwareSlug, pickHardware } from '../model/hardware';
import { sortVersions } from '../model/versions';
import { hardwareClassesQuery, hardwareViewsSql } from '../sql/hardware';
import { catalogQuery, CELL_STATUS_SQL, COUNT_STATUS_SQL, createTableSql, LATENCY_STATUS_SQL, PLAN_VERSIONS_SQL, planViewsSql, PRECISION_CHART_ORDER, versionsTableSql } from '../sql/load';
import { query, type QueryRunner } from '../sql/query';
import type { ConfigRef } from '../vocabulary';
import { TABLES, tableFile, type TableName } from '../sql/schema';

/** A data file that exists but cannot be used (not Parquet, or without the documented columns). */
export class DataFileError extends Error {
  override name = 'DataFileError';
}

/** What the prepared data holds. */
export interface Catalog {
  /** Planned versions in release order. */
  readonly versions: readonly string[];
  /**
   * The current versions (plan.current: the newest patch of each minor line), in release order:
   * every version when the plan marks none as other.
   */
  readonly currentVersions: readonly string[];
  /** Compilers in plan order. */
  readonly compilers: readonly string[];
  /** Configurations (compiler and flag set) shown, in plan order: by compiler, then flag set. */
  readonly configs: readonly ConfigRef[];
  /** The extended configurations of the published plan (plan.extended), in plan order, whether shown or not. */
  readonly extendedConfigs: readonly ConfigRef[];
  /** Whether the extended configurations are shown (the page's `ext`): every table then holds them. */
  readonly extended: boolean;
  /** The builds columns holding a bundled dependency's version (deps_jemalloc, ...), when the builds record them. */
  readonly depColumns: readonly string[];
  /** Charts (mode and test) in the client's test order, data mode first; the precision modes' after the reference modes'. */
  readonly charts: readonly { readonly mode: string; readonly test: string }[];
  /** The precision modes (runs in interleaved rounds: docs/method.md), in chart order; none without their runs. */
  readonly precisionModes: readonly string[];
  /** The rounds each version has in each precision mode on the class shown (versions without any left out). */
  readonly rounds: readonly { readonly mode: string; readonly version: string; readonly rounds: number }[];
  /** The versions with at least one counted figure, in release order. */
  readonly countedVersions: readonly string[];
  /** The versions with at least one finished run of the reference modes on the class shown, in release order. */
  readonly measuredVersions: readonly string[];
  /** Every hardware class in the data, the earliest measured first. */
  readonly hardware: readonly HardwareClass[];
  /** The class builds, runs, results and every derived table show; null when no machine is described. */
  readonly selectedHardware: HardwareClass | null;
}

/**
 * Creates every table (from its file when `present` has it, else empty, with the documented
 * columns), restricts builds, runs and results to one hardware class (the one whose slug is
 * `hardware`, else the default: src/model/hardware.ts), creates the derived tables, and returns
 * the catalog. `split` names the tables whose registered file is their lean file (createTableSql:
 * their lazy columns are read from a table filled later). The plan holds the reference
 * configurations, and the extended ones too with `extended` (planViewsSql). Page load pays a round trip and
 * cold-code time per statement, so the happy path
 * is two trips (the hardware classes, then the catalog, each the last statement's result); only
 * a failure is retried table by table, to name the file at fault.
 */
export async function prepareTables(
  runner: QueryRunner, present: ReadonlySet<TableName>, hardware: string | null = null, split: ReadonlySet<TableName> = new Set(), extended = false,
): Promise<Catalog> {
  const tables = TABLES.map((table) => createTableSql(table, present.has(table), split.has(table)));
  const plan = planViewsSql(extended);
  let rows;
  let classes: HardwareClass[] = [];
  let selectedHardware: HardwareClass | null = null;
  try {
    const classRows = await runner.run({ ...hardwareClassesQuery(), sql: [...tables, plan, hardwareClassesQuery().sql].join(';\n') });
    classes = classRows.map((r) => ({
      label: r.label, slug: hardwareSlug(r.label), runs: r.runs, measuredCells: r.measured_cells,
      plannedCells: r.planned_cells, doneRuns: r.done_runs, plannedRuns: r.planned_runs, firstRunMs: r.first_run_ms, firstMeasuredMs: r.first_measured_ms,
    }));
    selectedHardware = pickHardware(classes, hardware);
    rows = await runner.run({
      ...catalogQuery(),
      sql: [hardwareViewsSql(selectedHardware?.label ?? null, !extended), CELL_STATUS_SQL, COUNT_STATUS_SQL, LATENCY_STATUS_SQL, PLAN_VERSIONS_SQL, catalogQuery().sql].join(';\n'),
    });
  } catch (err) {
    for (const [i, table] of TABLES.entries()) {
      try {
        await runner.run(query(tables[i] ?? ''));
      } catch (tableErr) {
        throw new DataFileError(`${tableFile(table)} does not match the published schema: ${firstLine(tableErr)}`);
      }
    }
    throw new DataFileError(`The data could not be summarised: ${firstLine(err)}`);
  }
  performance.mark('tables:derived');

  const planned = rows.filter((r) => r.kind === 'version');
  const versions = sortVersions(planned.map((r) => r.name));
  const others = new Set(rows.filter((r) => r.kind === 'other').map((r) => r.name));
  const counted = new Set(rows.filter((r) => r.kind === 'counted').map((r) => r.name));
  const measured = new Set(rows.filter((r) => r.kind === 'measured').map((r) => r.name));
  // SQL's ord must be each version's index in release order.
  if (planned.some((r, i) => r.name !== versions[i] || r.ord !== i)) await runner.run(versionsTableSql(versions));
  return {
    versions,
    currentVersions: versions.filter((v) => !others.has(v)),
    compilers: rows.filter((r) => r.kind === 'compiler').map((r) => r.name),
    configs: rows.filter((r) => r.kind === 'config').map((r) => ({ compiler: r.mode ?? '', flag_set: r.name })),
    extendedConfigs: rows.filter((r) => r.kind === 'extended').map((r) => ({ compiler: r.mode ?? '', flag_set: r.name })),
    extended,
    depColumns: rows.filter((r) => r.kind === 'dep').map((r) => r.name),
    charts: rows.filter((r) => r.kind === 'chart').map((r) => ({ mode: r.mode ?? '', test: r.name })),
    precisionModes: [...new Set(rows.filter((r) => r.kind === 'chart' && r.ord >= PRECISION_CHART_ORDER).map((r) => r.mode ?? ''))],
    rounds: rows.filter((r) => r.kind === 'rounds').map((r) => ({ mode: r.mode ?? '', version: r.name, rounds: r.ord })),
    countedVersions: versions.filter((v) => counted.has(v)),
    measuredVersions: versions.filter((v) => measured.has(v)),
    hardware: classes,
    selectedHardware,
  };
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}
