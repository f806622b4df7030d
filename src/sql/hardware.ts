/**
 * One hardware class at a time (src/model/hardware.ts): the published builds, runs and results of
 * every machine (and the runs measured again, with their results) are read as all_builds,
 * all_runs, all_results, all_redone_runs and all_redone_results, and the names every query uses
 * (builds, runs, results, redone_runs, redone_results) are views restricted to the selected
 * class's machines. So the charts,
 * noise verdicts, summary, status grid, header, exports and the SQL console never mix CPUs,
 * without a hardware condition in each query.
 */
import { query, type Query } from './query';
import { sqlLiteral } from './scan';

/**
 * A machines row's hardware label (the collector's rule, exactly: store.Machine.Hardware): the
 * class it recorded (collector 0.1.8 on), else "<cpu_model>, <cores> cores".
 */
const LABEL = `coalesce(nullif(hardware_class, ''), cpu_model || ', ' || cores::VARCHAR || ' cores')`;

/**
 * Each machine_id's label. machines has one row per machine; should a machine appear twice, it
 * still gets one class (the smallest label of its rows).
 */
const MACHINE_LABELS = `SELECT machine_id, min(${LABEL}) AS hardware, min(measured_at) AS measured_at FROM machines GROUP BY machine_id`;

/** One hardware class as hardwareClassesQuery returns it. */
export interface HardwareRow {
  label: string;
  /** Finished runs (server failures not counted) on the class's machines. */
  runs: number;
  /** Planned cells with a finished run on the class's machines. */
  measured_cells: number;
  planned_cells: number;
  /**
   * The planned runs (cell × mode × repeat) the class has done, counted as the collector's
   * `plan` counts them: a (cell, mode)'s runs of any status up to its planned repeats, and all
   * of a cell's planned runs when its latest build on the class failed (a recorded failure).
   */
  done_runs: number;
  /** Planned runs: the plan's repeats × modes over every cell. */
  planned_runs: number;
  /** Start of the class's earliest run (any status), ms since the epoch; null without runs. */
  first_run_ms: number | null;
  /** Earliest measured_at of its machines, ms since the epoch. */
  first_measured_ms: number | null;
}

/** Every hardware class in machines, with its counts over all_runs, the earliest measured first. */
export function hardwareClassesQuery(): Query<HardwareRow> {
  return query(
    `WITH mh AS (${MACHINE_LABELS}),
     planned AS (SELECT cell_id, trim(unnest(string_split(modes, ','))) AS mode, repeats FROM plan),
     latest_build AS (
       SELECT mh.hardware, b.cell_id, arg_max(b.status, epoch_ms(b.started_at)) AS status
       FROM all_builds b JOIN mh ON mh.machine_id = b.machine_id GROUP BY mh.hardware, b.cell_id),
     class_runs AS (
       SELECT mh.hardware, r.cell_id, r.mode, count(*) AS n
       FROM all_runs r JOIN mh ON mh.machine_id = r.machine_id GROUP BY mh.hardware, r.cell_id, r.mode),
     progress AS (
       SELECT h.hardware,
              coalesce(sum(CASE WHEN lb.status IS NOT NULL AND lb.status <> 'ok' THEN p.repeats
                                ELSE least(coalesce(cr.n, 0), p.repeats) END), 0)::INTEGER AS done_runs
       FROM (SELECT DISTINCT hardware FROM mh WHERE hardware IS NOT NULL) h
       LEFT JOIN planned p ON true
       LEFT JOIN latest_build lb ON lb.hardware = h.hardware AND lb.cell_id = p.cell_id
       LEFT JOIN class_runs cr ON cr.hardware = h.hardware AND cr.cell_id = p.cell_id AND cr.mode = p.mode
       GROUP BY h.hardware)
     SELECT mh.hardware AS label,
            count(r.run_id) FILTER (WHERE r.status <> 'server_failed')::INTEGER AS runs,
            count(DISTINCT p.cell_id) FILTER (WHERE r.status <> 'server_failed')::INTEGER AS measured_cells,
            n.planned_cells,
            g.done_runs, n.planned_runs,
            epoch_ms(min(r.started_at))::DOUBLE AS first_run_ms,
            epoch_ms(min(mh.measured_at))::DOUBLE AS first_measured_ms
     FROM mh
     CROSS JOIN (SELECT count(*)::INTEGER AS planned_cells,
                        (SELECT coalesce(sum(repeats), 0) FROM planned)::INTEGER AS planned_runs FROM plan) n
     JOIN progress g ON g.hardware = mh.hardware
     LEFT JOIN all_runs r ON r.machine_id = mh.machine_id
     LEFT JOIN plan p ON p.cell_id = r.cell_id
     WHERE mh.hardware IS NOT NULL
     GROUP BY mh.hardware, n.planned_cells, n.planned_runs, g.done_runs
     ORDER BY first_run_ms NULLS LAST, first_measured_ms NULLS LAST, label`,
  );
}

/**
 * Statements that restrict builds, runs, results and the redone runs and results to the machines of the class labelled
 * `label` (results through their run), and the table machine_hardware (machine_id, hardware,
 * selected) they read. With no class (no machine described) nothing is restricted. With
 * `plannedOnly`, builds and runs (and so their results) are also restricted to the cells of the
 * view `plan` (the reference configurations when the extended ones are not shown: load.ts).
 */
export function hardwareViewsSql(label: string | null, plannedOnly = false): string {
  const selected = `SELECT machine_id FROM machine_hardware WHERE selected`;
  const where = (...conditions: (string | false)[]) => {
    const kept = conditions.filter((c): c is string => c !== false);
    return kept.length ? ` WHERE ${kept.join(' AND ')}` : '';
  };
  const onClass = (column: string, ids: string) => label !== null && `${column} IN (${ids})`;
  const planned = plannedOnly && 'cell_id IN (SELECT cell_id FROM plan)';
  return [
    `CREATE OR REPLACE TABLE machine_hardware AS
SELECT machine_id, hardware, coalesce(hardware = ${sqlLiteral(label)}, ${label === null}) AS selected
FROM (${MACHINE_LABELS})`,
    `CREATE OR REPLACE VIEW builds AS SELECT * FROM all_builds${where(onClass('machine_id', selected), planned)}`,
    `CREATE OR REPLACE VIEW runs AS SELECT * FROM all_runs${where(onClass('machine_id', selected), planned)}`,
    // A run of the class is already one of a planned cell.
    `CREATE OR REPLACE VIEW results AS SELECT * FROM all_results${where(onClass('run_id', 'SELECT run_id FROM runs') || planned)}`,
    `CREATE OR REPLACE VIEW redone_runs AS SELECT * FROM all_redone_runs${where(onClass('machine_id', selected), planned)}`,
    `CREATE OR REPLACE VIEW redone_results AS SELECT * FROM all_redone_results${where(onClass('run_id', 'SELECT run_id FROM redone_runs') || planned)}`,
  ].join(';\n');
}
