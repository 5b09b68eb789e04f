/**
 * HyperLogLog (Flajolet et al. 2007) over 2^14 registers: distinct counts in
 * 16 KiB with a relative standard error of 1.04/√16384 ≈ 0.81%. Used only for
 * the barcodes that arrive after a table is full (docs/stats.md).
 */
export const HLL_BITS = 14
const M = 1 << HLL_BITS
export const HLL_RELATIVE_ERROR = 1.04 / Math.sqrt(M)

export function newHll(): Uint8Array {
  return new Uint8Array(M)
}

/** Records a 32-bit hash. */
export function hllAdd(reg: Uint8Array, hash: number): void {
  const i = hash >>> (32 - HLL_BITS)
  // Rank of the first 1 in the remaining 18 bits (a guard bit caps it at 19).
  const rest = ((hash << HLL_BITS) | (1 << (HLL_BITS - 1))) >>> 0
  const rank = Math.clz32(rest) + 1
  if (rank > reg[i]!) reg[i] = rank
}

/** Register-wise maximum: the sketch of the union. */
export function hllMerge(into: Uint8Array, from: Uint8Array): void {
  for (let i = 0; i < M; i++) if (from[i]! > into[i]!) into[i] = from[i]!
}

/** The cardinality estimate, with linear counting for small sets (the paper's small-range correction). */
export function hllEstimate(reg: Uint8Array): number {
  let sum = 0
  let zeros = 0
  for (let i = 0; i < M; i++) {
    const r = reg[i]!
    sum += 2 ** -r
    if (r === 0) zeros++
  }
  const alpha = 0.7213 / (1 + 1.079 / M)
  const raw = (alpha * M * M) / sum
  if (raw <= 2.5 * M && zeros > 0) return M * Math.log(M / zeros)
  return raw
}
