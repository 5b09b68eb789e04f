/**
 * The whole-file statistics counted during the index walk (docs/stats.md, "One read for a URL";
 * bench/results.md, ADR 0009's sixth round): the record checker (recordChecks.ts) hands every chunk
 * it checks to a WalkCounter, which decodes it and adds it to one accumulator, so a file opened by
 * URL without a sidecar is read once for its index, its checks and its statistics. The figures are
 * those of the page's pass (statsWorker.ts): the same decode, the same accumulator, the same report
 * (statsReportOf, as `rad index` stores it), and the same rule for a chunk that does not decode
 * (walkBatch.ts: left out, the walk goes on).
 */
import { recordLayout } from '../rad/decode/chunk'
import type { ChunkPayload, RecordLayout } from '../rad/decode/chunk'
import { decodeChunkInPlace, decodeRecords } from '../rad/decode/decodeChunk'
import { InPlaceScratch } from '../rad/decode/decodeInPlace'
import { RadError } from '../rad/errors'
import { inferSemantics } from '../rad/prelude/semantics'
import type { Semantics } from '../rad/prelude/semantics'
import { createStatsAccumulator } from '../rad/stats'
import type { StatsAccumulator } from '../rad/stats'
import { statsReportOf } from '../rad/stats/section'
import type { StatsReport } from '../rad/stats/section'
import type { NbytesConvention, Prelude } from '../rad/types'

export class WalkCounter {
  private readonly prelude: Prelude
  private readonly sem: Semantics
  private readonly layout: RecordLayout
  private readonly acc: StatsAccumulator
  private readonly scratch = new InPlaceScratch()
  /** Chunks that did not decode: left out of the figures, as the pass leaves them out. */
  skipped = 0

  constructor(prelude: Prelude) {
    this.prelude = prelude
    this.sem = inferSemantics(prelude)
    this.layout = recordLayout(prelude)
    this.acc = createStatsAccumulator(prelude, this.sem)
  }

  /**
   * Adds one chunk (its on-disk bytes, header included, which the caller gives up: a plain
   * chunk is decoded in place, as a decode worker decodes a batch it read into its own buffer).
   * `payload`, when the checks already decompressed the chunk (docs/format.md §6), saves a second
   * decompression. A chunk whose records do not decode is skipped and counted in `skipped`.
   */
  add(
    bytes: Uint8Array,
    offset: number,
    chunk: number,
    convention: NbytesConvention,
    payload: ChunkPayload | undefined,
  ): void {
    try {
      if (payload?.compressed === true) this.acc.addChunk(decodeRecords(payload, this.layout))
      else {
        // A plain scRNA chunk is counted from its bytes (StatsAccumulator.addChunkBytes).
        this.acc.addChunkOrDecode(bytes, chunk, convention, () =>
          decodeChunkInPlace(bytes, offset, chunk, this.prelude, convention, this.layout, this.scratch),
        )
      }
    } catch (e) {
      if (!(e instanceof RadError)) throw e
      this.skipped++
    }
  }

  /** The finished report: the JSON `rad stats --json` prints and the knee curve the panel draws. */
  report(): StatsReport {
    return statsReportOf(this.acc.exportState('figures'), this.prelude, this.sem)
  }
}
