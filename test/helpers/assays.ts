/**
 * The assays of docs/format.md §7 as writer specs, built from a simple "truth"
 * (what each record should decode to), so tests can compare the reader's
 * decoded view with the truth that made the bytes.
 */
import { arrayTag, oriRef2, oriRefId, pack2bit, pack2bitNumber, role, tag } from './radWriter'
import type { ChunkSpec, RadSpec, RecordSpec, Values } from './radWriter'

export const REFS = ['ENST0001|GeneA', 'ENST0002|GeneA', 'ENST0003|GeneB', 'chr1', 'chr2', 'ENST0006|GeneΩ']

/** Splits records into chunks of at most `perChunk`. */
export function chunked(records: readonly RecordSpec[], perChunk: number): ChunkSpec[] {
  const chunks: ChunkSpec[] = []
  for (let i = 0; i < records.length; i += perChunk) chunks.push({ records: records.slice(i, i + perChunk) })
  return chunks
}

// ---------------------------------------------------------------------------
// scRNA (§7.1, §7.2)

export interface ScAln {
  ref: number
  fw: boolean
  pos?: number
}
export interface ScRead {
  cb: string
  umi: string
  alns: ScAln[]
}

export const SC_READS: ScRead[] = [
  {
    cb: 'ACGTACGTACGTACGT',
    umi: 'TTTTGGGGCCCC',
    alns: [
      { ref: 0, fw: true, pos: 0 },
      { ref: 1, fw: true, pos: 17 },
    ],
  },
  { cb: 'AAAAAAAAAAAAAAAA', umi: 'AAAAAAAAAAAA', alns: [{ ref: 5, fw: false, pos: 4_000_000_000 }] },
  { cb: 'TTTTTTTTTTTTTTTT', umi: 'TTTTTTTTTTTT', alns: [{ ref: 2, fw: false, pos: 123 }] },
  {
    cb: 'GATTACAGATTACAGA',
    umi: 'CATCATCATCAT',
    alns: [
      { ref: 2, fw: true, pos: 5 },
      { ref: 3, fw: false, pos: 6 },
      { ref: 4, fw: true, pos: 7 },
    ],
  },
  { cb: 'CCCCGGGGAAAATTTT', umi: 'ACACACACACAC', alns: [{ ref: 1, fw: false, pos: 99 }] },
]

function scRecord(r: ScRead, withPos: boolean): RecordSpec {
  return {
    read: { b: pack2bitNumber(r.cb), u: pack2bitNumber(r.umi) },
    alns: r.alns.map((a): Values =>
      withPos
        ? { compressed_ori_refid: oriRefId(a.ref, a.fw), pos: a.pos ?? 0 }
        : { compressed_ori_refid: oriRefId(a.ref, a.fw) },
    ),
  }
}

/** salmon `alevin --rad` (legacy): cblen/ulen u16; b,u u32; compressed_ori_refid (§7.1). */
export function salmonScRna(reads: readonly ScRead[] = SC_READS, perChunk = 2): RadSpec {
  return {
    refs: REFS,
    fileTags: [tag('cblen', 'u16'), tag('ulen', 'u16')],
    readTags: [tag('b', 'u32'), tag('u', 'u32')],
    alnTags: [tag('compressed_ori_refid', 'u32')],
    fileValues: { cblen: 16, ulen: 12 },
    chunks: chunked(
      reads.map((r) => scRecord(r, false)),
      perChunk,
    ),
  }
}

/** piscem-rs scRNA (v2 with roles), `sc_rna_basic` or `sc_rna_pos` (§7.2). */
export function piscemScRnaV2(withPos: boolean, reads: readonly ScRead[] = SC_READS): RadSpec {
  const fileTags = [tag('cblen', 'u16'), tag('ulen', 'u16'), tag('known_rad_type', 'string')]
  if (withPos) fileTags.push(tag('rlen', 'u32'))
  const alnTags = [tag('compressed_ori_refid', 'u32', role.orientation)]
  if (withPos) alnTags.push(tag('pos', 'u32', role.position))
  return {
    v2: true,
    refs: REFS,
    fileTags,
    readTags: [tag('b', 'u32', role.barcode(0, 16)), tag('u', 'u32', role.umi(12))],
    alnTags,
    fileValues: { cblen: 16, ulen: 12, known_rad_type: withPos ? 'sc_rna_pos' : 'sc_rna_basic', rlen: 90 },
    chunks: chunked(
      reads.map((r) => scRecord(r, withPos)),
      3,
    ),
  }
}

// ---------------------------------------------------------------------------
// Multi-barcode scRNA (§7.3): b0 = sample (u32, 8 nt), b1 = cell (u64, 20 nt)

export interface MultiRead {
  sample: string
  cell: string
  umi: string
  alns: ScAln[]
}

