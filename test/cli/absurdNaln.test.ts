import { describe, expect, it } from 'vitest'
import { buildRad, tag } from '../helpers/radWriter'
import { runCli, tempDir } from '../helpers/cli'

// A record with naln 2^32−1 is legal when there are no alignment tags (0 bytes
// each): `view` and `dump` must not try to print 4 billion alignments.
describe('view and dump with no alignment tags and an absurd naln', () => {
  const bytes = buildRad({
    refs: ['r0'],
    fileTags: [tag('cblen', 'u16')],
    fileValues: [4],
    readTags: [tag('b', 'u32')],
    chunks: [{ records: [{ read: [27], naln: 0xffffffff }] }],
  }).bytes

  it('view prints one line for the record, dump its count with no alignment objects', async () => {
    const dir = tempDir()
    try {
      const path = dir.write('absurd.rad', bytes)
      const view = await runCli(['view', path])
      expect(view.code).toBe(0)
      expect(view.stdout.trim().split('\n')).toEqual(['ID:0\tHI:1\tNH:4294967295\tCB:ACGT\t?'])
      const dump = await runCli(['dump', path])
      expect(dump.code).toBe(0)
      expect(JSON.parse(dump.stdout)).toEqual({ chunk: 0, rec: 0, naln: 4294967295, read: { b: 27 }, alns: [] })
    } finally {
      dir.cleanup()
    }
  }, 30_000)
})
