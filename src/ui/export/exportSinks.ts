/**
 * Where the page's export goes (docs/subsets.md, ADR 0006):
 * - a file the user picked with the File System Access API, written piece by
 *   piece as the export worker produces it (each write awaited: backpressure),
 *   so nothing proportional to the export is held;
 * - elsewhere, Blob parts collected up to BLOB_CAP_BYTES, then downloaded.
 */
import type { ByteSink } from '../../rad/subsetWriter'
import type { ExportFormat } from '../../session'

/** The most a Blob export collects: 1 GiB (Chromium keeps large blobs on disk, others may not). */
export const BLOB_CAP_BYTES = 1 << 30

/** The command line that writes the same export with no cap (docs/subsets.md). */
export function cliCommand(format: ExportFormat): string {
  if (format === 'rad') return 'node bin/rad.mjs subset IN OUT'
  if (format === 'parquet') return 'node bin/rad.mjs export IN OUT.parquet'
  return format === 'tsv' ? 'node bin/rad.mjs view FILE' : 'node bin/rad.mjs dump FILE'
}

/** Appended Blob parts, with the one rewrite the RAD subset makes (num_chunks) done by splitting a part. */
export class BlobSink implements ByteSink {
  private parts: Blob[] = []
  private size = 0
  private readonly cap: number
  private readonly format: ExportFormat

  constructor(format: ExportFormat, cap = BLOB_CAP_BYTES) {
    this.format = format
    this.cap = cap
  }

  write(bytes: Uint8Array): void {
    if (this.size + bytes.length > this.cap) {
      throw new Error(
        `the export is larger than ${capText(this.cap)}, the most this browser can collect before saving it ` +
          `(it cannot write a file as it goes). Use the command line: ${cliCommand(this.format)}`,
      )
    }
    this.parts.push(new Blob([bytes as Uint8Array<ArrayBuffer>]))
    this.size += bytes.length
  }

  patch(position: number, bytes: Uint8Array): void {
    let start = 0
    for (let i = 0; i < this.parts.length; i++) {
      const part = this.parts[i]
      if (!part) break
      if (position >= start && position + bytes.length <= start + part.size) {
        const at = position - start
        this.parts[i] = new Blob([part.slice(0, at), bytes as Uint8Array<ArrayBuffer>, part.slice(at + bytes.length)])
        return
      }
      start += part.size
    }
    throw new Error(`internal: a patch of ${String(bytes.length)} bytes at ${String(position)} spans two writes`)
  }

  blob(type: string): Blob {
    return new Blob(this.parts, { type })
  }
}

/** A cap in words: `1 GiB`. */
export function capText(cap: number): string {
  return cap >= 1 << 30 ? `${String(cap / (1 << 30))} GiB` : `${String(cap)} bytes`
}

/** What a FileSystemWritableFileStream offers that the export uses (the type is not in every lib.dom). */
export interface WritableFile {
  write(
    data:
      | Uint8Array<ArrayBuffer>
      | { type: 'write'; position: number; data: Uint8Array<ArrayBuffer> }
      | { type: 'seek'; position: number },
  ): Promise<void>
  close(): Promise<void>
  abort(reason?: unknown): Promise<void>
}

/** Writes to a picked file in order; the patch is a positioned write, then the cursor goes back to the end. */
export function writableSink(file: WritableFile): ByteSink {
  let end = 0
  return {
    async write(bytes) {
      await file.write(bytes as Uint8Array<ArrayBuffer>)
      end += bytes.length
    },
    async patch(position, bytes) {
      await file.write({ type: 'write', position, data: bytes as Uint8Array<ArrayBuffer> })
      await file.write({ type: 'seek', position: end })
    },
  }
}

interface SaveFilePicker {
  showSaveFilePicker?: (options: {
    suggestedName: string
    types?: { description: string; accept: Record<string, string[]> }[]
  }) => Promise<{ createWritable: () => Promise<WritableFile> }>
}

/** Whether this browser can write a file as it goes (File System Access API). */
export function canStreamToFile(): boolean {
  return typeof (window as SaveFilePicker).showSaveFilePicker === 'function'
}

const TYPES: Record<ExportFormat, { description: string; mime: string; ext: string }> = {
  rad: { description: 'RAD file', mime: 'application/octet-stream', ext: '.rad' },
  tsv: { description: 'Tab-separated values', mime: 'text/tab-separated-values', ext: '.tsv' },
  jsonl: { description: 'JSON Lines', mime: 'application/x-ndjson', ext: '.jsonl' },
  parquet: { description: 'Parquet', mime: 'application/vnd.apache.parquet', ext: '.parquet' },
}

export function exportMime(format: ExportFormat): string {
  return TYPES[format].mime
}

/** `map.rad` → `map.subset.rad` / `map.subset.tsv` / `map.subset.jsonl`. */
export function exportName(fileName: string, format: ExportFormat): string {
  const base = fileName.replace(/\.rad(\.sz)?$/i, '').replace(/\.sz$/i, '') || 'file'
  return `${base}.subset${TYPES[format].ext}`
}

/**
 * Asks where to save (must run in the click's user activation): a writable
 * file, or undefined when the user closed the picker. Throws where there is no picker.
 */
export async function pickFile(fileName: string, format: ExportFormat): Promise<WritableFile | undefined> {
  const pick = (window as SaveFilePicker).showSaveFilePicker
  if (!pick) throw new Error('internal: no showSaveFilePicker')
  const t = TYPES[format]
  try {
    const handle = await pick({
      suggestedName: exportName(fileName, format),
      types: [{ description: t.description, accept: { [t.mime]: [t.ext] } }],
    })
    return await handle.createWritable()
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') return undefined
    throw e
  }
}
