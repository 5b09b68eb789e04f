/** The chunk requests every pass and walk share (protocol.ts re-exports them). */
import type { RadErrorData } from '../rad/errors'

/** One chunk to decode, located by the index. */
export interface ChunkRequest {
  chunk: number
  offset: number
  nbytes: number
}

/** A chunk a walk could not decode (walkBatch.ts): skipped, with why (the integrity report lists it too). */
export interface BadChunk {
  chunk: number
  error: RadErrorData
}
