/** Paths and readers for the real salmon fixtures (test/fixtures/salmon/README.md). */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'salmon')
export const SALMON_V3 = join(FIXTURES, 'rad-chromium-v3-small.rad')
export const SALMON_V3_SKETCH = join(FIXTURES, 'sketch-chromium-v3-small.rad')
export const SALMON_V2 = join(FIXTURES, 'rad-chromium-v2-small.rad')
export const SALMON_V3_P3 = join(FIXTURES, 'rad-chromium-v3-small-p3.rad')
export const UNMAPPED_V3 = join(FIXTURES, 'rad-chromium-v3-small.unmapped_bc_count.bin')
export const NAMES = join(FIXTURES, 'transcripts-small.names.txt')

export interface TruthRow {
  read: string
  cb: string
  umi: string
  kind: 'tx' | 'junk'
  /** Index into the RAD reference list (for kind tx). */
  tx: number
  pos: number
  strand: '+' | '-'
}

/** Reads `reads-v*-small.truth.tsv.gz`: read, cb, umi, kind, tx, pos, strand. */
export function readTruth(chemistry: 'v2' | 'v3'): TruthRow[] {
  const text = gunzipSync(readFileSync(join(FIXTURES, `reads-${chemistry}-small.truth.tsv.gz`))).toString('utf8')
  const lines = text.split('\n').filter((l) => l.length > 0)
  const header = lines.shift()
  if (header !== 'read\tcb\tumi\tkind\ttx\tpos\tstrand') throw new Error(`unexpected truth header: ${header}`)
  return lines.map((line) => {
    const [read = '', cb = '', umi = '', kind = '', tx = '', pos = '', strand = ''] = line.split('\t')
    return {
      read,
      cb,
      umi,
      kind: kind as TruthRow['kind'],
      tx: Number(tx),
      pos: Number(pos),
      strand: strand as '+' | '-',
    }
  })
}

export function readNames(): string[] {
  return readFileSync(NAMES, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
}
