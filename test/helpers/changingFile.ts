/**
 * A file on disk as a browser's File sees it, changed after it was opened:
 * its size stays the snapshot's, and once it changed its reads either fail
 * (Chromium: NotReadableError, READ_FAILED) or, with `failReads: false`,
 * return the new bytes (a reader that does not notice, as Node's would).
 */
import type { ByteSource } from '../../src/io/byteSource'
import { RadError } from '../../src/rad/errors'

export class ChangingFile implements ByteSource {
  readonly name = 'changing.rad'
  readonly size: number
  private bytes: Uint8Array
  private readonly failReads: boolean
  private changed = false

  constructor(bytes: Uint8Array, opts: { failReads: boolean }) {
    this.bytes = bytes.slice()
    this.size = bytes.length
    this.failReads = opts.failReads
  }

  /** Writes `data` at `offset`, in place. */
  overwrite(offset: number, data: Uint8Array): void {
    this.bytes.set(data, offset)
    this.changed = true
  }

  truncate(length: number): void {
    this.bytes = this.bytes.slice(0, length)
    this.changed = true
  }

  delete(): void {
    this.bytes = new Uint8Array(0)
    this.changed = true
  }

  read(offset: number, length: number): Promise<Uint8Array> {
    if (this.changed && this.failReads) {
      return Promise.reject(
        new RadError('READ_FAILED', `could not read at byte ${String(offset)}: NotReadableError`, offset),
      )
    }
    const end = Math.min(this.bytes.length, offset + length)
    return Promise.resolve(this.bytes.slice(Math.min(offset, end), end))
  }
}
