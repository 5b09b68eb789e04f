/** The whole-file statistics JSON of some bytes, as `rad stats --json` makes it (src/cli/stats.ts). */
import { BytesSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import { decodeChunk } from '../../src/rad/decode/decodeChunk'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import { createStatsAccumulator, statsJson } from '../../src/rad/stats'
import type { StatsJson, StatsOptions } from '../../src/rad/stats'

export async function statsJsonOf(bytes: Uint8Array, opts?: StatsOptions): Promise<StatsJson> {
  const { source, prelude } = await openRad(new BytesSource(bytes, 'f.rad'))
  const sem = inferSemantics(prelude)
  const acc = createStatsAccumulator(prelude, sem, opts)
  await scanChunks(source, prelude, {
    onChunk: (chunkBytes, offset, chunk, convention) => {
      acc.addChunk(decodeChunk(chunkBytes, offset, chunk, prelude, convention))
      return false
    },
  })
  return statsJson(acc.exportState(), prelude, sem)
}
