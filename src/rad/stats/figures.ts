/** Small figure helpers of the statistics JSON: mean and median, top lists. */
import type { MeanMedian, Ranked } from './statsTypes'

/** Entries of each top list of the JSON. */
export const DEFAULT_TOP = 20

/** Counts past this are sorted by comparison (a histogram of them would cost more than it saves). */
const HISTOGRAM_LIMIT = 1 << 22

/**
 * Non-negative integer `values` below HISTOGRAM_LIMIT, sorted descending by counting (O(n + max):
 * a million barcodes' reads in ~10 ms, where the native sort took ~160 ms); undefined otherwise.
 */
export function countingSortDescending(values: Float64Array): Float64Array | undefined {
  let max = 0
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!
    if (!(v >= 0 && v < HISTOGRAM_LIMIT && v === Math.floor(v))) return undefined
    if (v > max) max = v
  }
  if (max > 4 * values.length + 1024) return undefined
  const counts = new Uint32Array(max + 1)
  for (let i = 0; i < values.length; i++) counts[values[i]!]!++
  const out = new Float64Array(values.length)
  let at = 0
  for (let v = max; v >= 0; v--) {
    const c = counts[v]!
    if (c > 0) out.fill(v, at, at + c)
    at += c
  }
  return out
}

/** Mean and median (the mean of the two middle values when the count is even); 0 for none. */
export function meanMedian(values: Float64Array): MeanMedian {
  const n = values.length
  if (n === 0) return { mean: 0, median: 0 }
  let sum = 0
  for (let i = 0; i < n; i++) sum += values[i]!
  const sorted = countingSortDescending(values)
  if (sorted) return { mean: sum / n, median: medianOfSorted(sorted) }
  const copy = values.slice()
  const mid = n >> 1
  const upper = selectNth(copy, mid)
  if (n % 2 === 1) return { mean: sum / n, median: upper }
  let lower = copy[0]!
  for (let i = 1; i < mid; i++) if (copy[i]! > lower) lower = copy[i]!
  return { mean: sum / n, median: (lower + upper) / 2 }
}

/**
 * The k-th smallest of `a` (0-based), rearranging it so that a[0…k) ≤ a[k] ≤ a[k+1…) (Hoare's
 * quickselect, middle pivot): O(n), where sorting 1.5M per-barcode counts for a median took ~0.1 s.
 */
function selectNth(a: Float64Array, k: number): number {
  let lo = 0
  let hi = a.length - 1
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!
    let i = lo
    let j = hi
    while (i <= j) {
      while (a[i]! < pivot) i++
      while (a[j]! > pivot) j--
      if (i <= j) {
        const t = a[i]!
        a[i] = a[j]!
        a[j] = t
        i++
        j--
      }
    }
    if (k <= j) hi = j
    else if (k >= i) lo = i
    else break
  }
  return a[k]!
}

/** The median of values sorted either way (the middle two are the same two); 0 for none. */
export function medianOfSorted(sorted: Float64Array): number {
  const n = sorted.length
  if (n === 0) return 0
  const mid = n >> 1
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * The `k` entries with the largest count, ties by key ascending. Entries are compared by index
 * (`keyOrder`, by default the keys' text), and text is made for the `k` kept only: with a
 * million barcodes tied at one read, building each one's ACGT string cost seconds per report.
 */
export function topRanked(
  n: number,
  count: (i: number) => number,
  key: (i: number) => string,
  k: number,
  keyOrder: (i: number, j: number) => number = (i, j) => compareText(key(i), key(j)),
): Ranked[] {
  const best: number[] = []
  const before = (i: number, j: number): boolean => {
    const ci = count(i)
    const cj = count(j)
    return ci > cj || (ci === cj && keyOrder(i, j) < 0)
  }
  for (let i = 0; i < n; i++) {
    const c = count(i)
    if (c <= 0) continue
    const last = best[best.length - 1]
    if (best.length === k && last !== undefined && (c < count(last) || !before(i, last))) continue
    let at = best.length
    while (at > 0 && before(i, best[at - 1]!)) at--
    best.splice(at, 0, i)
    if (best.length > k) best.pop()
  }
  return best.map((i): Ranked => [key(i), count(i)])
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
