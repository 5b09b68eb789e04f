/** `info` names the producer and which consumer versions read the file (docs/integrity.md). */
import { afterAll, describe, expect, it } from 'vitest'
import { piscemScRnaV2 } from '../helpers/assays'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'
import { radBytes } from '../helpers/radWriter'

interface InfoCompat {
  producer: { name: string; certainty: string; evidence: string[]; also_possible: string[] }
  compatibility: { tool: string; versions: string; verdict: string; reasons: string[]; sources: string[] }[]
}

const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

describe.concurrent('rad info: producer and compatibility', () => {
  it('a real salmon file: salmon, read by alevin-fry 0.19', async () => {
    const r = await runCli(['info', SALMON_V3])
    expect(r.code).toBe(0)
    const info = JSON.parse(r.stdout) as InfoCompat & { assay: string }
    expect(info.assay).toBe('scRNA') // existing keys stay
    expect(info.producer).toMatchObject({ name: 'salmon', certainty: 'weak' })
    expect(info.producer.evidence.length).toBeGreaterThan(0)
    const af = info.compatibility.find((c) => c.tool === 'alevin-fry' && c.versions === '0.19.0 and later')
    expect(af).toMatchObject({ verdict: 'reads', reasons: [] })
    expect(af?.sources).toContain('simpleaf v0.31.0 release notes')
  })

  it('a piscem-rs v2 file: alevin-fry 0.18 fails on the magic', async () => {
    const file = dir.write('v2.rad', radBytes(piscemScRnaV2(false)))
    const info = JSON.parse((await runCli(['info', file])).stdout) as InfoCompat
    expect(info.producer.name).toBe('piscem-rs')
    const old = info.compatibility.find((c) => c.tool === 'alevin-fry' && c.versions === '0.18.x')
    expect(old?.verdict).toBe('fails')
    expect(old?.reasons.join(' ')).toContain('RAD_FILE magic')
  })
})
