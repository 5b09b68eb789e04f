/** The CLI's usage: the whole list (`rad --help`) and each command's own (`rad COMMAND --help`). */
import { FILTER_USAGE } from './filterFlags'
import { SERVE_USAGE } from './serve'

interface CommandUsage {
  /** The command line, as the list shows it. */
  synopsis: string
  /** What it does, one or two lines. */
  summary: string
  /** Whether the record filters apply. */
  filters?: boolean
  /** More for the command's own help. */
  details?: string
}

const SELECTION = `  --chunks A-B            only chunks A to B (0-based, inclusive)
  --records A-B           only records A to B (view's ID, 0-based, inclusive)`

const PARQUET = `  --per alignment|record  Parquet: one row per alignment (default), or per record with the
                          alignments as a list column
  export A.rad B.rad … --out DIR [filters]
                          Parquet for engines: DIR/sample=<name>/part-0.parquet per input (Hive
                          layout; DuckDB: read_parquet('DIR/**/*.parquet', hive_partitioning=true);
                          Spark: spark.read.parquet('DIR')). See docs/engines.md.
  --sample NAME           with one input and --out: its sample name (a workflow's per-sample map.rad)`

const WRITES = `OUT is written to a temporary file beside it and renamed into place when complete: a run
stopped half-way leaves OUT as it was. OUT may not be IN, nor a link to it. OUT - is standard
output; a FIFO, a device or a socket is written into, never replaced.`

const RANGES = `  --chunks A-B            only chunks A to B (0-based, inclusive; dump --chunk N is --chunks N-N)
  --records A-B           only records A to B (their ID, 0-based, inclusive)`

const COMMANDS: Record<string, CommandUsage> = {
  info: { synopsis: 'info FILE', summary: 'one JSON object: header, tag schemas, codec, nbytes convention, totals' },
  dump: {
    synopsis: 'dump FILE [--chunk N]',
    summary: 'JSON Lines, one object per record (raw tag values)',
    details: RANGES,
    filters: true,
  },
  view: {
    synopsis: 'view FILE [-H]',
    summary: 'one line per alignment, like `alevin-fry view` (-H: reference list first)',
    details: RANGES,
    filters: true,
  },
  validate: { synopsis: 'validate FILE', summary: 'check every chunk (and every .sz frame’s checksum)' },
  index: {
    synopsis: 'index FILE [--no-stats]',
    summary: 'scan FILE once and write its sidecar index FILE.rdx (docs/sidecar.md)',
    details:
      'The same walk counts the whole-file statistics (rad stats FILE --json, and the knee curve):\n' +
      'the viewer shows them from the sidecar without reading the file.\n' +
      '  --no-stats              index and check only: no statistics section (a faster walk)\n' +
      '  --t2g T                 also the cells (and --gene-names, --permit-list, --mito, --force-cells,\n' +
      "                          --expect-cells as for stats): kept with the files' fingerprints, the page\n" +
      '                          shows them when it is given the same files (docs/cells.md)\n' +
      "  --tmp DIR               where the statistics spill past their memory budget (default the system's)\n\n" +
      'FILE.rdx is replaced through a temporary file, never written through a link.',
  },
  salvage: {
    synopsis: 'salvage IN OUT',
    summary: 'write the valid part of IN to OUT: the prelude and every intact chunk, num_chunks corrected',
    details: WRITES,
  },
  stats: {
    synopsis: 'stats FILE… [--json|--tsv] [--multiqc DIR]',
    summary:
      'whole-file statistics and the knee (docs/stats.md): a summary, the JSON,\n' +
      '                          or a MultiQC-friendly TSV (barcode, reads, distinct UMIs, above-knee flag)',
    details:
      'Exact at any size: past a memory budget the pairs spill to a temporary file, removed on exit:\n' +
      "  --tmp DIR               the spill file's folder (default the system's, as bustools -T)\n" +
      "  --map-info FILE         the mapper's run statistics, for the summary's mapping rate (default: map_info.json\n" +
      '                          or aux_info/meta_info.json beside FILE, when there)\n\n' +
      'several files (a study): each counted in turn and named by its sample (docs/stats.md, "Several files"):\n' +
      '  --json                  {"samples": [{"sample", "file", …one file\'s JSON}]}\n' +
      '  --tsv                   the study table, one row per sample\n' +
      '  --multiqc DIR           MultiQC custom-content files in DIR (general statistics, barcode rank curves)\n\n' +
      'cells and genes (docs/cells.md), for files with one barcode and a UMI:\n' +
      '  --t2g FILE              transcript-to-gene map (t2g.tsv; extra columns ignored)\n' +
      '  --gene-names FILE       gene id and name (gene_id_to_name.tsv); a gene without one is labelled by its id\n' +
      '  --permit-list FILE      one barcode per line, plain or gzip: records exact, corrected (Hamming 1), ambiguous, absent\n' +
      "  --mito REGEX            mitochondrial gene labels (default '^(MT|mt)-')\n" +
      '  --force-cells K | --expect-cells K   the cells by that cut-off instead of the knee\n' +
      '  --cells-tsv             one row per cell: barcode reads umis genes mito_fraction',
  },
  serve: { synopsis: 'serve FILE… [--port N]', summary: 'serve the viewer and FILEs over HTTP, print a link per file' },
  subset: {
    synopsis: 'subset IN OUT [--chunks A-B] [--records A-B] [--keep-chunks] [filters]',
    summary: 'write the chosen records of IN to OUT as a valid RAD file (ranges 0-based, inclusive)',
    filters: true,
    details: `${SELECTION}\n  --keep-chunks           one output chunk per input chunk\n\n${WRITES}`,
  },
  export: {
    synopsis: 'export IN OUT [--format rad|tsv|jsonl|parquet] [--chunks A-B] [--records A-B] [filters]',
    summary:
      "write the chosen records to OUT as RAD (subset's bytes), view's TSV, dump's JSON Lines or Parquet\n" +
      '                          (the format from OUT’s extension unless --format: .tsv, .jsonl, .parquet, else rad)',
    filters: true,
    details: `${SELECTION}\n${PARQUET}\n\n${WRITES}`,
  },
  cat: {
    synopsis: 'cat A.rad B.rad … OUT',
    summary: "join files written against the same index: A's prelude, then every chunk of A, of B, … in order",
    details:
      'The inputs must have the same format version, references (names, in order), tag descriptions\n' +
      '(names, types, v2 roles) and file-tag values (cblen, ulen, …; chunk_codec aside): the first\n' +
      'difference is refused in one line (`rad compare A B` shows it), as is a damaged input, and\n' +
      'nothing is written. num_chunks is the chunks written. OUT is uncompressed: lz4/zstd chunks and\n' +
      '.sz files are read through; plain chunks are copied byte for byte.\n\n' +
      'OUT is written to a temporary file beside it and renamed into place when complete: a run\n' +
      'stopped half-way leaves OUT as it was. OUT may not be an input, nor a link to one. OUT - is\n' +
      'standard output; a FIFO, a device or a socket is written into, never replaced.',
  },
  compare: {
    synopsis: 'compare A.rad B.rad [--json]',
    summary:
      'whether `cat` can join them (or their first difference), and their records, distinct barcodes,\n' +
      '                          knee cells and barcode–UMI pairs side by side',
    details:
      '  --json                  {"joinable": bool, "difference": string|null, "a": {…}, "b": {…}}\n\n' +
      'Exit 0 whether or not they can be joined; 1 when either cannot be read.',
  },
}
/** Commands that write a file OUT: the second (cat: the last, after its inputs). */
export const WRITES_OUT = new Set(['salvage', 'subset', 'export', 'cat'])

