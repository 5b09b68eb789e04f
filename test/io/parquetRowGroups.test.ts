/**
 * The export's row groups (io/parquetRowGroup.ts, ADR 0012): the pages this
 * project encodes reuse their buffers from one row group to the next, so a
 * file cut into many small groups must read back in DuckDB equal to one cut
 * into a single group, row for row and in order.
 */
import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { openRad } from '../../src/io/openRad'
import { writeParquet } from '../../src/io/parquetExport'
import { multiBarcodeV2, piscemScRnaV2, salmonScRna } from '../helpers/assays'
import { tempDir } from '../helpers/cli'
import { duckQuery, readParquet, sqlString } from '../helpers/duck'
import { SALMON_V3 } from '../helpers/fixtures'
import { toSource } from '../helpers/read'
import { buildRad } from '../helpers/radWriter'

const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

/** The file as Parquet with `rowGroupRows` rows a group; its path. */
async function exportWith(name: string, bytes: Uint8Array, rowGroupRows: number, perRecord = false): Promise<string> {
  const { source, prelude } = await openRad(toSource(bytes))
  const parts: Uint8Array[] = []
  const sink = {
    write: (b: Uint8Array) => {
      parts.push(b.slice())
    },
    patch: () => {
      throw new Error('the Parquet writer does not patch')
    },
  }
  await writeParquet(source, prelude, {}, sink, { rowGroupRows, perRecord })
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return dir.write(`${name}-${String(rowGroupRows)}${perRecord ? '-per-record' : ''}.parquet`, out)
}

async function rowGroups(path: string): Promise<number> {
  const rows = await duckQuery(`select count(distinct row_group_id) n from parquet_metadata(${sqlString(path)})`)
  return Number(rows[0]?.n)
}

/** Files of several chunks (salmon's fixture: 4 chunks, 18,949 reads) or one (the built ones). */
const KINDS: [string, () => Uint8Array][] = [
  ['salmon 1.10 fixture', () => new Uint8Array(readFileSync(SALMON_V3))],
  ['piscem', () => buildRad(piscemScRnaV2(true)).bytes],
  ['multi-barcode', () => buildRad(multiBarcodeV2()).bytes],
  ['salmon legacy', () => buildRad(salmonScRna()).bytes],
]

describe('row groups', () => {
  for (const [name, file] of KINDS) {
    for (const perRecord of [false, true]) {
      it(`${name}${perRecord ? ', per record' : ''}: small groups read back equal to one group`, async () => {
        const bytes = file()
        const one = await exportWith(name, bytes, 1_000_000, perRecord)
        const many = await exportWith(name, bytes, 2, perRecord)
        expect(await rowGroups(one)).toBe(1)
        // A group is written once a chunk has brought it to the size: one per chunk here.
        const chunks = await duckQuery(`select count(distinct chunk) n from read_parquet(${sqlString(one)})`)
        expect(await rowGroups(many)).toBe(Number(chunks[0]?.n))
        expect(await readParquet(many)).toEqual(await readParquet(one))
      })
    }
  }
})
