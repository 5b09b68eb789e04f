/** A SpillStore in memory, for tests: what a spill wrote, read back as the file store would. */
import type { SpillStore } from '../../src/rad/stats/spilledRuns'

export class MemorySpillStore implements SpillStore {
  private parts: Uint8Array[] = []
  /** Where each part starts (ascending): a read finds its first part by bisection. */
  private starts: number[] = []
  size = 0
  appends = 0

  append(parts: readonly Uint8Array[]): number {
    const at = this.size
    for (const p of parts) {
      this.parts.push(p.slice())
      this.starts.push(this.size)
      this.size += p.length
    }
    this.appends++
    return at
  }

  read(offset: number, length: number, into: Uint8Array): void {
    const out = into.subarray(0, length)
    let lo = 0
    let hi = this.starts.length
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1
      if (this.starts[mid]! <= offset) lo = mid
      else hi = mid
    }
    for (let i = lo; i < this.parts.length; i++) {
      const p = this.parts[i]!
      const at = this.starts[i]!
      if (at >= offset + length) break
      const from = Math.max(offset - at, 0)
      const to = Math.min(offset + length - at, p.length)
      if (from < to) out.set(p.subarray(from, to), at + from - offset)
    }
  }
}