export const MULTI_READS: MultiRead[] = [
  { sample: 'ACGTACGT', cell: 'TTTTTTTTTTTTTTTTTTTT', umi: 'GGGGGGGGGGGG', alns: [{ ref: 0, fw: true }] },
  {
    sample: 'TTTTAAAA',
    cell: 'GATTACAGATTACAGATTAC',
    umi: 'ACGTACGTACGT',
    alns: [
      { ref: 3, fw: false },
      { ref: 4, fw: true },
    ],
  },
  { sample: 'AAAAAAAA', cell: 'AAAAAAAAAAAAAAAAAAAA', umi: 'AAAAAAAAAAAA', alns: [] },
]

export function multiBarcodeV2(reads: readonly MultiRead[] = MULTI_READS): RadSpec {
  return {
    v2: true,
    refs: REFS,
    fileTags: [
      tag('num_barcodes', 'u16'),
      tag('b0len', 'u16'),
      tag('b1len', 'u16'),
      tag('ulen', 'u16'),
      tag('known_rad_type', 'string'),
    ],
    readTags: [
      tag('b0', 'u32', role.barcode(0, 8)),
      tag('b1', 'u64', role.barcode(1, 20)),
      tag('u', 'u32', role.umi(12)),
    ],
    alnTags: [tag('compressed_ori_refid', 'u32', role.orientation)],
    fileValues: { num_barcodes: 2, b0len: 8, b1len: 20, ulen: 12, known_rad_type: 'sc_rna_multi_bc' },
    chunks: [
      {
        records: reads.map((r) => ({
          read: { b0: pack2bitNumber(r.sample), b1: pack2bit(r.cell), u: pack2bitNumber(r.umi) },
          alns: r.alns.map((a) => ({ compressed_ori_refid: oriRefId(a.ref, a.fw) })),
        })),
      },
    ],
  }
}

// ---------------------------------------------------------------------------
// Bulk (§7.4)

export interface BulkAln {
  ref: number
  readFw: boolean
  mateFw: boolean
  pos: number
  fragLen: number
}
export interface BulkRead {
  mappingType: number
  alns: BulkAln[]
}

export const BULK_READS: BulkRead[] = [
  // mapped pair: ff, fr, rf, rr
  {
    mappingType: 4,
    alns: [
      { ref: 0, readFw: true, mateFw: true, pos: 100, fragLen: 300 },
      { ref: 1, readFw: true, mateFw: false, pos: 200, fragLen: 301 },
      { ref: 2, readFw: false, mateFw: true, pos: 300, fragLen: 302 },
      { ref: 3, readFw: false, mateFw: false, pos: 400, fragLen: 303 },
    ],
  },
  // single-end mapped, forward and reverse
  {
    mappingType: 1,
    alns: [
      { ref: 4, readFw: true, mateFw: false, pos: 0, fragLen: 65535 },
      { ref: 5, readFw: false, mateFw: false, pos: 7, fragLen: 65535 },
    ],
  },
  // orphans
  { mappingType: 2, alns: [{ ref: 1, readFw: true, mateFw: false, pos: 55, fragLen: 65535 }] },
  { mappingType: 3, alns: [{ ref: 2, readFw: false, mateFw: false, pos: 66, fragLen: 65535 }] },
  // unmapped: no alignments
  { mappingType: 0, alns: [] },
]

export const BULK_REF_LENGTHS = [1000, 2000, 3000, 248_956_422, 242_193_529, 4_294_967_295]

/** piscem bulk; v2 with roles, or legacy (names only). */
export function bulk(v2: boolean, reads: readonly BulkRead[] = BULK_READS): RadSpec {
  const r = <T>(x: T): T | undefined => (v2 ? x : undefined)
  return {
    v2,
    paired: true,
    refs: REFS,
    fileTags: [tag('known_rad_type', 'string'), arrayTag('ref_lengths', 'u32', 'u32')],
    readTags: [tag('frag_map_type', 'u8', r(role.mappingType))],
    alnTags: [
      tag('compressed_ori_ref', 'u32', r(role.orientation)),
      tag('pos', 'u32', r(role.position)),
      tag('frag_len', 'u16', r(role.fragmentLength)),
    ],
    fileValues: { known_rad_type: 'bulk_with_pos', ref_lengths: BULK_REF_LENGTHS },
    chunks: chunked(
      reads.map((rd) => ({
        read: { frag_map_type: rd.mappingType },
        alns: rd.alns.map((a) => ({
          compressed_ori_ref: oriRef2(a.ref, a.readFw, a.mateFw),
          pos: a.pos,
          frag_len: a.fragLen,
        })),
      })),
      3,
    ),
  }
}

// ---------------------------------------------------------------------------
// scATAC (§7.5)

