/**
 * Reads sized for latency (HttpSource's BLOCK_BYTES, OPEN_BLOCKS,
 * MAX_REQUEST_BYTES): the index worker's body (scanFile) over HTTP from a
 * local server that holds every answer 20 or 100 ms. The first records must
 * come after two round trips: the opening GET (size, prelude, first window)
 * and the fingerprint's tail, asked for at once after it.
 */
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { HttpSource } from '../../src/io/httpSource'
import { scanFile } from '../../src/workers/scanFile'
import { SALMON_V3 } from '../helpers/fixtures'
import { startRangeServer } from '../helpers/rangeServer'
import type { RangeServer } from '../helpers/rangeServer'

const salmon = new Uint8Array(readFileSync(SALMON_V3))

let server: RangeServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('HttpSource latency', () => {
  it.each([20, 100])('shows the first records after two round trips at %i ms', async (delayMs) => {
    server = await startRangeServer({ '/map.rad': salmon }, { delayMs })
    const s = server
    const t0 = performance.now()
    let firstAt = 0
    let requestsBeforeFirst = 0
    const summary = await scanFile(await HttpSource.open(s.url('/map.rad')), {
      opened: () => undefined,
      first: () => {
        firstAt = performance.now() - t0
        requestsBeforeFirst = s.requests.length
      },
      index: () => undefined,
      progress: () => undefined,
    })
    const doneAt = performance.now() - t0
    console.warn(
      `${String(delayMs)} ms per answer: first records at ${firstAt.toFixed(0)} ms after ${String(requestsBeforeFirst)} requests; ` +
        `indexed ${String(summary.chunks)} chunks of ${String(salmon.length)} bytes in ${doneAt.toFixed(0)} ms, ${String(s.requests.length)} requests`,
    )
    expect(summary.status).toBe('clean')
    // This 377 KB file comes whole with the opening GET; a larger one needs the tail's GET too.
    expect(requestsBeforeFirst).toBeLessThanOrEqual(2)
    // Two round trips plus the decoding (generous: the test machine is shared).
    expect(firstAt).toBeLessThan(2 * delayMs + 1500)
  })
})
