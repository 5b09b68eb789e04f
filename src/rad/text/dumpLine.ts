import { columnValue } from '../decode/columns'
import { canonicalJson } from './display'
import type { ChunkColumns, Column, Prelude } from '../types'

function cellJson(col: Column, i: number): unknown {
  return canonicalJson(columnValue(col, i))
}

/**
 * The `dump` JSON of record `r` of a chunk (one JSON Lines line, without the
 * newline): `{"chunk", "rec", "naln", "read": {tag: value}, "alns": [{tag: value}]}`,
 * raw tag values (64-bit and wider integers as decimal strings, canonicalJson).
 */
export function dumpRecordJson(cols: ChunkColumns, r: number, prelude: Prelude): string {
  const read: Record<string, unknown> = {}
  prelude.readTags.forEach((tag, t) => {
    read[tag.name] = cellJson(cols.readColumns[t] as Column, r)
  })
  const alns: Record<string, unknown>[] = []
  const first = cols.alnStart[r] ?? 0
  const naln = (cols.alnStart[r + 1] ?? 0) - first
  // With no alignment tags an alignment has nothing to show, and its count is
  // bounded by no bytes (a corrupt naln of 2^32−1 would mean 4 billion `{}`).
  const shown = prelude.alnTags.length > 0 ? naln : 0
  for (let k = first; k < first + shown; k++) {
    const aln: Record<string, unknown> = {}
    prelude.alnTags.forEach((tag, t) => {
      aln[tag.name] = cellJson(cols.alnColumns[t] as Column, k)
    })
    alns.push(aln)
  }
  return JSON.stringify({ chunk: cols.chunk, rec: r, naln, read, alns })
}
