/**
 * `rad cat A.rad B.rad … OUT` (docs/subsets.md, "Joining files"): one RAD file
 * holding every chunk of A, then of B, … in order, under A's prelude.
 *
 * - The inputs must be joinable (rad/prelude/joinable.ts: the same version,
 *   references, tag descriptions and file-tag values); the first difference
 *   is refused in one line before anything is opened for writing.
 * - Every chunk is read and checked on the way (as `validate` does); a
 *   damaged input (a chunk that does not decode, a file cut short, a .sz
 *   frame failing its checksum) is refused in one line naming the file and
 *   the byte, and OUT is left as it was (safeOutput.ts: the temporary file
 *   is removed).
 * - The prelude is A's (subsetHead: byte for byte, `chunk_codec` set to 0)
 *   with `num_chunks` patched to the chunks written, counted as they are read
 *   (an input whose num_chunks is 0, "unknown", is read to its end, §1.4).
 * - Plain chunks with header-inclusive `nbytes` are copied byte for byte;
 *   compressed chunks (lz4/zstd, §6) are written decompressed, and
 *   payload-only `nbytes` (§4.2) is rewritten header-inclusive, so the
 *   output is one uncompressed, header-inclusive file. A `.sz` input is read
 *   through its Snappy framing (§6.1).
 */
import type { ByteSource } from '../io/byteSource'
import { openRad } from '../io/openRad'
import { scanChunks } from '../io/scanChunks'
import { makeCheckPlan } from '../rad/checks/valueChecks'
import type { IntegrityIssue } from '../rad/checks/integrity'
import { CHUNK_HEADER_BYTES, chunkSpan, u32le } from '../rad/decode/chunk'
import { chunkPayload } from '../rad/decode/decodeChunk'
import { RadError, plural } from '../rad/errors'
import { differenceText, joinDifference } from '../rad/prelude/joinable'
import { numChunksBytes } from '../rad/prelude/prelude'
import { inferSemantics } from '../rad/prelude/semantics'
import type { ByteSink } from '../rad/subsetWriter'
import { subsetHead } from '../rad/subsetWriter'
import type { NbytesConvention, Prelude } from '../rad/types'
import { NodeFileSource } from './nodeFileSource'
import { reportLine } from './output'
import type { Output } from './output'
import { RefusedOutput, writeOutput } from './safeOutput'

/** One input, opened: `name` as the user gave it, for messages. */
export interface OpenedInput {
  name: string
  file: NodeFileSource
  source: ByteSource
  prelude: Prelude
}

/**
 * Opens every input and reads its prelude; a file whose prelude cannot be
 * read is refused in one line naming it. The caller closes what was opened
 * (`closeInputs`), whatever happened.
 */
export async function openInputs(paths: readonly string[], opened: OpenedInput[]): Promise<void> {
  for (const name of paths) {
    const file = await NodeFileSource.open(name)
    try {
      const { source, prelude } = await openRad(file)
      opened.push({ name, file, source, prelude })
    } catch (e) {
      await file.close()
      if (e instanceof RadError) throw new RefusedOutput(`${name}: ${reportLine('error', e)}`)
      throw e
    }
  }
}

export async function closeInputs(opened: readonly OpenedInput[]): Promise<void> {
  for (const input of opened) await input.file.close()
}

/** The one line refusing the first input that cannot be joined to the first, if any. */
export function joinRefusal(inputs: readonly OpenedInput[]): string | undefined {
  const [first, ...rest] = inputs
  if (!first) return undefined
  for (const input of inputs) {
    if (input.prelude.codec === 'unknown') {
      return `${input.name} cannot be joined: its chunks use a codec this reader does not know (chunk_codec, §6), so they cannot be decoded`
    }
  }
  for (const input of rest) {
    const d = joinDifference(first.prelude, input.prelude)
    if (d) return `${input.name} cannot be joined to ${first.name}: ${differenceText(d, first.name, input.name)}`
  }
  return undefined
}

