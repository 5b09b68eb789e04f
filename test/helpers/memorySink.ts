import type { ByteSink } from '../../src/rad/subsetWriter'

/** A ByteSink into memory, for tests: the pieces as written, and the finished bytes. */
export class MemorySink implements ByteSink {
  readonly pieces: Uint8Array[] = []
  private readonly patches: { at: number; bytes: Uint8Array }[] = []

  write(bytes: Uint8Array): void {
    this.pieces.push(bytes.slice())
  }

  patch(at: number, bytes: Uint8Array): void {
    this.patches.push({ at, bytes: bytes.slice() })
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.pieces.reduce((n, p) => n + p.length, 0))
    let at = 0
    for (const p of this.pieces) {
      out.set(p, at)
      at += p.length
    }
    for (const p of this.patches) out.set(p.bytes, p.at)
    return out
  }
}
