/** Grouping rows by a key, in the order the keys first come. */

/** The rows by `keyOf`'s key, each group in the rows' order, the groups in the order their keys first come. */
export function groupBy<Row>(rows: readonly Row[], keyOf: (row: Row) => string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}
