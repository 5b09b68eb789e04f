/** How an HttpSource reads (httpSource.ts): its options and their defaults, with the reasons for them. */
import type { RemoteVersion } from './httpWire'

export interface HttpSourceOptions {
  /** Small reads are served from aligned blocks of this size (default BLOCK_BYTES). */
  blockSize?: number
  /** Larger reads are split into requests of at most this many bytes, fetched in parallel. */
  maxRequestBytes?: number
  /** Requests in flight at once, for all reads of this source. */
  maxInFlight?: number
  /** Retries of a transient failure (network error, 5xx, 429), with backoff from `retryBaseMs`. */
  retries?: number
  retryBaseMs?: number
  /** A server that ignores Range is read whole when the file is at most this large. */
  wholeBodyLimit?: number
  /** A request that receives nothing for this long fails: the server stopped sending (default STALL_MS). */
  stallMs?: number
  /** The version learned by another source on the same URL (a decode worker gets the index worker's). */
  version?: RemoteVersion
  /** For tests; the global fetch otherwise. */
  fetch?: typeof fetch
}

/**
 * 256 KiB blocks: a chunk header or a fingerprint read costs one round trip
 * and no more bytes than a fast link moves in it.
 */
export const BLOCK_BYTES = 256 << 10
/**
 * The opening GET asks for 5 blocks (1.25 MiB): the prelude and the scan's
 * first 1 MiB window (SequentialReader's FIRST_BLOCK, from the end of a
 * prelude under 256 KiB) come with the size, and the last block (the
 * fingerprint's tail) is fetched right after. Records show after two round
 * trips (test/io/httpLatency.test.ts, 20 and 100 ms of added delay).
 */
export const OPEN_BLOCKS = 5
/**
 * 4 MiB per request: the scan's 16 MiB windows (scanChunks DEFAULT_BLOCK)
 * become 4 parallel requests, so one window costs about one round trip.
 */
export const MAX_REQUEST_BYTES = 4 << 20
/** Chromium opens at most 6 HTTP/1.1 connections per host; more requests would only queue. */
export const MAX_IN_FLIGHT = 6
/** Servers that ignore Range: read the whole body only up to this size (it is held in memory). */
export const WHOLE_BODY_LIMIT = 64 << 20
/** Blocks kept for small reads (4 MiB at 256 KiB each). */
export const CACHED_BLOCKS = 16
const RETRIES = 4
const RETRY_BASE_MS = 250
/**
 * 30 s without a byte (before the answer, or between two parts of its body): the server
 * stopped sending (ADR 0005). Not retried: the page says so and offers Retry.
 */
export const STALL_MS = 30_000

/** The options that shape reads, every one set. */
export type ReadOptions = Required<Omit<HttpSourceOptions, 'version' | 'fetch'>>

export function defaultsOf(opts: HttpSourceOptions): ReadOptions {
  return {
    blockSize: opts.blockSize ?? BLOCK_BYTES,
    maxRequestBytes: opts.maxRequestBytes ?? MAX_REQUEST_BYTES,
    maxInFlight: opts.maxInFlight ?? MAX_IN_FLIGHT,
    retries: opts.retries ?? RETRIES,
    retryBaseMs: opts.retryBaseMs ?? RETRY_BASE_MS,
    wholeBodyLimit: opts.wholeBodyLimit ?? WHOLE_BODY_LIMIT,
    stallMs: opts.stallMs ?? STALL_MS,
  }
}
