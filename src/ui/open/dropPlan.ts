/**
 * What to do with a drop of several files or a folder: which RAD files to offer, which
 * one to open, and which sidecar JSON files salmon/piscem/alevin-fry wrote beside them
 * (docs/format.md §8). DOM-free, so it is unit-tested; dropEntries.ts reads the drop itself.
 */

import { parseMapInfo } from '../../rad/report/mapInfo'
import type { MapInfo } from '../../rad/report/mapInfo'
import { MAX_ANNOTATION_BYTES } from '../../rad/cells/lineBlocks'

export interface DroppedFile {
  /** Path inside the dropped folder (`aux_info/meta_info.json`), or the file name. */
  path: string
  file: File
}

export interface Sidecar {
  path: string
  text: string
}

export interface DropPlan {
  kind: 'folder' | 'files'
  /** The folder's name, or "N files". */
  name: string
  /** RAD files to offer (for several files: every file dropped). */
  candidates: DroppedFile[]
  /** Opened right away: the only RAD file of a folder or of several files; none for a study. */
  open: DroppedFile | undefined
  /** Two RAD files or more: a study, compared side by side (docs/study.md); else empty. */
  study: DroppedFile[]
  /** JSON files to read and show (§8: map_info.json, aux_info/*.json, collate.json, …). */
  sidecarFiles: DroppedFile[]
  /** Other files a mapping run writes (runFileRole), said for what they are. */
  runFiles: DroppedFile[]
  /** `.rdx` sidecar indexes dropped with the RAD files (docs/sidecar.md), used by sidecarIndexFor. */
  indexes: DroppedFile[]
  /**
   * Files that may be a t2g, gene names or a permit list (docs/cells.md): every small file that is
   * not RAD-named, JSON or `.rdx`, and not the one opened. The cells worker sorts them by content.
   */
  annotations: File[]
  /** Files set aside, each with why (an annotation file past ANNOTATION_MAX_BYTES): said, never dropped silently. */
  skipped: { path: string; why: string }[]
}

const RAD_NAME = /\.rad(\.sz)?$/i
const JSON_NAME = /\.json$/i
const INDEX_NAME = /\.rdx$/i
/**
 * What salmon, piscem and alevin-fry write beside map.rad (docs/format.md §8), by name: said in
 * the drop's note, and never taken for a RAD file or an annotation file.
 */
const RUN_FILES: readonly (readonly [RegExp, string])[] = [
  [/(^|\/)map_info\.json$/i, 'piscem’s run statistics (reads processed and mapped: the summary’s mapping rate)'],
  [/(^|\/)meta_info\.json$/i, 'salmon’s run statistics (reads processed and mapped: the summary’s mapping rate)'],
  [/(^|\/)cmd_info\.json$/i, 'the mapper’s command line'],
  [
    /(^|\/)unmapped_bc_count(_v2)?\.bin$/i,
    'the barcodes of reads that did not map, with their counts (for alevin-fry generate-permit-list)',
  ],
  [/(^|\/)(collate|generate_permit_list|quant)\.json$/i, 'an alevin-fry step’s report'],
  [/(^|\/)(all_freq|permit_freq|permit_map)\.bin$/i, 'alevin-fry generate-permit-list’s barcode counts (binary)'],
]

/** What a file of a mapping run is, by its name; undefined for any other file. */
export function runFileRole(path: string): string | undefined {
  return RUN_FILES.find(([name]) => name.test(path))?.[1]
}

/** The mapping rate of the run statistics dropped (map_info.json, else meta_info.json); undefined when none says it. */
export function mapInfoOf(sidecars: readonly Sidecar[]): MapInfo | undefined {
  const named = (re: RegExp): Sidecar | undefined => sidecars.find((s) => re.test(s.path))
  for (const s of [named(/(^|\/)map_info\.json$/i), named(/(^|\/)meta_info\.json$/i)]) {
    if (!s) continue
    try {
      return parseMapInfo(s.text, s.path)
    } catch {
      // Not every meta_info.json says how many reads mapped: the next one, or none.
    }
  }
  return undefined
}

/** Sidecars are small run reports; anything larger is not one of them (and would not be read whole). */
export const SIDECAR_MAX_BYTES = 1_000_000
/**
 * Annotation files are read as a stream, but none unpacks past MAX_ANNOTATION_BYTES (docs/cells.md,
 * "Bounds"): a larger file, packed, cannot be one (a FASTQ dropped with its folder).
 */
