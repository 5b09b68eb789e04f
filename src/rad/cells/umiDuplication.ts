/**
 * Reads per (cell, UMI): the UMI duplication alevin-fry users look at (docs/cells.md, "UMI
 * duplication"), over every record of the cells, whatever its genes. Each record's (cell, UMI)
 * is kept as one number, cell · 2^32 + the UMI's low word (a UMI over 16 bases is folded into 32
 * bits by a hash: a rare merge), then sorted and counted in runs.
 *
 * Memory is bounded: past KEYS_BUDGET keys, cells are sampled by a hash of their index, halving
 * the share kept each time (each kept cell counted whole, so its duplication is exact); the JSON
 * says how many cells were counted. The share a pass ends with depends only on the keys it was
 * given, not their order, so passes over parts of the records merge exactly (mergeUmiKeys).
 */
import { runsFrom, runsMeanMedian } from '../stats/countRuns'
import type { MeanMedian } from '../stats/statsTypes'

/** 4M keys (32 MB): a 1 GiB 10x run's cells hold ~30M reads, so about one cell in eight is counted. */
const KEYS_BUDGET = 4 << 20
const TWO_32 = 4294967296

export interface UmiDuplicationJson {
  /** `[reads, (cell, UMI) pairs with that many reads]`, by reads ascending. */
  histogram: [number, number][]
  /** Reads per (cell, UMI) pair. */
  reads_per_umi: MeanMedian
  /** Cells counted (all, or a hash sample past the memory bound), of `of_cells`. */
  cells: number
  of_cells: number
}

/** A cell's sampling hash (a multiplicative mix of its index). */
function mix(cell: number): number {
  return Math.imul(cell ^ (cell >>> 15), 0x2c1b3c6d) >>> 0
}

/** A pass's kept keys, and the cells it kept them for: `(mix(cell) & mask) === 0`. */
export interface UmiKeys {
  keys: Float64Array
  mask: number
  budget: number
}

export class UmiDuplication {
  private keys: Float64Array
  private size = 0
  /** Cells whose mix has these bits clear are counted; 0: every cell. */
  private mask = 0

  private readonly budget: number

  /** `budget`: the keys held before cells are sampled (tests ask for a few). */
  constructor(budget = KEYS_BUDGET) {
    this.budget = budget
    this.keys = new Float64Array(Math.min(1 << 10, budget))
  }

  add(cell: number, umiLo: number, umiHi: number): void {
    while ((mix(cell) & this.mask) === 0 && this.size === this.keys.length) this.makeRoom()
    if ((mix(cell) & this.mask) !== 0) return
    const umi = umiHi === 0 ? umiLo : (umiLo ^ Math.imul(umiHi, 0x9e3779b1)) >>> 0
    this.keys[this.size++] = cell * TWO_32 + umi
  }

  /** Grows up to the budget; past it, keeps half of the cells sampled so far. */
  private makeRoom(): void {
    if (this.keys.length < this.budget) {
      const grown = new Float64Array(this.keys.length * 2)
      grown.set(this.keys)
      this.keys = grown
      return
    }
    this.mask = this.mask * 2 + 1
    let kept = 0
    for (let i = 0; i < this.size; i++) {
      const k = this.keys[i]!
      if ((mix(Math.floor(k / TWO_32)) & this.mask) === 0) this.keys[kept++] = k
    }
    this.size = kept
  }

  /** The keys kept so far (a view of them). */
  kept(): UmiKeys {
    return { keys: this.keys.subarray(0, this.size), mask: this.mask, budget: this.budget }
  }

  finish(cells: number): UmiDuplicationJson {
    return duplicationJson(this.kept(), cells)
  }
}

const cellOf = (key: number): number => Math.floor(key / TWO_32)

/** The keys of `parts` whose cells `mask` keeps. */
function keptUnder(parts: readonly UmiKeys[], mask: number): number {
  let n = 0
  for (const p of parts) for (const k of p.keys) if ((mix(cellOf(k)) & mask) === 0) n++
  return n
}

/**
 * The keys one UmiDuplication would have kept had it been given every key of `parts` (passes with
 * the same budget over parts of the records): a pass's mask is the first of 0, 1, 3, 7… under
 * which its keys fit the budget, whatever their order, so each part's mask is at most the
 * whole's, and each part holds every key of its records the whole keeps.
 */
export function mergeUmiKeys(parts: readonly UmiKeys[]): UmiKeys {
  if (parts.length === 1) return parts[0]!
  const budget = parts[0]?.budget ?? KEYS_BUDGET
  let mask = Math.max(0, ...parts.map((p) => p.mask))
  while (keptUnder(parts, mask) > budget) mask = mask * 2 + 1
  const keys = new Float64Array(keptUnder(parts, mask))
  let n = 0
  for (const p of parts) for (const k of p.keys) if ((mix(cellOf(k)) & mask) === 0) keys[n++] = k
  return { keys, mask, budget }
}

/** The duplication figures of a pass's keys over `cells` cells. */
export function duplicationJson(kept: UmiKeys, cells: number): UmiDuplicationJson {
  const keys = kept.keys.sort()
  const pairsWith = new Map<number, number>()
  for (let i = 0; i < keys.length;) {
    let j = i + 1
    while (j < keys.length && keys[j] === keys[i]) j++
    pairsWith.set(j - i, (pairsWith.get(j - i) ?? 0) + 1)
    i = j
  }
  const histogram = [...pairsWith].sort((a, b) => a[0] - b[0])
  const desc = [...histogram].reverse()
  const runs = runsFrom(
    desc.map(([reads]) => reads),
    desc.map(([, pairs]) => pairs),
  )
  let counted = 0
  for (let c = 0; c < cells; c++) if ((mix(c) & kept.mask) === 0) counted++
  return { histogram, reads_per_umi: runsMeanMedian(runs), cells: counted, of_cells: cells }
}
