/**
 * The cells' distinct (cell, gene slot, UMI) keys (cellQc.ts): packed in two words,
 * (UMI, cell·slots + slot), when the UMI fits one word and cell·slots + slot fits the other (a
 * 10x run: 12-nt UMIs, 10k cells × 60k genes); in four words otherwise. A set's keys leave as
 * plain arrays (`list`) and another's are added to it (`addList`): the parts of a pass counted
 * on several workers are one set again, exactly (docs/cells.md, "On every core").
 */
import { CountTable } from '../stats/countTable'
import { PartitionedSet } from './packedSet'

/** No limit: the tables hold the cells' pairs exactly (their size is in docs/cells.md). */
const UNBOUNDED = 2 ** 31 - 1

/** A set's keys: packed (UMI, code) pairs, and wide (cell, slot, UMI lo, UMI hi) keys. */
export interface PairList {
  packed: Uint32Array
  wide: Uint32Array
}

export class CellPairs {
  private readonly packed = new PartitionedSet()
  private readonly wide = new CountTable(4, UNBOUNDED, 1 << 10)
  private readonly key = new Uint32Array(4)
  /** Gene slots per cell (genes · statuses). */
  readonly slots: number
  /** Whether (cell, slot) codes fit one word (then UMIs of one word are packed). */
  private readonly packable: boolean

  constructor(cells: number, slots: number) {
    this.slots = slots
    this.packable = cells * slots < 2 ** 32
  }

  /** One (cell, gene slot, UMI) key, packed when it fits. */
  add(cell: number, slot: number, umiLo: number, umiHi: number): void {
    if (this.packable && umiHi === 0) {
      this.packed.add(umiLo, cell * this.slots + slot)
      return
    }
    const key = this.key
    key[0] = cell
    key[1] = slot
    key[2] = umiLo
    key[3] = umiHi
    this.wide.add(key, 0, 1)
  }

  /** Whether the key is in the set. */
  has(cell: number, slot: number, umiLo: number, umiHi: number): boolean {
    if (this.packable && umiHi === 0) return this.packed.has(umiLo, cell * this.slots + slot)
    const key = this.key
    key[0] = cell
    key[1] = slot
    key[2] = umiLo
    key[3] = umiHi
    return this.wide.find(key, 0) >= 0
  }

  /** Every distinct key, once, as (cell, slot, UMI lo, UMI hi). */
  forEach(visit: (cell: number, slot: number, umiLo: number, umiHi: number) => void): void {
    const slots = this.slots
    this.packed.forEach((umi, code) => {
      const cell = Math.floor(code / slots)
      visit(cell, code - cell * slots, umi, 0)
    })
    const { keys, size } = this.wide
    for (let id = 0; id < size; id++) visit(keys[4 * id]!, keys[4 * id + 1]!, keys[4 * id + 2]!, keys[4 * id + 3]!)
  }

  /** The keys as plain arrays (a copy). */
  list(): PairList {
    const packed = new Uint32Array(2 * this.packed.size)
    let n = 0
    this.packed.forEach((lo, hi) => {
      packed[n++] = lo
      packed[n++] = hi
    })
    return { packed, wide: this.wide.keys.slice(0, 4 * this.wide.size) }
  }

  /** Adds another set's keys (its `list()`; the same cells and slots). */
  addList(list: PairList): void {
    const { packed, wide } = list
    for (let i = 0; i < packed.length; i += 2) this.packed.add(packed[i]!, packed[i + 1]!)
    for (let i = 0; i < wide.length; i += 4) this.wide.add(wide, i, 1)
  }
}