export const ANNOTATION_MAX_BYTES = MAX_ANNOTATION_BYTES

export function looksLikeRad(path: string): boolean {
  return RAD_NAME.test(path)
}

/** Neither a JSON sidecar nor a `.rdx` index: a file to offer for opening. */
function isOpenable(path: string): boolean {
  return !JSON_NAME.test(path) && !INDEX_NAME.test(path) && runFileRole(path) === undefined
}

function runFiles(files: readonly DroppedFile[]): DroppedFile[] {
  return files.filter((f) => !JSON_NAME.test(f.path) && runFileRole(f.path) !== undefined)
}

function indexes(files: readonly DroppedFile[]): DroppedFile[] {
  return files.filter((f) => INDEX_NAME.test(f.path))
}

/**
 * The `.rdx` index to open `path` with: the one named after it (`map.rad.rdx`), else the only
 * one dropped. A sidecar of another file is harmless: the index worker checks its fingerprint.
 */
export function sidecarIndexFor(plan: DropPlan, path: string): DroppedFile | undefined {
  const named = plan.indexes.find((f) => f.path.toLowerCase() === `${path}.rdx`.toLowerCase())
  return named ?? (plan.indexes.length === 1 ? plan.indexes[0] : undefined)
}

function maybeAnnotation(f: DroppedFile, open: DroppedFile | undefined): boolean {
  return f !== open && isOpenable(f.path) && !looksLikeRad(f.path)
}

function annotations(files: readonly DroppedFile[], open: DroppedFile | undefined): File[] {
  return files.filter((f) => maybeAnnotation(f, open) && f.file.size <= ANNOTATION_MAX_BYTES).map((f) => f.file)
}

/** Files that could be annotations but are too large to read whole in the page: named, with the way round. */
function skipped(files: readonly DroppedFile[], open: DroppedFile | undefined): DropPlan['skipped'] {
  return files
    .filter((f) => maybeAnnotation(f, open) && f.file.size > ANNOTATION_MAX_BYTES)
    .map((f) => ({
      path: f.path,
      why: `not read as a t2g, gene names or permit list: over ${String(ANNOTATION_MAX_BYTES / 2 ** 30)} GiB, more than any annotation file unpacks to (docs/cells.md, "Bounds")`,
    }))
}

function sidecars(files: readonly DroppedFile[]): DroppedFile[] {
  return files.filter((f) => JSON_NAME.test(f.path) && f.file.size <= SIDECAR_MAX_BYTES)
}

/** A dropped folder: offer its RAD files, open the only one (a study of several), read its JSON sidecars. */
export function planFolder(name: string, files: readonly DroppedFile[]): DropPlan {
  const rad = files.filter((f) => looksLikeRad(f.path))
  const open = rad.length === 1 ? rad[0] : undefined
  return {
    kind: 'folder',
    name,
    candidates: rad,
    open,
    study: rad.length > 1 ? rad : [],
    sidecarFiles: sidecars(files),
    runFiles: runFiles(files),
    indexes: indexes(files),
    annotations: annotations(files, open),
    skipped: skipped(files, open),
  }
}

/**
 * Several dropped files: two RAD-named files or more are a study (none opened); else open the
 * RAD-named one, else the largest (annotation files dropped beside a RAD file are small beside
 * it); offer them all.
 */
export function planFiles(files: readonly DroppedFile[]): DropPlan {
  const rad = files.filter((f) => looksLikeRad(f.path))
  const single = rad[0] ?? largest(files.filter((f) => isOpenable(f.path))) ?? files[0]
  const open = rad.length > 1 ? undefined : single
  return {
    kind: 'files',
    name: `${String(files.length)} files`,
    candidates: files.filter((f) => isOpenable(f.path)),
    open,
    study: rad.length > 1 ? rad : [],
    sidecarFiles: sidecars(files),
    runFiles: runFiles(files),
    indexes: indexes(files),
    annotations: annotations(files, open),
    skipped: skipped(files, open),
  }
}

function largest(files: readonly DroppedFile[]): DroppedFile | undefined {
  return files.reduce<DroppedFile | undefined>((big, f) => (big && big.file.size >= f.file.size ? big : f), undefined)
}
