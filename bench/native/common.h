/* What the native floors share (bench/nativeFloor.ts): reading a whole file, and CPU time. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The bytes of `path` in a fresh buffer (its length in *n), or NULL when it cannot be read. */
static uint8_t *readWhole(const char *path, long *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *bytes = malloc(*n);
  size_t got = bytes ? fread(bytes, 1, *n, f) : 0;
  fclose(f);
  if (got != (size_t)*n) {
    free(bytes);
    return NULL;
  }
  return bytes;
}

/* This process's CPU time in seconds (the machine is shared: wall time would measure the others too). */
static double cpuSeconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}
