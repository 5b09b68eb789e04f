/** What the counting core's files share (pairCounting.ts): the buckets and per-bucket tables. */

export const BUCKETS: i32 = 256

/** A table of 256 u32, zeroed. */
export function table(): usize {
  const t = heap.alloc(BUCKETS << 2)
  memory.fill(t, 0, BUCKETS << 2)
  return t
}

export function get(t: usize, i: i32): u32 {
  return load<u32>(t + ((<usize>i) << 2))
}

export function put(t: usize, i: i32, v: u32): void {
  store<u32>(t + ((<usize>i) << 2), v)
}
