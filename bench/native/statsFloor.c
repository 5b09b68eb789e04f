/*
 * Native floor of the statistics pass (docs/adr/0009): the statistics pass's counting,
 * in C at -O3, on salmon's record shape (docs/format.md §7.1: num_aln u32,
 * b u32, u u32, then one compressed_ori_refid u32 per alignment), with the
 * tightest tables for it (key and count inline in one slot). It walks the
 * chunks `copies` times, once only walking the records and once also counting:
 *   1 barcodes, exact (open addressing, 2^16 slots);
 *   2 (barcode, UMI) pairs, sampled 1/8 as the page's table is on this file
 *     (2^21 slots of 16 bytes, as at the page's 2^20-pair cap);
 *   4 alignments per record, orientation, references unique vs multi.
 * Usage: statsFloor FILE FIRST_CHUNK_OFFSET REF_COUNT COPIES [WHAT=7]
 */
#include <string.h>

#include "common.h"

typedef struct {
  uint32_t key, count;
} BarcodeSlot;

typedef struct {
  uint64_t key;
  uint32_t count, used;
} PairSlot;

static inline uint32_t mix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

static inline uint32_t u32At(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

int main(int argc, char **argv) {
  if (argc < 5) return 2;
  long n;
  uint8_t *file = readWhole(argv[1], &n);
  if (!file) return 2;
  long first = atol(argv[2]);
  uint32_t refCount = (uint32_t)atol(argv[3]);
  int copies = atoi(argv[4]);
  int what = argc > 5 ? atoi(argv[5]) : 7;
  const uint32_t BM = (1u << 16) - 1, PM = (1u << 21) - 1;
  BarcodeSlot *barcodes = calloc(BM + 1, sizeof *barcodes);
  PairSlot *pairs = calloc(PM + 1, sizeof *pairs);
  uint32_t *unique = calloc(refCount, 4), *multi = calloc(refCount, 4), perRecord[64] = {0};
  uint64_t fw = 0, sink = 0, distinct = 0, sampled = 0;
  double walkNs = 0;
  for (int count = 0; count < 2; count++) {
    uint64_t records = 0;
    double t0 = cpuSeconds();
    for (int c = 0; c < copies; c++) {
      for (long at = first; at + 8 <= n; at += u32At(file + at)) {
        uint32_t nrec = u32At(file + at + 4);
        const uint8_t *p = file + at + 8;
        for (uint32_t r = 0; r < nrec; r++, records++) {
          uint32_t naln = u32At(p), bc = u32At(p + 4), umi = u32At(p + 8);
          const uint8_t *aln = p + 12;
          p = aln + 4 * naln;
          if (!count) {
            sink += bc ^ umi ^ naln;
            continue;
          }
          if (what & 1) {
            for (uint32_t s = mix32(bc * 0x9e3779b1u) & BM;; s = (s + 1) & BM) {
              if (barcodes[s].count == 0) {
                barcodes[s].key = bc;
                barcodes[s].count = 1;
                distinct++;
                break;
              }
              if (barcodes[s].key == bc) {
                barcodes[s].count++;
                break;
              }
            }
          }
          uint32_t h = mix32(bc * 0x9e3779b1u + umi * 0x85ebca77u);
          if ((what & 2) && (h >> 29) == 0) {
            uint64_t key = ((uint64_t)bc << 32) | umi;
            for (uint32_t s = h & PM;; s = (s + 1) & PM) {
              if (!pairs[s].used) {
                pairs[s].key = key;
                pairs[s].count = 1;
                pairs[s].used = 1;
                sampled++;
                break;
              }
              if (pairs[s].key == key) {
                pairs[s].count++;
                break;
              }
            }
          }
          if (what & 4) {
            perRecord[naln < 63 ? naln : 63]++;
            uint32_t *refs = naln == 1 ? unique : multi;
            for (uint32_t a = 0; a < naln; a++) {
              uint32_t w = u32At(aln + 4 * a), ref = w & 0x7fffffffu;
              fw += w >> 31;
              if (ref < refCount) refs[ref]++;
            }
          }
        }
      }
    }
    double ns = 1e9 * (cpuSeconds() - t0) / records;
    if (!count) walkNs = ns;
    printf("%-22s %lu records, %.1f ns a record\n", count ? "walk and count:" : "walk only:", (unsigned long)records, ns);
    if (count) printf("counting adds %.1f ns a record\n", ns - walkNs);
  }
  fprintf(stderr, "(barcodes %lu, sampled pairs %lu, fw %lu, sink %lu)\n", (unsigned long)distinct,
          (unsigned long)sampled, (unsigned long)fw, (unsigned long)sink);
  return 0;
}
