/**
 * A small BUS writer (the format bustools reads: Melsted et al. 2019, BUSpaper): a header
 * "BUS\0", version u32 (1), barcode length u32, UMI length u32, text length u32 and the text,
 * then 32-byte records — barcode u64, UMI u64, ec i32, count u32, flags u32, padding u32 — all
 * little-endian. Barcodes and UMIs are 2-bit packed first-base-high, as RAD's (docs/format.md
 * §7.8), so the same numbers mean the same sequences in both files.
 */
import { closeSync, openSync, renameSync, writeSync } from 'node:fs'

export const BUS_HEADER_TEXT = 'written by bench/bus.ts'

export interface BusRecords {
  barcode: Uint32Array
  umi: Uint32Array
  count: number
}

/** Writes one BUS record per record (count 1, flags 0); `ec(r)` is record r's equivalence class. */
export function writeBus(out: string, recs: BusRecords, ec: (r: number) => number, bclen = 16, umilen = 12): void {
  const text = new TextEncoder().encode(BUS_HEADER_TEXT)
  const head = new Uint8Array(20 + text.length)
  const hv = new DataView(head.buffer)
  head.set([0x42, 0x55, 0x53, 0])
  hv.setUint32(4, 1, true)
  hv.setUint32(8, bclen, true)
  hv.setUint32(12, umilen, true)
  hv.setUint32(16, text.length, true)
  head.set(text, 20)
  const tmp = `${out}.tmp`
  const fd = openSync(tmp, 'w')
  writeSync(fd, head)
  const PER = 1 << 16
  const buf = new Uint8Array(32 * PER)
  const dv = new DataView(buf.buffer)
  for (let from = 0; from < recs.count; from += PER) {
    const to = Math.min(recs.count, from + PER)
    buf.fill(0)
    for (let r = from, at = 0; r < to; r++, at += 32) {
      dv.setUint32(at, recs.barcode[r]!, true)
      dv.setUint32(at + 8, recs.umi[r]!, true)
      dv.setInt32(at + 16, ec(r), true)
      dv.setUint32(at + 20, 1, true)
    }
    writeSync(fd, buf, 0, (to - from) * 32)
  }
  closeSync(fd)
  renameSync(tmp, out)
}
