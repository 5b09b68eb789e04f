/** Snappy framing format stream identifier: chunk 0xff, length 6, "sNaPpY". */
export const SNAPPY_STREAM_ID = Uint8Array.of(0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59)

function startsWith(bytes: Uint8Array, prefix: ArrayLike<number>): boolean {
  if (bytes.length < prefix.length) return false
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false
  return true
}

export function isSnappyFramed(head: Uint8Array): boolean {
  return startsWith(head, SNAPPY_STREAM_ID)
}

function ascii(text: string): number[] {
  return Array.from(text, (c) => c.charCodeAt(0))
}

function looksLikeText(head: Uint8Array): boolean {
  if (head.length === 0) return false
  for (const b of head) {
    const printable = (b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d
    if (!printable) return false
  }
  return true
}

/**
 * Names a well-known non-RAD format from a file's first bytes, with the hint a
 * user needs, or undefined. Used when the bytes are not a RAD prelude.
 */
export function sniffForeignFormat(head: Uint8Array): string | undefined {
  if (startsWith(head, [0x1f, 0x8b])) {
    return 'not a RAD file: this is a gzip stream (a .gz file, or a BAM file, which is BGZF-compressed). Decompress it first; a BAM file can be turned into RAD with `alevin-fry convert`'
  }
  if (startsWith(head, [0x28, 0xb5, 0x2f, 0xfd])) {
    return 'not a RAD file: this is a zstd-compressed stream. Decompress it first (zstd -d)'
  }
  if (isSnappyFramed(head)) {
    return 'this is a Snappy-framed stream (like map.collated.rad.sz from `alevin-fry collate --compress`), but it could not be unwrapped'
  }
  if (startsWith(head, ascii('BAM\x01'))) {
    return 'not a RAD file: this is an uncompressed BAM file; convert it with `alevin-fry convert`'
  }
  if (startsWith(head, ascii('CRAM'))) return 'not a RAD file: this is a CRAM file'
  if (startsWith(head, [0x42, 0x5a, 0x68])) return 'not a RAD file: this is a bzip2 stream'
  if (startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a])) return 'not a RAD file: this is an xz stream'
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'not a RAD file: this is a zip archive'
  if (startsWith(head, ascii('@HD')) || startsWith(head, ascii('@SQ'))) {
    return 'not a RAD file: this is a SAM text file; convert it to BAM and then to RAD with `alevin-fry convert`'
  }
  if (looksLikeText(head)) {
    const first = String.fromCharCode(head[0] ?? 0)
    if (first === '@') return 'not a RAD file: this looks like a FASTQ (or SAM) text file'
    if (first === '>') return 'not a RAD file: this looks like a FASTA text file'
    if (first === '{' || first === '[') return 'not a RAD file: this looks like a JSON text file'
    return 'not a RAD file: this is a plain text file (RAD is binary)'
  }
  return undefined
}
