/** A SpillStore in memory, for tests: what a spill wrote, read back as the file store would. */
import type { SpillStore } from '../../src/rad/stats/spilledRuns'

export class MemorySpillStore implements SpillStore {
  private parts: Uint8Array[] = []
  size = 0
  appends = 0

  append(parts: readonly Uint8Array[]): number {
    const at = this.size
    for (const p of parts) {
      this.parts.push(p.slice())
      this.size += p.length
    }
    this.appends++
    return at
  }

  read(offset: number, length: number, into: Uint8Array): void {
    const out = into.subarray(0, length)
    let at = 0
    for (const p of this.parts) {
      const from = Math.max(offset - at, 0)
      const to = Math.min(offset + length - at, p.length)
      if (from < to) out.set(p.subarray(from, to), at + from - offset)
      at += p.length
      if (at >= offset + length) break
    }
  }
}
