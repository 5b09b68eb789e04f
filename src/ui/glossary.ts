/**
 * What each value on screen means, in one place: the tooltips and the help panel read these, so
 * a column is explained the same way everywhere. Bit layouts: docs/format.md §5.3 and §7.4.
 */

/** Orientation badges: bit 31 of the orientation word (and bit 30, the mate, for bulk pairs). */
export const ORIENTATION: Record<string, string> = {
  fw: 'fw: the read maps to the forward strand of the reference',
  rc: 'rc: the read maps to the reverse strand (reverse complement) of the reference',
  ff: 'ff: pair, read 1 forward and read 2 forward',
  fr: 'fr: pair, read 1 forward and read 2 reverse',
  rf: 'rf: pair, read 1 reverse and read 2 forward',
  rr: 'rr: pair, read 1 reverse and read 2 reverse',
  '?': '?: orientation unknown (the read is not mapped)',
}

export function orientationTitle(ori: string): string {
  return ORIENTATION[ori] ?? `${ori}: orientation`
}

/** Record-table column headers. */
export const RECORD_COLUMNS: Record<string, string> = {
  Record: 'Record number in the file, counted from 0',
  Chunk: 'Chunk that holds the record, counted from 0',
  Aln: 'Number of alignments of this read (click the row to list them)',
  Barcode: 'Cell barcode, decoded from 2 bits per base',
  UMI: 'Unique molecular identifier, decoded from 2 bits per base',
  Mapping: 'Mapping type of the read (pair, orphan, single, unmapped)',
  'First alignment': 'Orientation and reference of the first alignment; "+N" more alignments follow',
}

export function recordColumnTitle(header: string): string | undefined {
  if (header.startsWith('Barcode ')) return `${RECORD_COLUMNS.Barcode ?? ''} (tag ${header.slice(8)})`
  return RECORD_COLUMNS[header]
}

/** Chunk-list column headers (§4.1). */
export const CHUNK_COLUMNS: Record<string, string> = {
  '#': 'Chunk number, counted from 0',
  offset: 'Where the chunk starts in the file: bytes, counted from 0',
  nbytes: "The chunk's size in bytes, as its header declares it",
  nrec: 'Records (reads) in the chunk, as its header declares them',
  'first rec': 'Number of the first record of the chunk in the whole file, counted from 0',
}

/** Alignment fields. */
export const ALIGNMENT_FIELDS: Record<string, string> = {
  pos: 'Mapping position on the reference, 0-based, as the mapper writes it',
  'frag len': 'Fragment length in bases (pairs)',
  type: 'Mapping type of this alignment',
}

/** The two role columns of the tag schema (§2.3, §7.7). */
export const SCHEMA_COLUMNS: Record<string, string> = {
  Role: 'The role the file declares for the tag (v2 files; legacy files declare none)',
  'Read as': 'How this viewer reads the tag: from its role, or from its well-known name in legacy files',
}

/** Keys: the record table's (tableKeys.ts), the chunk list's and the page's (helpKeys.ts). */
export const KEYS: Record<string, string> = {
  '↑ ↓': 'Move the selected record by one (the chunk list moves by one chunk)',
  'PgUp PgDn': 'Move by a screenful',
  'Home End': 'Go to the first or the last record',
  '→ ←': 'Expand or collapse the selected record (its read tags and alignments)',
  'Enter Space': 'Expand or collapse the selected record',
  'Double-click': 'Select a barcode to copy it, without expanding the record',
  '?': 'Open or close this help (anywhere but in a text field)',
  Esc: 'Close this help',
}

/** The filter bar's fields (FilterPanel.tsx, the CLI's --barcode … flags). */
export const FILTERS: Record<string, string> = {
  Barcode: 'Records whose cell barcode is this sequence; "≤ 1 mismatch" allows one substituted base',
  UMI: 'Records whose UMI is this sequence',
  Reference: 'Records with an alignment to a reference whose name contains this text, or matches /a regex/',
  Alignments: 'Records with at least "min" and at most "max" alignments',
  Orientation: 'Records with an alignment in this orientation (fw or rc)',
  Matches:
    'Fields combine with AND over the whole file; matching record numbers stream into a list (the first million kept, the rest counted): click one to go to it',
}

/** The statistics panel's figures and plots (docs/stats.md). */
export const STATISTICS: Record<string, string> = {
  Records: 'Reads counted, over every chunk that decoded',
  Alignments: 'Alignments of those reads',
  'Distinct barcodes': 'Different cell barcodes seen (exact up to 1.5 million, then a stated estimate)',
  'Cells (knee)': 'Barcodes above the knee of the barcode-rank plot: the likely cells',
  'Barcode–UMI pairs': 'Different (barcode, UMI) pairs: the molecules',
  'Sequencing saturation': '1 − pairs / records: how much more sequencing would find few new molecules',
  'Knee plot':
    'Reads per barcode against its rank, both log scale; drag the cut-off, or set alevin-fry’s --expect-cells or --force-cells to see where they cut',
  'Top lists': 'The most frequent barcodes and references: click one to filter the records to it',
  'Save JSON': 'The same figures as node bin/rad.mjs stats FILE --json; Save TSV: one barcode a line',
}

/** The Export… dialog (ExportDialog.tsx, the CLI's subset, view and dump). */
export const EXPORT: Record<string, string> = {
  What: 'The filter’s matches, a range of chunks, or the cells above the knee-plot cut-off',
  RAD: 'A valid RAD file of those records (as node bin/rad.mjs subset writes it)',
  TSV: 'One line per alignment, as node bin/rad.mjs view prints it',
  'JSON Lines': 'One object per record with its raw tag values, as node bin/rad.mjs dump prints it',
  Where: 'Streamed to the file you pick, so a subset larger than the browser’s memory works',
}