/** `[nbytes = 8 + records][nrec]` (§4.1). */
function chunkHeader(recordBytes: number, nrec: number): Uint8Array {
  const header = new Uint8Array(CHUNK_HEADER_BYTES)
  const view = new DataView(header.buffer)
  view.setUint32(0, CHUNK_HEADER_BYTES + recordBytes, true)
  view.setUint32(4, nrec, true)
  return header
}

interface Copied {
  chunks: number
  records: number
  bytes: number
  /** The input's warnings (trailing bytes, …), said once OUT is written. */
  warnings: IntegrityIssue[]
}

/**
 * Writes every chunk of one input to `sink`, checking each on the way; throws
 * RefusedOutput at the input's first error (OUT is then not written).
 */
async function copyChunks(input: OpenedInput, sink: ByteSink): Promise<Copied> {
  const { source, prelude } = input
  const copied: Copied = { chunks: 0, records: 0, bytes: 0, warnings: [] }
  const write = async (bytes: Uint8Array, offset: number, k: number, convention: NbytesConvention) => {
    const nrec = u32le(bytes, 4)
    if (prelude.codec === 'none' && convention === 'header-inclusive') {
      const chunk = bytes.subarray(0, chunkSpan(u32le(bytes, 0), convention))
      await sink.write(chunk)
      copied.bytes += chunk.length
    } else {
      const payload = chunkPayload(bytes, offset, k, prelude.codec, convention).bytes
      await sink.write(chunkHeader(payload.length, nrec))
      await sink.write(payload)
      copied.bytes += CHUNK_HEADER_BYTES + payload.length
    }
    copied.chunks++
    copied.records += nrec
    return false
  }
  const scan = await scanChunks(source, prelude, {
    check: makeCheckPlan(prelude, inferSemantics(prelude)),
    onChunk: write,
  })
  const error = scan.issues.find((i) => i.severity === 'error')
  if (error) {
    throw new RefusedOutput(
      `${input.name} cannot be joined: it is damaged: ${reportLine('error', { ...error, offset: error.offset ?? 0 })}`,
    )
  }
  copied.warnings = scan.issues.filter((i) => i.severity === 'warning')
  return copied
}

/** Exit 0 once OUT holds every input's chunks; refusals are thrown (one line, exit 1, OUT as it was). */
export async function runCat(paths: readonly string[], outPath: string, out: Output): Promise<number> {
  const inputs: OpenedInput[] = []
  try {
    await openInputs(paths, inputs)
    const refusal = joinRefusal(inputs)
    if (refusal !== undefined) throw new RefusedOutput(refusal)
    const first = inputs[0]
    if (!first) throw new Error('internal: cat needs inputs')
    const total = { chunks: 0, records: 0, bytes: 0 }
    const warnings: string[] = []
    await writeOutput(
      outPath,
      async (sink) => {
        const head = subsetHead(first.prelude, await first.source.read(0, first.prelude.firstChunkOffset))
        await sink.write(head)
        total.bytes += head.length
        for (const input of inputs) {
          const copied = await copyChunks(input, sink)
          total.chunks += copied.chunks
          total.records += copied.records
          total.bytes += copied.bytes
          for (const w of copied.warnings) warnings.push(`${input.name}: ${reportLine('warning', w)}`)
        }
        await sink.patch(first.prelude.numChunksOffset, numChunksBytes(total.chunks))
      },
      { patches: true },
    )
    for (const w of warnings) process.stderr.write(`${w}\n`)
    out.write(
      `wrote ${outPath}: ${plural(total.chunks, 'chunk')}, ${plural(total.records, 'record')}, ${plural(total.bytes, 'byte')} ` +
        `(${plural(inputs.length, 'file')} joined)\n`,
    )
    return 0
  } finally {
    await closeInputs(inputs)
  }
}
