/**
 * Release ordering for Redis version strings: "2.6.17" < "2.8.24" < "3.0.7" < "7.4.1", with
 * pre-releases ("7.0-rc1", "6.0.0-rc2", "8.0-m02", "2.6.0-beta3") before the release they lead to.
 * Plain string order gets these wrong ("10.0.0" < "2.6.17", "7.0-rc1" > "7.0.0").
 */

/** Pre-release kinds in release order; a final release ranks after all of them. */
const PRERELEASE_RANK: Record<string, number> = { alpha: 0, beta: 1, m: 2, rc: 3 };
const FINAL_RANK = 99;

interface ParsedVersion {
  numbers: number[];
  stage: number;
  stageNumber: number;
  raw: string;
}

const PATTERN = /^v?(\d+(?:\.\d+)*)(?:[-.]?(alpha|beta|m|rc)\.?(\d*))?$/i;

function parse(version: string): ParsedVersion | null {
  const match = PATTERN.exec(version.trim());
  if (!match) return null;
  const [, numbers = '', stage, stageNumber] = match;
  return {
    numbers: numbers.split('.').map(Number),
    stage: stage ? (PRERELEASE_RANK[stage.toLowerCase()] ?? FINAL_RANK) : FINAL_RANK,
    stageNumber: stageNumber ? Number(stageNumber) : 0,
    raw: version,
  };
}

/** True when the string reads as a Redis version (numbers, optional -rcN/-mNN/-alphaN/-betaN). */
export function isVersion(version: string): boolean {
  return parse(version) !== null;
}

/**
 * Compares two Redis versions in release order (negative: a is older). Missing numeric parts
 * count as 0 ("7.0" = "7.0.0"). Strings that are not versions sort after all versions, among
 * themselves by plain string order, so nothing is ever dropped.
 */
export function compareVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb) {
    if (pa) return -1;
    if (pb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const length = Math.max(pa.numbers.length, pb.numbers.length);
  for (let i = 0; i < length; i++) {
    const diff = (pa.numbers[i] ?? 0) - (pb.numbers[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return pa.stage - pb.stage || pa.stageNumber - pb.stageNumber;
}

/** A new array of the versions in release order, each once. */
export function sortVersions(versions: Iterable<string>): string[] {
  return [...new Set(versions)].sort(compareVersions);
}

/**
 * The minor line a version belongs to: "2.6" for 2.6.17 and 2.6.0-rc1, "7.0" for 7.0-rc1; a
 * string that is not a version is its own line.
 */
export function minorLine(version: string): string {
  const parsed = parse(version);
  return parsed ? `${parsed.numbers[0] ?? 0}.${parsed.numbers[1] ?? 0}` : version;
}
