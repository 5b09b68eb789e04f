/**
 * `rad stats` beside bustools on the same records (bench/results.md; ADR 0009's fourth round
 * there): the 200 MiB 10x-shaped RAD file (tenx.ts) and its BUS twin (bus.ts), timed in turn in
 * one run — `bustools sort -t 2` then `bustools inspect` (Debian's bustools), against `rad stats
 * --json` (the CLI bundle, bin/rad.mjs: worker threads on both cores), and `rad stats` on the
 * collated twin. The figures bustools inspect prints are compared with rad's (within 0.5 %).
 * Skipped with a note when bustools is not installed.
 *
 *   npx tsx bench/bustools.ts [runs]      prints the markdown section (npm run bench includes it)
 *   npx tsx bench/bustools.ts big [runs]  the 4 GiB run's, when bench/data has it
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { StatsJson } from '../src/rad/stats'
import { writeTenx } from './tenx'

const ROOT = join(import.meta.dirname, '..')
const RAD = join(ROOT, 'bin', 'rad.mjs')
const TOLERANCE = 0.005

interface Timed {
  wall: number
  stdout: string
}

function run(cmd: string, args: string[], env: Record<string, string> = {}): Timed {
  const t = performance.now()
  const r = spawnSync(cmd, args, { maxBuffer: 256 << 20, encoding: 'utf8', env: { ...process.env, ...env } })
  const wall = (performance.now() - t) / 1000
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`)
  return { wall, stdout: r.stdout }
}

function hasBustools(): boolean {
  return spawnSync('bustools', ['version'], { encoding: 'utf8' }).status === 0
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

interface Figures {
  numBarcodes: number
  numBarcodeUMIs: number
  medianReadsPerBarcode: number
  medianUMIsPerBarcode: number
  gtRecords: number
}

function radFigures(json: StatsJson): Figures {
  return {
    numBarcodes: json.barcodes?.distinct ?? NaN,
    numBarcodeUMIs: json.umis?.distinct_pairs ?? NaN,
    medianReadsPerBarcode: json.barcodes?.reads_per_barcode.median ?? NaN,
    medianUMIsPerBarcode: json.umis?.per_barcode.median ?? NaN,
    gtRecords: json.umis?.good_toulmin_2x ?? NaN,
  }
}

/** bustools sort (with `sortFlags`) + inspect, timed as one; the inspect JSON. */
function bustools(bus: string, dir: string, sortFlags: string[] = []): { wall: number; figures: Figures } {
  const sorted = join(dir, 'sorted.bus')
  const out = join(dir, 'inspect.json')
  const sort = run('bustools', ['sort', '-t', '2', ...sortFlags, '-T', join(dir, 'tmp'), '-o', sorted, bus])
  const inspect = run('bustools', ['inspect', '-o', out, sorted])
  const figures = JSON.parse(readFileSync(out, 'utf8')) as Figures
  return { wall: sort.wall + inspect.wall, figures }
}

function radStats(path: string, env: Record<string, string> = {}): { wall: number; figures: Figures } {
  const r = run(process.execPath, [RAD, 'stats', '--json', path], env)
  return { wall: r.wall, figures: radFigures(JSON.parse(r.stdout) as StatsJson) }
}

const f2 = (x: number): string => x.toFixed(2)

