/*
 * Native floor of the zstd decode (docs/adr/0010): libzstd itself, a decompression
 * context reused for every frame, over the zstd frames of a file's chunks.
 * Input: frames.bin as bench/nativeFloor.ts writes it (u32 LE length, then the
 * frame, repeated). Prints CPU time per frame and GB/s of the frames' bytes.
 * zstd.h may be absent (Debian ships only libzstd.so.1): the three functions
 * used are declared here with libzstd's own signatures.
 */
#include <string.h>

#include "common.h"

typedef struct ZSTD_DCtx_s ZSTD_DCtx;
ZSTD_DCtx *ZSTD_createDCtx(void);
size_t ZSTD_decompressDCtx(ZSTD_DCtx *dctx, void *dst, size_t dstCapacity, const void *src, size_t srcSize);
unsigned ZSTD_isError(size_t code);

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  long n;
  uint8_t *in = readWhole(argv[1], &n);
  if (!in) return 2;
  ZSTD_DCtx *dctx = ZSTD_createDCtx();
  static uint8_t out[1 << 22];
  for (int run = 0; run < 3; run++) {
    long at = 0, frames = 0, errors = 0, bytes = 0;
    double t0 = cpuSeconds();
    while (at + 4 <= n) {
      uint32_t len;
      memcpy(&len, in + at, 4);
      size_t got = ZSTD_decompressDCtx(dctx, out, sizeof out, in + at + 4, len);
      if (ZSTD_isError(got)) errors++;
      bytes += len;
      at += 4 + len;
      frames++;
    }
    double s = cpuSeconds() - t0;
    printf("%ld frames (%ld errors), %.3f s CPU, %.0f ns a frame, %.3f GB/s of frames\n", frames, errors, s,
           1e9 * s / frames, bytes / s / 1e9);
  }
  return 0;
}