const EXIT_STATUS = `exit status (as gzip -t):
  0  the file is clean (notes about a well-formed file, such as an unwrapped .sz stream, keep 0)
  1  errors: the file is damaged or not RAD, cannot be opened, the command line is wrong,
     or an output would overwrite an input
  2  validate and info: readable, with warnings (the file deviates from what it declares,
     such as trailing bytes after the declared chunks, or a length its tag's type cannot hold);
     salvage: OUT was written but keeps such a warning of IN's header, which it copies unchanged`

function listLine(c: CommandUsage): string {
  const pad = c.synopsis.length < 24 ? ' '.repeat(24 - c.synopsis.length) : `\n${' '.repeat(26)}`
  return `  ${c.synopsis}${pad}${c.summary}`
}

export const USAGE = `usage: node bin/rad.mjs COMMAND FILE [options]   (node bin/rad.mjs COMMAND --help for one command)

commands:
${Object.values(COMMANDS).map(listLine).join('\n')}

${FILTER_USAGE}

Files may be plain RAD, chunk-compressed (lz4/zstd) or Snappy-framed (.sz).

${EXIT_STATUS}`

/** `rad COMMAND --help`: that command's usage; the whole list for an unknown command. */
export function commandUsage(command: string | undefined): string {
  if (command === 'serve') return SERVE_USAGE
  const c = command === undefined ? undefined : COMMANDS[command]
  if (!c) return USAGE
  const parts = [`usage: node bin/rad.mjs ${c.synopsis}`, '', `  ${c.summary.replace(/\n\s+/g, '\n  ')}`]
  if (c.details) parts.push('', c.details)
  if (c.filters) parts.push('', FILTER_USAGE)
  parts.push('', EXIT_STATUS)
  return parts.join('\n')
}