export function bustoolsSection(runs = 5): string {
  if (!hasBustools()) {
    return '## rad stats beside bustools\n\nSkipped: `bustools` is not installed (`apt-get install bustools`).\n'
  }
  const files = writeTenx(200, { collated: true, bus: true })
  const dir = mkdtempSync(join(tmpdir(), 'rad-bustools-'))
  try {
    for (const f of [files.rad, files.collated, files.bus]) readFileSync(f) // into the page cache
    const rows = { bus: [] as number[], rad: [] as number[], one: [] as number[], collated: [] as number[] }
    const ratios: number[] = []
    let bus: Figures | undefined
    let rad: Figures | undefined
    for (let i = 0; i < runs; i++) {
      const b = bustools(files.bus, dir)
      const r = radStats(files.rad)
      rows.bus.push(b.wall)
      rows.rad.push(r.wall)
      ratios.push(b.wall / r.wall)
      rows.one.push(radStats(files.rad, { RAD_STATS_THREADS: '0' }).wall)
      rows.collated.push(radStats(files.collated).wall)
      bus = b.figures
      rad = r.figures
    }
    return section(
      '## rad stats beside bustools (200 MiB 10x-shaped file, bench/tenx.ts)',
      [
        ['`bustools sort -t 2` + `bustools inspect` (BUS twin)', rows.bus],
        ['`rad stats --json` (worker threads)', rows.rad],
        ['`rad stats --json`, RAD_STATS_THREADS=0 (one thread)', rows.one],
        ['`rad stats --json`, collated twin (worker threads)', rows.collated],
      ],
      { ratios, bus: bus!, rad: rad!, runs },
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Whether rad's figures agree with bustools inspect's within TOLERANCE, and the rows comparing them. */
function figureRows(bus: Figures, rad: Figures): { agree: boolean; rows: string[] } {
  const compare = (Object.keys(bus) as (keyof Figures)[]).filter((k) => k in rad)
  return {
    agree: compare.every((k) => Math.abs(rad[k] - bus[k]) <= TOLERANCE * Math.abs(bus[k])),
    rows: compare.map((k) => `| ${k} | ${String(bus[k])} | ${String(rad[k])} |`),
  }
}

/**
 * The 4 GiB run of issue 35, when bench/data holds it and its BUS twin (`npx tsx bench/tenx.ts
 * 4096`; minutes to make, so not made here): bustools with `-m 4G` against `rad stats --json`, in turn.
 */
export function bustoolsBigSection(runs = 2): string {
  const rad = join(ROOT, 'bench', 'data', 'tenx-4096m.rad')
  const bus = join(ROOT, 'bench', 'data', 'tenx-4096m.bus')
  if (!hasBustools() || !existsSync(rad) || !existsSync(bus)) return ''
  const dir = mkdtempSync(join(tmpdir(), 'rad-bustools-'))
  try {
    const walls = { bus: [] as number[], rad: [] as number[] }
    const ratios: number[] = []
    let figures: { bus: Figures; rad: Figures } | undefined
    for (let i = 0; i < runs; i++) {
      const b = bustools(bus, dir, ['-m', '4G'])
      const r = radStats(rad)
      walls.bus.push(b.wall)
      walls.rad.push(r.wall)
      ratios.push(b.wall / r.wall)
      figures = { bus: b.figures, rad: r.figures }
    }
    return section(
      '## rad stats beside bustools on the 4 GiB 10x-shaped run (tenx-4096m.rad, issue 35)',
      [
        ['`bustools sort -t 2 -m 4G` + `bustools inspect` (BUS twin)', walls.bus],
        ['`rad stats --json` (worker threads)', walls.rad],
      ],
      { ratios, ...figures!, runs },
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The markdown section: a row of times a command (median of `runs`, in turn), ratios pair by pair, figures compared. */
function section(
  title: string,
  rows: [string, number[]][],
  r: { ratios: number[]; bus: Figures; rad: Figures; runs: number },
): string {
  const line = ([name, xs]: [string, number[]]): string =>
    `| ${name} | ${f2(median(xs))} | ${f2(Math.min(...xs))}–${f2(Math.max(...xs))} |`
  const compared = figureRows(r.bus, r.rad)
  const { ratios } = r
  return [
    title,
    '',
    `${String(r.runs)} runs in turn, wall seconds, files in the page cache; ${cpus().length.toString()} cores shared with other work.`,
    '',
    '| command | median s | min–max |',
    '| --- | --- | --- |',
    ...rows.map(line),
    '',
    `bustools ÷ rad stats, pair by pair: median ${f2(median(ratios))}× (${f2(Math.min(...ratios))}–${f2(Math.max(...ratios))}).`,
    '',
    '| figure | bustools inspect | rad stats |',
    '| --- | --- | --- |',
    ...compared.rows,
    '',
    compared.agree ? 'Every figure agrees within 0.5 %.' : '**Figures differ by more than 0.5 %.**',
    '',
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  process.stdout.write(
    process.argv[2] === 'big'
      ? bustoolsBigSection(Number(process.argv[3] ?? 2))
      : bustoolsSection(Number(process.argv[2] ?? 5)),
  )
}
