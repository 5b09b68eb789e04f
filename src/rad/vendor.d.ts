/** Minimal typings for the untyped decompression libraries the core uses. */
declare module 'lz4js' {
  /** Decodes a raw LZ4 block; returns the index after the last byte written. */
  export function decompressBlock(
    src: Uint8Array,
    dst: Uint8Array,
    sIndex: number,
    sLength: number,
    dIndex: number,
  ): number
  export function compressBlock(
    src: Uint8Array,
    dst: Uint8Array,
    sIndex: number,
    sLength: number,
    hashTable: Uint32Array,
  ): number
  export function compressBound(n: number): number
}

declare module 'snappyjs' {
  /** Decodes one raw Snappy block (not the framing format). */
  export function uncompress(compressed: Uint8Array, maxLength?: number): Uint8Array
  export function compress(uncompressed: Uint8Array): Uint8Array
}
