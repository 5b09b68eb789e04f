/**
 * One plain chunk of the salmon/piscem scRNA shape counted in one walk over its bytes
 * (docs/format.md §5.3, §7.1: per record num_aln, two u32 read tags, then one u32 a alignment
 * packing the strand in bit 31 and the reference below): the records' alignment tallies and their
 * (barcode, UMI) keys, without decoding the chunk into columns first (bench/results.md, issue 35:
 * the decode, the rows' copy and the alignment counts were a third of the pass's CPU). The
 * caller (pairCountingCore.ts addScRnaChunk) copies the records to the input; the figures are
 * those of decodeRecordsInPlace + AlignmentCounts.countPacked + PairPartitions.addRows.
 */

import { MAX_UMI, addRecordKey } from './pairCounting'

/** Alignments a record may have here: the dense part of the per-record histogram (DENSE_HISTOGRAM). */
const DENSE_ALIGNMENTS: u32 = 4096

// Tallies kept across chunks until the caller folds them (alnTallies): f64 per reference for
// records with one alignment, the same for the others, then records by their alignments.
let tallies: usize = 0
let talliedRefs: u32 = 0
let chunkForward: u32 = 0
let chunkMixed: u32 = 0

/** The tallies' room for `refCount` references (zeroed when first made): 2 · refCount + 4096 f64. */
export function alnTallies(refCount: u32): usize {
  if (tallies == 0 || talliedRefs != refCount) {
    if (tallies != 0) heap.free(tallies)
    const bytes = (<usize>(2 * refCount + DENSE_ALIGNMENTS)) << 3
    tallies = heap.alloc(bytes)
    memory.fill(tallies, 0, bytes)
    talliedRefs = refCount
  }
  return tallies
}

/** Alignments in the last chunk's forward strand (bit 31 set). */
export function forwardAlignments(): u32 {
  return chunkForward
}

/** Whether the last chunk had more than one barcode. */
export function mixedBarcodes(): u32 {
  return chunkMixed
}

/**
 * Whether `nrec` records fill [at, end) exactly, each with fewer than DENSE_ALIGNMENTS alignments
 * and a UMI below 2^31: the chunk is then counted here, else left to the ordinary decode.
 */
function fits(at: usize, end: usize, nrec: u32, umiAt: usize): bool {
  for (let r: u32 = 0; r < nrec; r++) {
    if (at + 12 > end) return false
    const naln = load<u32>(at)
    if (naln >= DENSE_ALIGNMENTS || load<u32>(at + umiAt) > MAX_UMI) return false
    at += 12 + ((<usize>naln) << 2)
  }
  return at == end
}

/**
 * Counts `nrec` records of `bytes` bytes at `at` (barcode in read word `barcodeWord`, UMI in
 * `umiWord`); returns their alignments, or -1 when they do not fit (nothing counted). References
 * at or past `refCount` are not tallied (as countPacked); `refMask` keeps the reference bits.
 */
export function countScRna(
  at: usize,
  bytes: u32,
  nrec: u32,
  barcodeWord: u32,
  umiWord: u32,
  refCount: u32,
  refMask: u32,
): i32 {
  const barcodeAt = 4 + ((<usize>barcodeWord) << 2)
  const umiAt = 4 + ((<usize>umiWord) << 2)
  if (!fits(at, at + bytes, nrec, umiAt)) return -1
  const unique = alnTallies(refCount)
  const multi = unique + ((<usize>refCount) << 3)
  const perRecord = multi + ((<usize>refCount) << 3)
  const first = nrec > 0 ? load<u32>(at + barcodeAt) : 0
  let forward: u32 = 0
  let total: u32 = 0
  let mixed: u32 = 0
  for (let r: u32 = 0; r < nrec; r++) {
    const naln = load<u32>(at)
    const barcode = load<u32>(at + barcodeAt)
    addRecordKey(barcode, load<u32>(at + umiAt))
    mixed |= <u32>(barcode != first)
    const slot = perRecord + ((<usize>naln) << 3)
    store<f64>(slot, load<f64>(slot) + 1)
    const refs = naln == 1 ? unique : multi
    let w = at + 12
    const stop = w + ((<usize>naln) << 2)
    for (; w < stop; w += 4) {
      const word = load<u32>(w)
      forward += word >>> 31
      const ref = word & refMask
      if (ref < refCount) {
        const cell = refs + ((<usize>ref) << 3)
        store<f64>(cell, load<f64>(cell) + 1)
      }
    }
    total += naln
    at = stop
  }
  chunkForward = forward
  chunkMixed = mixed
  return <i32>total
}
