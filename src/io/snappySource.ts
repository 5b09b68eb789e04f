import { lastAtMost } from '../rad/chunkIndex'
import { RadError, fmtInt } from '../rad/errors'
import {
  SNAPPY_FRAME_HEADER,
  decodeFrame,
  frameChecksum,
  frameDataLength,
  frameHasData,
  readFrameHeader,
} from '../rad/decode/snappy'
import type { FrameChecksum } from '../rad/decode/snappy'
import type { ByteSource, SourceDamage } from './byteSource'
import { throwIfAborted } from './byteSource'

const WINDOW = 8 << 20

/** Where each data frame is (SnappyFramedSource): walked once, handed to the decode workers (16 bytes a frame). */
export interface SnappyFrameTable {
  /** Absolute offset of each data frame's header in the file. */
  frameOffset: Float64Array
  /** Uncompressed offset of each data frame's first byte, plus the total at the end. */
  dataOffset: Float64Array
}

/**
 * Presents a Snappy-framed stream (`map.collated.rad.sz`, docs/format.md §6.1)
 * as the plain RAD bytes it holds, with random access: `open` walks the frame
 * headers once (16 bytes of index per ≤64 KiB frame) and `read` decodes only
 * the frames a read touches, checking each one's CRC-32C as it does: a frame
 * that fails is still read (its data may be right and its CRC field damaged)
 * and listed by `damage`, so a walk that reads every byte reports every one.
 */
export class SnappyFramedSource implements ByteSource {
  /** Every read decodes into new memory (or into the caller's, readInto). */
  readonly ownedReads = true
  private cache: { frame: number; data: Uint8Array } | undefined
  /** Frames whose checksum failed, by frame number. */
  private readonly failed = new Map<number, SourceDamage>()

  private readonly inner: ByteSource
  /** Absolute offset of each data frame's header in the inner source. */
  private readonly frameOffset: Float64Array
  /** Uncompressed offset of each data frame's first byte, plus the total at the end. */
  private readonly dataOffset: Float64Array

  private constructor(inner: ByteSource, frameOffset: Float64Array, dataOffset: Float64Array) {
    this.inner = inner
    this.frameOffset = frameOffset
    this.dataOffset = dataOffset
  }

  get size(): number {
    return this.dataOffset[this.dataOffset.length - 1] ?? 0
  }

  get name(): string {
    return this.inner.name
  }

  static async open(inner: ByteSource, signal?: AbortSignal): Promise<SnappyFramedSource> {
    const frames: number[] = []
    const starts: number[] = [0]
    let pos = 0
    let total = 0
    while (pos < inner.size) {
      const window = await inner.read(pos, WINDOW, signal)
      throwIfAborted(signal)
      const view = new DataView(window.buffer, window.byteOffset, window.byteLength)
      let at = 0
      while (at + SNAPPY_FRAME_HEADER <= window.length) {
        const frame = readFrameHeader(view, at, pos + at)
        const peekEnd = at + SNAPPY_FRAME_HEADER + Math.min(frame.length, 9)
        if (peekEnd > window.length && pos + window.length < inner.size) break
        const bodyEnd = at + SNAPPY_FRAME_HEADER + frame.length
        if (pos + bodyEnd > inner.size) {
          throw new RadError(
            'TRUNCATED',
            `Snappy stream: the frame at byte ${fmtInt(frame.offset)} needs ${fmtInt(frame.length)} bytes but the file ends first`,
            frame.offset,
          )
        }
        if (frameHasData(frame)) {
          const body = window.subarray(at + SNAPPY_FRAME_HEADER, peekEnd)
          total += frameDataLength(frame, body)
          frames.push(frame.offset)
          starts.push(total)
        }
        at = bodyEnd
      }
      if (at === 0) {
        throw new RadError(
          'TRUNCATED',
          `Snappy stream: the file ends inside a frame header at byte ${fmtInt(pos)}`,
          pos,
        )
      }
      pos += at
    }
    return new SnappyFramedSource(inner, Float64Array.from(frames), Float64Array.from(starts))
  }

