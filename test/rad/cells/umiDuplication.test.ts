import { describe, expect, it } from 'vitest'
import { duplicationJson, mergeUmiKeys, UmiDuplication } from '../../../src/rad/cells/umiDuplication'

describe('UmiDuplication: reads per (cell, UMI), in bounded memory', () => {
  it('counts each pair’s reads into a histogram, with the mean and median per pair', () => {
    const d = new UmiDuplication()
    // Cell 0: UMI 7 read 3 times, UMI 8 once; cell 1: UMI 7 twice (another pair); a wide UMI once.
    for (const [cell, umi] of [
      [0, 7],
      [0, 7],
      [0, 7],
      [0, 8],
      [1, 7],
      [1, 7],
    ] as const) {
      d.add(cell, umi, 0)
    }
    d.add(1, 5, 9)
    expect(d.finish(2)).toEqual({
      histogram: [
        [1, 2],
        [2, 1],
        [3, 1],
      ],
      reads_per_umi: { mean: 7 / 4, median: 1.5 },
      cells: 2,
      of_cells: 2,
    })
  })

  it('past its budget keeps a hash sample of whole cells, and says how many', () => {
    const d = new UmiDuplication(64)
    for (let cell = 0; cell < 100; cell++) {
      for (let umi = 0; umi < 5; umi++) {
        d.add(cell, umi, 0)
        d.add(cell, umi, 0)
      }
    }
    const j = d.finish(100)
    expect(j.of_cells).toBe(100)
    expect(j.cells).toBeGreaterThan(0)
    expect(j.cells).toBeLessThan(100)
    // Every kept cell whole: each of its 5 UMIs read twice.
    expect(j.histogram).toEqual([[2, 5 * j.cells]])
  })
})

describe('mergeUmiKeys: passes over parts of the records merge as one pass', () => {
  it('past the budget, the merged sample is the one pass’s, whatever the split', () => {
    const records: [number, number][] = []
    for (let cell = 0; cell < 200; cell++) for (let umi = 0; umi < 1 + (cell % 7); umi++) records.push([cell, umi])
    for (const budget of [1 << 10, 256, 64, 16]) {
      const whole = new UmiDuplication(budget)
      for (const [cell, umi] of records) whole.add(cell, umi, 0)
      const expected = whole.finish(200)
      for (const parts of [2, 3, 5]) {
        // Each record (read) to the part of its position: the parts share cells.
        const ds = Array.from({ length: parts }, () => new UmiDuplication(budget))
        records.forEach(([cell, umi], i) => {
          ds[(i * 7) % parts]!.add(cell, umi, 0)
        })
        expect(duplicationJson(mergeUmiKeys(ds.map((d) => d.kept())), 200)).toEqual(expected)
      }
    }
  })
})
