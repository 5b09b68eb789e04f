import { CONSUMERS } from '../consumers'
import type { ConsumerRange, Support } from '../consumers'
import { identifyProducer } from './producer'
import type { Container, ProducerGuess } from './producer'
import { inferSemantics } from './semantics'
import type { Semantics } from './semantics'
import { describeType, typeName } from './tags'
import { TYPE_ID } from '../types'
import type { Prelude, TagDesc } from '../types'

/**
 * "Will the next tool accept this file?" (docs/integrity.md): each consumer
 * version range of the table in consumers.ts against what this file needs.
 */
export type Verdict = 'reads' | 'fails' | 'unknown' | 'not-applicable'

export interface ConsumerVerdict {
  tool: ConsumerRange['tool']
  versions: string
  libradicl: string
  verdict: Verdict
  /** Why it fails, or why the tool does not take this kind of file. */
  reasons: string[]
  /** What the table does not know that this file needs. */
  unknowns: string[]
  sources: readonly string[]
}

export interface CompatibilityReport {
  producer: ProducerGuess
  consumers: ConsumerVerdict[]
}

/** What a consumer has to cope with in this file. */
interface FileNeeds {
  prelude: Prelude
  container: Container
  sem: Semantics
  sequenceTags: TagDesc[]
  atacBarcode: TagDesc | undefined
  refLengths: TagDesc | undefined
}

function needsOf(prelude: Prelude, container: Container): FileNeeds {
  const sem = inferSemantics(prelude)
  const fields = [...sem.barcodes, ...(sem.umi ? [sem.umi] : [])]
  const sequenceTags = fields.flatMap((f) => prelude.readTags[f.tag] ?? [])
  const atac = sem.assay === 'scATAC'
  return {
    prelude,
    container,
    sem,
    sequenceTags,
    atacBarcode: atac ? sequenceTags[0] : undefined,
    refLengths: atac ? prelude.fileTags.find((t) => t.name === 'ref_lengths') : undefined,
  }
}

/** Collects fails and unknowns of one consumer, one feature at a time. */
class Findings {
  readonly reasons: string[] = []
  readonly unknowns: string[] = []

  feature(support: Support, what: string): void {
    if (support === 'no') this.reasons.push(`${what}: not read by these versions`)
    if (support === 'unknown') this.unknowns.push(`${what}: whether these versions read it is unknown`)
  }
}

function checkContainer(row: ConsumerRange, f: FileNeeds, out: Findings): void {
  const { prelude } = f
  if (prelude.version[0] >= 2) {
    out.feature(row.v2Prelude, `RAD v${String(prelude.version[0])} prelude (RAD_FILE magic at byte 0)`)
  }
  if (prelude.codec === 'lz4') out.feature(row.lz4Chunks, 'lz4-compressed chunks (chunk_codec = 1)')
  if (prelude.codec === 'zstd') out.feature(row.zstdChunks, 'zstd-compressed chunks (chunk_codec = 2)')
  if (f.container === 'snappy-framed') out.feature(row.snappyStream, 'whole-file Snappy stream (.sz)')
}

function checkSequenceTypes(row: ConsumerRange, f: FileNeeds, out: Findings): void {
  if (f.sequenceTags.length === 0) return
  const accepted = row.sequenceTypeIds
  if (accepted === undefined) return // the type-id check below still covers ids 9–14
  for (const tag of f.sequenceTags) {
    if (!accepted.includes(tag.type.id)) {
      const allowed = accepted.map(typeName).join(', ')
      out.reasons.push(`read tag "${tag.name}" is ${describeType(tag.type)}; these versions take ${allowed} only`)
    }
  }
}

/** §3: ids 0–8 are the original spec; 9 (u128) and 10–14 (signed) came later. */
const FIRST_LATER_TYPE_ID = TYPE_ID.u128

function laterTypeTags(prelude: Prelude): TagDesc[] {
  const usesLater = (t: TagDesc) =>
    t.type.id >= FIRST_LATER_TYPE_ID ||
    (t.type.lengthType ?? 0) >= FIRST_LATER_TYPE_ID ||
    (t.type.elementType ?? 0) >= FIRST_LATER_TYPE_ID
  return [...prelude.fileTags, ...prelude.readTags, ...prelude.alnTags].filter(usesLater)
}

function checkLaterTypes(row: ConsumerRange, f: FileNeeds, out: Findings): void {
  // Barcode/UMI tags are judged by checkSequenceTypes where the row knows their types.
  const judged = row.sequenceTypeIds === undefined ? [] : f.sequenceTags
  const tags = laterTypeTags(f.prelude).filter((t) => !judged.includes(t))
  if (tags.length === 0) return
  const list = tags.map((t) => `"${t.name}" (${describeType(t.type)})`).join(', ')
  out.feature(row.laterTypeIds, `type ids 9–14, added after the original spec (§3): ${list}`)
}

function checkAtac(row: ConsumerRange, f: FileNeeds, out: Findings): void {
  if (f.sem.assay !== 'scATAC') return
  const lengths = f.refLengths
  if (row.atacRefLengths === 'u64' && lengths?.type.elementType !== TYPE_ID.u64) {
    const found = lengths ? describeType(lengths.type) : 'absent'
    out.reasons.push(`file tag "ref_lengths" is ${found}; these versions require an array of u64`)
  }
  if (row.atacRefLengths === 'unknown' && lengths) {
    out.unknowns.push(
      `ref_lengths as ${describeType(lengths.type)}: which element types these versions take is unknown`,
    )
  }
  const name = f.atacBarcode?.name
  if (row.atacBarcode === 'name "barcode"' && name !== undefined && name !== 'barcode') {
    out.reasons.push(`the barcode read tag is named "${name}"; these versions look for a tag named "barcode"`)
  }
  if (row.atacBarcode === 'unknown' && name !== undefined && name !== 'barcode') {
    out.unknowns.push(
      `barcode read tag "${name}": whether these versions find it by role or only by the name "barcode" is unknown`,
    )
  }
}

function assayFit(row: ConsumerRange, f: FileNeeds, out: Findings): boolean {
  if (row.tool === 'libradicl') return true
  const support = row.assays[f.sem.assay]
  if (support === 'no') {
    out.reasons.push(`${row.tool} does not process ${f.sem.assay} files`)
    return false
  }
  if (support !== 'yes') out.unknowns.push(`${f.sem.assay} files: whether these versions process them is unknown`)
  return true
}

function verdictFor(row: ConsumerRange, f: FileNeeds): ConsumerVerdict {
  const out = new Findings()
  const base = { tool: row.tool, versions: row.versions, libradicl: row.libradicl, sources: row.sources }
  if (!assayFit(row, f, out)) return { ...base, verdict: 'not-applicable', reasons: out.reasons, unknowns: [] }
  checkContainer(row, f, out)
  checkSequenceTypes(row, f, out)
  checkLaterTypes(row, f, out)
  checkAtac(row, f, out)
  const verdict: Verdict = out.reasons.length > 0 ? 'fails' : out.unknowns.length > 0 ? 'unknown' : 'reads'
  return { ...base, verdict, reasons: out.reasons, unknowns: out.unknowns }
}

/** The producer guess and every consumer range's verdict on this file. */
export function assessCompatibility(prelude: Prelude, container: Container): CompatibilityReport {
  const needs = needsOf(prelude, container)
  return {
    producer: identifyProducer(prelude, container),
    consumers: CONSUMERS.map((row) => verdictFor(row, needs)),
  }
}
