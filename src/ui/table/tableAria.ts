/**
 * The record table's row numbers for assistive technology (WAI-ARIA treegrid): the header is
 * row 1, then every record followed by the alignment rows of the expanded ones, so a screen
 * reader says "row 1,204 of 757,962" for the row in focus, however few rows are rendered.
 */

/** Alignment rows shown before `record`: the alignment counts of the expanded records before it. */
function alignmentRowsBefore(record: number, expanded: ReadonlyMap<number, number>): number {
  let rows = 0
  for (const [r, naln] of expanded) if (r < record) rows += naln
  return rows
}

/** aria-rowindex (1-based) of a record's row; the expanded map is small (records a user opened). */
export function recordRowIndex(record: number, expanded: ReadonlyMap<number, number>): number {
  return record + 2 + alignmentRowsBefore(record, expanded)
}

/** aria-rowindex of alignment `alignment` (0-based) of an expanded record. */
export function alignmentRowIndex(record: number, alignment: number, expanded: ReadonlyMap<number, number>): number {
  return recordRowIndex(record, expanded) + alignment + 1
}

/** aria-rowcount: the header, every record and every alignment row shown. */
export function tableRowCount(records: number, expanded: ReadonlyMap<number, number>): number {
  return 1 + records + alignmentRowsBefore(Infinity, expanded)
}

/** The id of a record's row, for the table's aria-activedescendant (`prefix` from React's useId). */
export function recordRowId(prefix: string, record: number): string {
  return `${prefix}-record-${String(record)}`
}
