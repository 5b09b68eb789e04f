/**
 * The page's batches replayed in Node for the benches that model its pass (pageSchedule.ts,
 * partialReport.ts): a salmon file read in batches of whole chunks, each chunk counted as the
 * page's workers count it (StatsAccumulator.addChunkOrDecode: from its bytes, else its decode).
 */
import { readSync } from 'node:fs'
import { recordLayout } from '../src/rad/decode/chunk'
import { decodeChunkInPlace } from '../src/rad/decode/decodeChunk'
import { InPlaceScratch } from '../src/rad/decode/decodeInPlace'
import type { StatsAccumulator } from '../src/rad/stats'
import type { Prelude } from '../src/rad/types'

/**
 * Reads [prelude.firstChunkOffset, end) of `fd` in batches of about `batchBytes` (whole chunks,
 * nbytes header-inclusive as salmon writes it), counting batch k's chunks into `accOf(k)` and then
 * calling `afterBatch(k, acc)`. Stops at a chunk that `end` cuts.
 */
export function countBatches(
  fd: number,
  end: number,
  prelude: Prelude,
  batchBytes: number,
  accOf: (batch: number) => StatsAccumulator,
  afterBatch: (batch: number, acc: StatsAccumulator) => void,
): void {
  const layout = recordLayout(prelude)
  const scratch = new InPlaceScratch()
  const buf = new Uint8Array(batchBytes + (1 << 20))
  let pos = prelude.firstChunkOffset
  let chunk = 0
  for (let batch = 0; pos < end; batch++) {
    const got = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos)
    const view = new DataView(buf.buffer, 0, got)
    const acc = accOf(batch)
    let at = 0
    while (at + 8 <= got && at + view.getUint32(at, true) <= got && (at < batchBytes || at === 0)) {
      const bytes = buf.subarray(at, at + view.getUint32(at, true))
      const offset = pos + at
      const k = chunk++
      acc.addChunkOrDecode(bytes, k, 'header-inclusive', () =>
        decodeChunkInPlace(bytes, offset, k, prelude, 'header-inclusive', layout, scratch),
      )
      at += bytes.length
    }
    if (at === 0) return // `end` cut the next chunk
    pos += at
    afterBatch(batch, acc)
  }
}
