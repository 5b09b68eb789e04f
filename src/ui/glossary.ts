/**
 * What each value on screen means, in one place: the tooltips and the help panel read these, so
 * a column is explained the same way everywhere. Bit layouts: RAD-FORMAT.md §5.3 and §7.4.
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
