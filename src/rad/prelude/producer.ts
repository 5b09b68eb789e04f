import { fileTagValue } from './prelude'
import { describeType } from './tags'
import { TYPE_ID } from '../types'
import type { Prelude, TagDesc } from '../types'

/**
 * Which program wrote a RAD file, guessed from what each producer is known to
 * write (docs/format.md §6, §6.1 and §7). The prelude alone carries no producer
 * name, so this is always a guess with its evidence, never a fact.
 */
export type ProducerName = 'salmon' | 'piscem-cpp' | 'piscem-rs' | 'alevin-fry collate' | 'unknown'

/** How sure the guess is: `strong` = a mark only that producer leaves; `weak` = consistent, not unique. */
export type Certainty = 'strong' | 'weak' | 'none'

export interface ProducerGuess {
  name: ProducerName
  certainty: Certainty
  /** Why: one sentence per observation, each citing the format section it comes from. */
  evidence: string[]
  /** Other writers known to leave the same marks. */
  alsoPossible: string[]
}

/** Whether the bytes came wrapped in a whole-file Snappy stream (§6.1). */
export type Container = 'none' | 'snappy-framed'

function names(tags: readonly TagDesc[]): string[] {
  return tags.map((t) => t.name)
}

function sameNames(tags: readonly TagDesc[], want: readonly string[]): boolean {
  const got = names(tags)
  return got.length === want.length && got.every((n, i) => n === want[i])
}

function hasRoles(prelude: Prelude): boolean {
  return [...prelude.readTags, ...prelude.alnTags].some((t) => t.role.kind !== 'none')
}

function tagType(prelude: Prelude, name: string): string | undefined {
  const tag = prelude.fileTags.find((t) => t.name === name)
  return tag ? describeType(tag.type) : undefined
}

function guess(
  name: ProducerName,
  certainty: Certainty,
  evidence: string[],
  alsoPossible: string[] = [],
): ProducerGuess {
  return { name, certainty, evidence, alsoPossible }
}

/** §6.1 and §6: only alevin-fry's collation writes a Snappy stream or a `chunk_codec` tag. */
function collateMarks(prelude: Prelude, container: Container): string[] {
  const marks: string[] = []
  if (container === 'snappy-framed') {
    marks.push('the whole file is a Snappy stream, as "alevin-fry collate --compress" writes its .sz output (§6.1)')
  }
  if (prelude.fileTags.some((t) => t.name === 'chunk_codec')) {
    marks.push(
      `a chunk_codec file tag (${prelude.codec}): per-chunk compression is written by libradicl's collation, never by the mappers (§6)`,
    )
  }
  return marks
}

/** §1.2 and §7.2–7.5: piscem-rs is the one known writer of RAD v2 (magic, roles on every tag). */
function fromV2(prelude: Prelude): ProducerGuess {
  const [major, minor] = prelude.version
  const evidence = [`RAD v${String(major)}.${String(minor)}: the file starts with the RAD_FILE magic (§1.1)`]
  if (prelude.extLen > 0) {
    evidence.push(
      `a ${String(prelude.extLen)}-byte extension block: every v2 writer we know writes ext_len 0 (§1.2), so a newer or unknown tool wrote this`,
    )
    return guess('unknown', 'none', evidence, ['piscem-rs (a newer release)'])
  }
  const known = fileTagValue(prelude, 'known_rad_type')
  if (typeof known === 'string') evidence.push(`known_rad_type = "${known}", a piscem label (§7.2–7.5)`)
  if (hasRoles(prelude)) evidence.push('v2 roles on the read and alignment tags, as piscem-rs writes them (§2.3, §7)')
  const piscemShaped = typeof known === 'string' && hasRoles(prelude)
  // salmon ≥ 2.8.0 reads v2 but still writes legacy files (its release notes).
  return guess(
    'piscem-rs',
    piscemShaped ? 'strong' : 'weak',
    evidence,
    piscemShaped ? [] : ['another libradicl-based writer'],
  )
}

