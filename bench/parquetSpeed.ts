/**
 * `rad export FILE OUT.parquet` speed and memory (bench/results.md, "Parquet
 * export"). The input: the salmon fixture's chunks replicated to 250 MB
 * (generate.ts replicate(): ~24M alignments, 10x v3 layout), then made less
 * repetitive than copies are: every UMI drawn at random, every barcode moved
 * to one of 20 variants per copy (~11k cells), so dictionaries and caches see
 * what a real run gives them rather than 672 copies of 18,949 reads.
 *
 *   npx tsx bench/parquetSpeed.ts        # prints the command's time, rows/s and peak RSS
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parsePrelude } from '../src/rad/prelude/prelude'
import { DATA, replicate } from './generate'

const ROOT = join(import.meta.dirname, '..')
const FIXTURE = join(ROOT, 'test', 'fixtures', 'salmon', 'rad-chromium-v3-small.rad')
const TARGET = 250e6

/** Rewrites the UMI (random) and barcode (one of 20 variants per copy) of every record, in place (§5: naln, b, u). */
function scramble(bytes: Uint8Array): void {
  const prelude = parsePrelude(bytes, bytes.length)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let seed = 12345
  const random = (): number => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return seed >>> 0
  }
  let at = prelude.firstChunkOffset
  for (let chunk = 0; at < bytes.length; chunk++) {
    const end = at + view.getUint32(at, true)
    const variant = Math.imul((chunk >> 2) % 20, 0x9e3779b1) >>> 0
    for (let p = at + 8; p < end;) {
      const naln = view.getUint32(p, true)
      view.setUint32(p + 4, (view.getUint32(p + 4, true) ^ variant) >>> 0, true)
      view.setUint32(p + 8, random() & 0xffffff, true)
      p += 12 + 4 * naln
    }
    at = end
  }
}

function input(): string {
  const out = join(DATA, 'salmon-250m-scrambled.rad')
  if (existsSync(out)) return out
  mkdirSync(DATA, { recursive: true })
  const plain = join(DATA, 'salmon-250m.rad')
  replicate(FIXTURE, TARGET, plain)
  const bytes = new Uint8Array(readFileSync(plain))
  scramble(bytes)
  writeFileSync(out, bytes)
  return out
}

const file = input()
const out = join(DATA, 'export.parquet')
const run = spawnSync('/usr/bin/time', ['-v', process.execPath, join(ROOT, 'bin', 'rad.mjs'), 'export', file, out], {
  encoding: 'utf8',
})
const stat = (label: string): string => new RegExp(`${label}: (.*)`).exec(run.stderr)?.[1]?.trim() ?? '?'
const [m, s] = stat('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)').split(':').map(Number)
const wall = (m ?? 0) * 60 + (s ?? 0)
const rows = Number(/(\d+) rows/.exec(run.stdout)?.[1] ?? 0)
const cpu = Number(stat('User time \\(seconds\\)')) + Number(stat('System time \\(seconds\\)'))
const print = (line: string): boolean => process.stdout.write(`${line}\n`)
const rss = Number(stat('Maximum resident set size \\(kbytes\\)')) / 1024
print(run.stdout.trim())
print(
  `wall ${wall.toFixed(1)} s, CPU ${cpu.toFixed(1)} s (user + sys), ${(rows / wall / 1e6).toFixed(2)}M rows/s wall,`,
)
print(`${(rows / cpu / 1e6).toFixed(2)}M rows/s CPU, peak RSS ${rss.toFixed(0)} MiB`)
rmSync(out, { force: true })
