/**
 * Hardware classes: the site never combines figures measured on different CPUs. A machine's
 * class is the one the collector recorded for it (machines.hardware_class, collector 0.1.8 on:
 * CPU model, family and model number and core count, "AMD EPYC (family 25 model 17), 2 cores",
 * unless the machine was joined to an existing class), else its CPU model and core count
 * (machines.cpu_model, machines.cores), labelled "<cpu_model>, <cores> cores"
 * (src/sql/hardware.ts builds the label; the collector counts repeats per class by the same
 * rule). The page shows one class at a time, named in the URL by the label's slug
 * (`hw=amd-epyc-2-cores`); the page writes the class it shows into its URL, so a link names it.
 */
import { formatCount } from './format';

/** One hardware class in the data, with what was measured on it (every count from all_runs). */
export interface HardwareClass {
  /** machines.hardware_class, else "<cpu_model>, <cores> cores", e.g. "AMD EPYC, 2 cores". */
  readonly label: string;
  /** The label as a URL value (hardwareSlug). */
  readonly slug: string;
  /** Finished benchmark runs on the class's machines (server failures not counted). */
  readonly runs: number;
  /** Planned cells with at least one finished run on the class's machines. */
  readonly measuredCells: number;
  /** Cells in the plan. */
  readonly plannedCells: number;
  /** Planned runs done on the class, counted as the collector's `plan` counts them (src/sql/hardware.ts). */
  readonly doneRuns: number;
  /** Runs in the plan: repeats × modes over every cell. */
  readonly plannedRuns: number;
  /** Start of the class's earliest run (any status), ms since the epoch; null without runs. */
  readonly firstRunMs: number | null;
  /** Earliest measured_at of the class's machines, ms since the epoch; null when not recorded. */
  readonly firstMeasuredMs: number | null;
}

/**
 * The URL value of a label: lowercased, every run of characters outside [a-z0-9] replaced by one
 * '-', leading and trailing '-' trimmed ("Intel(R) Xeon(R) Processor, 2 cores" ->
 * "intel-r-xeon-r-processor-2-cores").
 */
export function hardwareSlug(label: string): string {
  return label.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

const earliest = (a: number | null, b: number | null): number => (a ?? Infinity) - (b ?? Infinity) || 0;

/** Share of the plan a class has done, 0..1 (0 with an empty plan). */
export function doneShare(c: HardwareClass): number {
  return c.plannedRuns > 0 ? c.doneRuns / c.plannedRuns : 0;
}

/**
 * The class shown when a link names none: the one that has done most of the plan (its planned
 * runs done, a failed cell's counting as done), so a first visit sees the most complete and
 * best-repeated figures; among equals, the class of the earliest run (with no run at all, of the
 * earliest measured machine; then by label). Links keep what they showed as data is added, since
 * the page writes the class it shows into its URL (`hw=`). Null without classes.
 */
export function defaultHardware(classes: readonly HardwareClass[]): HardwareClass | null {
  const ranked = [...classes].sort((a, b) =>
    doneShare(b) - doneShare(a) || earliest(a.firstRunMs, b.firstRunMs) || earliest(a.firstMeasuredMs, b.firstMeasuredMs)
    || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return ranked[0] ?? null;
}

/** The class a link asks for (`slug`, null when it names none), or the default when the data has no such class. */
export function pickHardware(classes: readonly HardwareClass[], slug: string | null): HardwareClass | null {
  return classes.find((c) => c.slug === slug) ?? defaultHardware(classes);
}

/**
 * The class as a choice in the hardware select:
 * "AMD EPYC, 2 cores — 545 runs, 132 of 132 cells measured, 68% of the plan done"
 * ("the plan complete" once every planned run is done; "no requests/second measured" for a class whose
 * machines only built, such as one that built for counting).
 */
export function hardwareOptionText(c: HardwareClass): string {
  // A class whose machines only built (for the counted instrument, which no hardware filter applies to).
  if (c.runs === 0 && c.doneRuns === 0) return `${c.label} — no requests/second measured, 0 of ${formatCount(c.plannedCells)} cells`;
  const done = c.plannedRuns > 0 && c.doneRuns >= c.plannedRuns ? 'the plan complete' : `${Math.floor(doneShare(c) * 100)}% of the plan done`;
  return `${c.label} — ${formatCount(c.runs)} run${c.runs === 1 ? '' : 's'}, ${formatCount(c.measuredCells)} of ${formatCount(c.plannedCells)} cells measured, ${done}`;
}