  /** The frame table `open` walked, for another reader of the same file (fromTable). */
  frameTable(): SnappyFrameTable {
    return { frameOffset: this.frameOffset, dataOffset: this.dataOffset }
  }

  /** A reader of the same file from a table another reader walked: no walk of the file. */
  static fromTable(inner: ByteSource, table: SnappyFrameTable): SnappyFramedSource {
    return new SnappyFramedSource(inner, table.frameOffset, table.dataOffset)
  }

  private frameFor(offset: number): number {
    return lastAtMost(this.frameOffset.length, (i) => this.dataOffset[i] ?? 0, offset)
  }

  private async frameData(i: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (this.cache?.frame === i) return this.cache.data
    const at = this.frameOffset[i] ?? 0
    const head = await this.inner.read(at, SNAPPY_FRAME_HEADER, signal)
    const frame = readFrameHeader(new DataView(head.buffer, head.byteOffset, head.byteLength), 0, at)
    const body = await this.inner.read(at + SNAPPY_FRAME_HEADER, frame.length, signal)
    const data = decodeFrame(frame, body)
    const expected = (this.dataOffset[i + 1] ?? 0) - (this.dataOffset[i] ?? 0)
    if (data.length !== expected) {
      throw new RadError(
        'BAD_SNAPPY',
        `Snappy stream: frame at byte ${fmtInt(at)} decoded to ${fmtInt(data.length)} bytes, expected ${fmtInt(expected)}`,
        at,
      )
    }
    const sum = frameChecksum(body, data)
    if (sum.stored !== sum.computed && !this.failed.has(i)) this.failed.set(i, this.checksumDamage(i, sum))
    this.cache = { frame: i, data }
    return data
  }

  private checksumDamage(i: number, sum: FrameChecksum): SourceDamage {
    const at = this.frameOffset[i] ?? 0
    const start = this.dataOffset[i] ?? 0
    const end = this.dataOffset[i + 1] ?? 0
    const hex = (n: number): string => `0x${n.toString(16).padStart(8, '0')}`
    return {
      start,
      end,
      issue: {
        kind: 'checksum-mismatch',
        severity: 'error',
        offset: start,
        containerOffset: at,
        message:
          `the Snappy frame at byte ${fmtInt(at)} of the .sz file (bytes ${fmtInt(start)}–${fmtInt(end)} of the unwrapped stream) ` +
          `fails its checksum: it stores CRC-32C ${hex(sum.stored)}, its data gives ${hex(sum.computed)}; the ${fmtInt(end - start)} bytes it holds may be wrong`,
      },
    }
  }

  damage(): SourceDamage[] {
    return [...this.failed.values()].sort((a, b) => a.start - b.start)
  }

  read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    const end = Math.min(this.size, offset + length)
    if (end <= offset) return Promise.resolve(new Uint8Array(0))
    return this.readTo(new Uint8Array(end - offset), offset, signal)
  }

  /** The frames' data written straight into `into` (undefined when it is too small). */
  readInto(offset: number, length: number, into: ArrayBuffer, signal?: AbortSignal): Promise<Uint8Array | undefined> {
    const end = Math.min(this.size, offset + length)
    if (end - offset > into.byteLength) return Promise.resolve(undefined)
    if (end <= offset) return Promise.resolve(new Uint8Array(into, 0, 0))
    return this.readTo(new Uint8Array(into, 0, end - offset), offset, signal)
  }

  private async readTo(out: Uint8Array, offset: number, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const end = offset + out.length
    let pos = offset
    for (let i = this.frameFor(offset); pos < end; i++) {
      const data = await this.frameData(i, signal)
      const start = this.dataOffset[i] ?? 0
      const piece = data.subarray(pos - start, Math.min(data.length, end - start))
      out.set(piece, pos - offset)
      pos += piece.length
      if (piece.length === 0) break
    }
    return out
  }
}
