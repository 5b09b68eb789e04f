// Experiment: the decode worker's two halves timed apart (Blob read vs decodeChunk), nothing returned.
import { expose } from 'comlink'
import { BlobSource } from '../../src/io/blobSource'
import { recordLayout, chunkSpan } from '../../src/rad/chunk'
import { decodeChunk } from '../../src/rad/decodeChunk'
import type { ChunkRequest } from '../../src/workers/protocol'
import type { NbytesConvention, Prelude } from '../../src/rad/types'

let source: BlobSource | undefined
let prelude: Prelude | undefined
let decodeMs = 0
let skipDecode = false
expose({
  setReadOnly(v: boolean) {
    skipDecode = v
  },
  spent() {
    return decodeMs
  },
  open(file: Blob, p: Prelude) {
    source = new BlobSource(file)
    prelude = p
  },
  async decode(batch: ChunkRequest[], convention: NbytesConvention) {
    if (!source || !prelude) throw new Error('open first')
    const first = batch[0]!
    const last = batch[batch.length - 1]!
    const bytes = await source.read(first.offset, last.offset + chunkSpan(last.nbytes, convention) - first.offset)
    if (skipDecode) return batch.map((b) => ({ recordCount: 0, nbytes: b.nbytes }))
    const t0 = performance.now()
    const layout = recordLayout(prelude)
    const out = batch.map((b) => {
      const at = b.offset - first.offset
      const c = decodeChunk(
        bytes.subarray(at, at + chunkSpan(b.nbytes, convention)),
        b.offset,
        b.chunk,
        prelude!,
        convention,
        layout,
      )
      return { recordCount: c.recordCount, nbytes: c.nbytes }
    })
    decodeMs += performance.now() - t0
    return out
  },
})
