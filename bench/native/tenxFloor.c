/*
 * Native floor of the exact statistics on a 10x-shaped file (bench/results.md, ADR 0009's ninth
 * round): in C at -O3, the figures `rad stats` counts exactly on that shape (distinct barcodes and
 * their reads, distinct (barcode, UMI) pairs and the UMIs of each barcode, the pairs with an odd
 * number of reads for Good–Toulmin) and the alignment counts (strand, references of unique and
 * multi-mapping records), with the least work known for them: every record's key scattered to one
 * of 256 buckets by the barcode's spread top bits (as pairPartitions.ts spreads it), then each
 * bucket sorted by LSD radix (12-bit digits, a digit every key shares skipped) and counted in one
 * scan. It holds 8 bytes a record, all at once (the page's core holds ~4 a distinct pair and merges
 * as it goes, for memory): a floor for any design, not a design for the page.
 *
 * Record shape (docs/format.md §7.8; bench/tenx.ts): num_aln u32, b u32, u u32, then num_aln
 * compressed_ori_refid u32. Chunks: nbytes u32 (header included), nrec u32.
 * Usage: tenxFloor FILE FIRST_CHUNK_OFFSET REF_COUNT
 */
#include <string.h>

#include "common.h"

#define BUCKETS 256
#define DIGIT_BITS 12
#define DIGITS (1 << DIGIT_BITS)

typedef struct {
  uint64_t *keys;
  size_t n, cap;
} Bucket;

static void grow(Bucket *b) {
  b->cap *= 2;
  b->keys = realloc(b->keys, b->cap * sizeof *b->keys);
  if (!b->keys) exit(3);
}

static inline uint32_t u32At(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* Sorts keys[0..n) (scratch: room for n more), returns where the sorted keys are. */
static uint64_t *radixSort(uint64_t *keys, uint64_t *scratch, size_t n, uint64_t allBits) {
  static size_t counts[DIGITS];
  uint64_t *from = keys, *to = scratch;
  for (int shift = 0; shift < 64 && (allBits >> shift) != 0; shift += DIGIT_BITS) {
    memset(counts, 0, sizeof counts);
    for (size_t i = 0; i < n; i++) counts[(from[i] >> shift) & (DIGITS - 1)]++;
    if (counts[(from[0] >> shift) & (DIGITS - 1)] == n) continue; /* every key shares this digit */
    size_t sum = 0;
    for (int d = 0; d < DIGITS; d++) {
      size_t c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (size_t i = 0; i < n; i++) to[counts[(from[i] >> shift) & (DIGITS - 1)]++] = from[i];
    uint64_t *t = from;
    from = to;
    to = t;
  }
  return from;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: tenxFloor FILE FIRST_CHUNK_OFFSET REF_COUNT\n");
    return 2;
  }
  long size;
  uint8_t *bytes = readWhole(argv[1], &size);
  if (!bytes) return 1;
  long at = atol(argv[2]);
  uint32_t refCount = (uint32_t)atol(argv[3]);
  double *unique = calloc(refCount, sizeof(double)), *multi = calloc(refCount, sizeof(double));
  static Bucket buckets[BUCKETS];
  uint64_t records = 0, alignments = 0, forward = 0, allBits = 0;

  /* Room for twice a bucket's share of the most records the file can hold (16 bytes each): fresh
   * memory, its pages faulted in as the keys arrive; a bucket that needs more grows. */
  size_t cap = 2 * (size_t)(size / 16 / BUCKETS) + 1024;
  for (int b = 0; b < BUCKETS; b++) {
    buckets[b].cap = cap;
    buckets[b].keys = malloc(cap * sizeof(uint64_t));
    if (!buckets[b].keys) return 3;
  }

  /* 1. One walk: every record's alignments counted, its key appended to its bucket. */
  double t0 = cpuSeconds();
  for (long c = at; c + 8 <= size; c += u32At(bytes + c)) {
    uint32_t nrec = u32At(bytes + c + 4);
    const uint8_t *p = bytes + c + 8;
    for (uint32_t r = 0; r < nrec; r++) {
      uint32_t naln = u32At(p), barcode = u32At(p + 4), umi = u32At(p + 8);
      p += 12;
      double *refs = naln == 1 ? unique : multi;
      for (uint32_t k = 0; k < naln; k++, p += 4) {
        uint32_t w = u32At(p);
        forward += w >> 31;
        uint32_t ref = w & 0x7fffffff;
        if (ref < refCount) refs[ref]++;
      }
      alignments += naln;
      uint32_t spread = barcode * 0x9e3779b1u;
      uint64_t key = ((uint64_t)(spread & 0xffffff) << 32) | umi;
      allBits |= key;
      Bucket *bk = &buckets[spread >> 24];
      if (bk->n == bk->cap) grow(bk);
      bk->keys[bk->n++] = key;
    }
    records += nrec;
  }
  double t1 = cpuSeconds();

  /* 2. Each bucket sorted, then one scan: barcodes, their reads and UMIs, pairs, odd pairs. */
  size_t largest = 0;
  for (int b = 0; b < BUCKETS; b++) largest = buckets[b].n > largest ? buckets[b].n : largest;
  uint64_t *scratch = malloc((largest ? largest : 1) * sizeof *scratch);
  double sortCpu = 0;
  uint64_t barcodes = 0, pairs = 0, oddPairs = 0;
  for (int b = 0; b < BUCKETS; b++) {
    size_t n = buckets[b].n;
    if (n == 0) continue;
    double s0 = cpuSeconds();
    uint64_t *k = radixSort(buckets[b].keys, scratch, n, allBits);
    sortCpu += cpuSeconds() - s0;
    for (size_t i = 0; i < n;) {
      uint64_t barcode = k[i] >> 32;
      barcodes++;
      while (i < n && (k[i] >> 32) == barcode) {
        size_t j = i + 1;
        while (j < n && k[j] == k[i]) j++;
        pairs++;
        oddPairs += (j - i) & 1;
        i = j;
      }
    }
  }
  double t2 = cpuSeconds();

  double count = t2 - t1;
  printf("records %llu, alignments %llu (forward %llu); barcodes %llu, pairs %llu, odd pairs %llu, Good-Toulmin %lld\n",
         (unsigned long long)records, (unsigned long long)alignments, (unsigned long long)forward,
         (unsigned long long)barcodes, (unsigned long long)pairs, (unsigned long long)oddPairs,
         (long long)(2 * oddPairs) - (long long)pairs);
  double walk = t1 - t0, all = walk + count;
  printf("CPU: walk, alignments and keys scattered %.2f s, sort %.2f s, scan %.2f s; all %.2f s (%.1f ns a record)\n",
         walk, sortCpu, count - sortCpu, all, 1e9 * all / records);
  return 0;
}
