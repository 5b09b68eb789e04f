import { open } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { basename } from 'node:path'
import type { ByteSource } from '../io/byteSource'

/** A file on disk read with positioned reads (exact beyond 4 GiB; never the whole file). */
export class NodeFileSource implements ByteSource {
  private readonly handle: FileHandle
  readonly size: number
  readonly name: string
  /** Every read fills a new array. */
  readonly ownedReads = true

  private constructor(handle: FileHandle, size: number, name: string) {
    this.handle = handle
    this.size = size
    this.name = name
  }

  static async open(path: string): Promise<NodeFileSource> {
    const handle = await open(path, 'r')
    const { size } = await handle.stat()
    return new NodeFileSource(handle, size, basename(path))
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    const end = Math.min(this.size, offset + length)
    if (end <= offset) return new Uint8Array(0)
    const out = new Uint8Array(end - offset)
    let done = 0
    while (done < out.length) {
      const { bytesRead } = await this.handle.read(out, done, out.length - done, offset + done)
      if (bytesRead === 0) return out.subarray(0, done)
      done += bytesRead
    }
    return out
  }

  close(): Promise<void> {
    return this.handle.close()
  }
}
