/**
 * Damage a container reported while it was read (a `.sz` frame failing its
 * CRC-32C, docs/format.md §6.1) is damage everywhere (docs/integrity.md,
 * "Damaged data is never laundered"): `validate` reports it, `salvage` drops
 * the chunks it covers, and an export that read such a frame refuses with
 * the message `validate` prints.
 */
import { chunksOverlapping } from '../rad/chunkIndex'
import type { ChunkIndex } from '../rad/chunkIndex'
import { RadError } from '../rad/errors'
import type { ByteSource, SourceDamage } from './byteSource'

/** The error for one piece of container damage, placed at the first chunk it covers (as the scan places it). */
function damageError(d: SourceDamage, index: ChunkIndex | undefined, endOfChunks: number): RadError {
  const [first, last] = index ? chunksOverlapping(index, endOfChunks, d.start, d.end) : [0, 0]
  return new RadError('BAD_SNAPPY', d.issue.message, d.issue.offset ?? d.start, first < last ? first : undefined)
}

/** Throws the first damage `source` found in what was read of it within `ranges` ([start, end) each), if any. */
export function throwIfContainerDamaged(
  source: ByteSource,
  index: ChunkIndex | undefined,
  endOfChunks: number,
  ranges: readonly (readonly [number, number])[],
): void {
  const first = source.damage?.().find((d) => ranges.some(([start, end]) => d.start < end && start < d.end))
  if (first) throw damageError(first, index, endOfChunks)
}

/** Damage that reaches into the prelude (bytes before `firstChunkOffset`): no chunk can stand in for it. */
export function damageInPrelude(source: ByteSource, firstChunkOffset: number): SourceDamage | undefined {
  return source.damage?.().find((d) => d.start < firstChunkOffset)
}