/** §7.5: legacy scATAC — piscem-cpp writes `barcode` + u64 lengths; piscem-rs before v2 `b` + u32. */
function fromLegacyAtac(prelude: Prelude, evidence: string[]): ProducerGuess | undefined {
  const readNames = names(prelude.readTags)
  const lengths = tagType(prelude, 'ref_lengths')
  if (readNames.includes('barcode') && lengths === 'array<u32,u64>') {
    evidence.push('scATAC read tag "barcode" and ref_lengths as an array of u64, as piscem-cpp writes (§7.5)')
    return guess('piscem-cpp', 'strong', evidence)
  }
  if (readNames.includes('b') && lengths === 'array<u32,u32>' && prelude.alnTags.some((t) => t.name === 'start_pos')) {
    evidence.push(
      'scATAC read tag "b" and ref_lengths as an array of u32: the Rust writer (piscem-rs) before it moved to v2 (§7.5; piscem-rs src/verify/rad_compare.rs, "C++ (v_u64 ref_lengths) and Rust (array_u32 ref_lengths)")',
    )
    return guess('piscem-rs', 'weak', evidence)
  }
  return undefined
}

/** §7.1: salmon stores a barcode/UMI as u32 (≤ 16 nt), u64 (17–32 nt) or text (longer). */
const SALMON_SEQUENCE_TYPES = new Set<number>([TYPE_ID.u32, TYPE_ID.u64, TYPE_ID.string])

/** §7.1: salmon's scRNA layout, shared with `alevin-fry convert` (BAM → RAD). */
function isSalmonLayout(prelude: Prelude): boolean {
  return (
    // collation adds `chunk_codec` to the mapper's file tags (§6)
    sameNames(
      prelude.fileTags.filter((t) => t.name !== 'chunk_codec'),
      ['cblen', 'ulen'],
    ) &&
    sameNames(prelude.readTags, ['b', 'u']) &&
    prelude.readTags.every((t) => SALMON_SEQUENCE_TYPES.has(t.type.id)) &&
    sameNames(prelude.alnTags, ['compressed_ori_refid'])
  )
}

function fromLegacy(prelude: Prelude): ProducerGuess {
  const evidence = ['legacy prelude: no RAD_FILE magic, no roles (§1.1)']
  const known = fileTagValue(prelude, 'known_rad_type')
  if (typeof known === 'string') {
    evidence.push(`known_rad_type = "${known}": piscem labels its files, salmon never does (§7.1–7.5)`)
    const atac = fromLegacyAtac(prelude, evidence)
    if (atac) return atac
    // piscem-rs reproduced piscem-cpp's legacy records exactly before it moved to v2.
    return guess('piscem-cpp', 'weak', evidence, ['piscem-rs before RAD v2'])
  }
  const atac = fromLegacyAtac(prelude, evidence)
  if (atac) return atac
  if (isSalmonLayout(prelude)) {
    evidence.push(
      'exactly the file tags cblen, ulen; read tags b, u; one alignment tag compressed_ori_refid, as "salmon alevin --rad" or "--sketch" writes (§7.1)',
    )
    return guess('salmon', 'weak', evidence, ['alevin-fry convert (BAM → RAD) writes the same layout (§7.2)'])
  }
  evidence.push('the tag layout matches no producer in the format reference (§7)')
  return guess('unknown', 'none', evidence)
}

/** §1.4, §4.3: an uncompressed collated file keeps the mapper's header; only its chunk grouping differs. */
const UNCOMPRESSED_COLLATE = "alevin-fry collate without compression (it copies the mapper's header)"

/** Guesses the producer from the prelude (tags, known_rad_type, v2 roles, extension block) and the container. */
export function identifyProducer(prelude: Prelude, container: Container): ProducerGuess {
  const collate = collateMarks(prelude, container)
  const mapper = prelude.version[0] >= 2 ? fromV2(prelude) : fromLegacy(prelude)
  if (collate.length === 0) {
    if (mapper.name === 'unknown') return mapper
    return { ...mapper, alsoPossible: [...mapper.alsoPossible, UNCOMPRESSED_COLLATE] }
  }
  // Collation copies the mapper's header, so the mapper's marks stay visible underneath.
  const underneath = mapper.name === 'unknown' ? 'an unknown mapper' : mapper.name
  return guess('alevin-fry collate', 'strong', [
    ...collate,
    `collated from a file written by ${underneath}:`,
    ...mapper.evidence,
  ])
}