export interface AtacAln {
  ref: number
  type: number
  start: number
  fragLen: number
}
export interface AtacRead {
  cb: string
  alns: AtacAln[]
}

export const ATAC_READS: AtacRead[] = [
  {
    cb: 'ACGTACGTACGTACGT',
    alns: [
      { ref: 3, type: 4, start: 10_468, fragLen: 212 },
      { ref: 4, type: 4, start: 20_000, fragLen: 180 },
    ],
  },
  { cb: 'GGGGCCCCAAAATTTT', alns: [{ ref: 3, type: 1, start: 777, fragLen: 65535 }] },
  { cb: 'TTTTTTTTTTTTTTTT', alns: [{ ref: 4, type: 2, start: 4_294_967_295, fragLen: 65535 }] },
]

/** piscem-cpp scATAC (legacy; tag `barcode`; ref_lengths array<u32,u64>); payload-only nbytes as its C++ writer. */
export function atacPiscemCpp(nbytes: 'header-inclusive' | 'payload-only', reads = ATAC_READS): RadSpec {
  return {
    paired: true,
    refs: REFS,
    fileTags: [tag('cblen', 'u16'), arrayTag('ref_lengths', 'u32', 'u64')],
    readTags: [tag('barcode', 'u32')],
    alnTags: [tag('ref', 'u32'), tag('type', 'u8'), tag('start_pos', 'u32'), tag('frag_len', 'u16')],
    fileValues: { cblen: 16, ref_lengths: BULK_REF_LENGTHS.map(BigInt) },
    nbytes,
    chunks: chunked(
      reads.map((rd) => ({
        read: { barcode: pack2bitNumber(rd.cb) },
        alns: rd.alns.map((a) => ({ ref: a.ref, type: a.type, start_pos: a.start, frag_len: a.fragLen })),
      })),
      2,
    ),
  }
}

/** piscem-rs scATAC (v2, tag `b`, roles on every field). */
export function atacPiscemRs(reads = ATAC_READS): RadSpec {
  return {
    v2: true,
    paired: true,
    refs: REFS,
    fileTags: [tag('cblen', 'u16'), tag('known_rad_type', 'string'), arrayTag('ref_lengths', 'u32', 'u32')],
    readTags: [tag('b', 'u32', role.barcode(0, 16))],
    alnTags: [
      tag('ref', 'u32', role.reference),
      tag('type', 'u8', role.mappingType),
      tag('start_pos', 'u32', role.position),
      tag('frag_len', 'u16', role.fragmentLength),
    ],
    fileValues: { cblen: 16, known_rad_type: 'sc_atac', ref_lengths: BULK_REF_LENGTHS },
    chunks: chunked(
      reads.map((rd) => ({
        read: { b: pack2bitNumber(rd.cb) },
        alns: rd.alns.map((a) => ({ ref: a.ref, type: a.type, start_pos: a.start, frag_len: a.fragLen })),
      })),
      2,
    ),
  }
}

// ---------------------------------------------------------------------------
// Single-cell long read (§7.6): 20-byte alignments

export interface LongAln {
  ref: number
  fw: boolean
  score: number
  start: number
  end: number
  tlen: number
}
export interface LongRead {
  cb: string
  umi: string
  alns: LongAln[]
}

export const LONG_READS: LongRead[] = [
  {
    cb: 'ACGTACGTACGTACGT',
    umi: 'ACGTACGTACGT',
    alns: [
      { ref: 1, fw: true, score: 1500, start: 0, end: 1450, tlen: 2000 },
      { ref: 2, fw: false, score: -20, start: 12, end: 990, tlen: 1001 },
    ],
  },
  { cb: 'CCCCCCCCCCCCCCCC', umi: 'GGGGGGGGGGGG', alns: [{ ref: 0, fw: true, score: 0, start: 3, end: 4, tlen: 5 }] },
]

export function scLongRead(reads = LONG_READS): RadSpec {
  return {
    refs: REFS,
    fileTags: [tag('cblen', 'u16'), tag('ulen', 'u16')],
    readTags: [tag('b', 'u32'), tag('u', 'u32')],
    alnTags: [
      tag('compressed_ori_refid', 'u32'),
      tag('score', 'i32'),
      tag('read_start', 'u32'),
      tag('read_end', 'u32'),
      tag('tlen', 'u32'),
    ],
    fileValues: { cblen: 16, ulen: 12 },
    chunks: [
      {
        records: reads.map((rd) => ({
          read: { b: pack2bitNumber(rd.cb), u: pack2bitNumber(rd.umi) },
          alns: rd.alns.map((a) => ({
            compressed_ori_refid: oriRefId(a.ref, a.fw),
            score: a.score,
            read_start: a.start,
            read_end: a.end,
            tlen: a.tlen,
          })),
        })),
      },
    ],
  }
}
