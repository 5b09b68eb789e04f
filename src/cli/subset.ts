/**
 * `rad subset IN OUT [--chunks A-B] [--records A-B] [--keep-chunks] [filters]`
 * (issue 12 §3): writes the chosen records of IN as a valid RAD file
 * (rad/subsetWriter.ts; docs/subsets.md). Ranges are 0-based and inclusive;
 * record numbers are `view`'s `ID`s; the filters are view's and dump's
 * (filterFlags.ts, rad/recordFilter.ts). Everything given combines with AND.
 */
import { open as openFile } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import type { ByteSource } from '../io/byteSource'
import { writeSubset } from '../io/exportSelection'
import { openRad } from '../io/openRad'
import type { RecordSelection } from '../io/selectedRecords'
import { identifyProducer } from '../rad/producer'
import { compileFilter, matchRecords } from '../rad/recordFilter'
import type { RecordFilter } from '../rad/recordFilter'
import { inferSemantics } from '../rad/semantics'
import type { ByteSink } from '../rad/subsetWriter'
import type { ChunkColumns } from '../rad/types'
import type { Output } from './output'

export interface SubsetArgs {
  selection: RecordSelection
  /** One output chunk per source chunk; on by itself for files alevin-fry collate wrote. */
  keepChunks: boolean
  /** The record filter flags (filterFlags.ts), shared with view and dump. */
  filter?: RecordFilter | undefined
}

/** `A-B` (or `A` alone) as an inclusive range, or undefined when malformed. */
function parseRange(text: string | undefined): [number, number] | undefined {
  const m = /^(\d+)(?:-(\d+))?$/.exec(text ?? '')
  if (!m) return undefined
  const from = Number(m[1])
  const to = Number(m[2] ?? m[1])
  return Number.isSafeInteger(from) && Number.isSafeInteger(to) && from <= to ? [from, to] : undefined
}

/**
 * Takes subset's own flags out of `argv` (the rest is left for main's parser);
 * returns what is wrong with them as a string.
 */
export function takeSubsetFlags(argv: string[]): SubsetArgs | string {
  const selection: RecordSelection = {}
  let keepChunks = false
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    if (flag === '--chunks' || flag === '--records') {
      const range = parseRange(argv[i + 1])
      if (!range) return `${flag} needs a range A-B (0-based, inclusive, A ≤ B)`
      if (flag === '--chunks') selection.chunks = range
      else selection.records = range
      argv.splice(i, 2)
      i--
    } else if (flag === '--keep-chunks') {
      keepChunks = true
      argv.splice(i, 1)
      i--
    }
  }
  return { selection, keepChunks }
}

/** A file written front to back, with positioned rewrites for the num_chunks patch. */
function fileSink(handle: FileHandle): ByteSink {
  let position = 0
  return {
    async write(bytes) {
      await handle.write(bytes, 0, bytes.length, position)
      position += bytes.length
    },
    async patch(at, bytes) {
      await handle.write(bytes, 0, bytes.length, at)
    },
  }
}

export async function runSubset(file: ByteSource, outPath: string, args: SubsetArgs, out: Output): Promise<number> {
  const { source, prelude, container } = await openRad(file)
  const collated = identifyProducer(prelude, container).name === 'alevin-fry collate'
  const compiled = args.filter ? compileFilter(args.filter, prelude, inferSemantics(prelude)) : undefined
  const selection = compiled
    ? { ...args.selection, match: (cols: ChunkColumns) => matchRecords(cols, compiled) }
    : args.selection
  const target = await openFile(outPath, 'w')
  let summary
  try {
    summary = await writeSubset(source, prelude, selection, fileSink(target), {
      keepSourceChunks: args.keepChunks || collated,
    })
  } finally {
    await target.close()
  }
  out.write(
    `wrote ${outPath}: ${String(summary.chunks)} chunks, ${String(summary.records)} records, ${String(summary.bytes)} bytes\n`,
  )
  return 0
}
