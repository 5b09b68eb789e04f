/** Number and size formatting for people (the data-value attributes keep plain digits). */

import { plural } from '../rad/errors'

// One formatter: Number.prototype.toLocaleString builds a new one per call,
// which profiled as the page's top cost while a big file indexed.
const COUNT = new Intl.NumberFormat('en-US')

export function fmtCount(n: number): string {
  return COUNT.format(n)
}

/** A count and its noun, singular for one: "1 chunk", "18,949 records" (`many` when not noun + s; rad/errors.ts plural). */
export function fmtCounted(n: number, noun: string, many = `${noun}s`): string {
  return plural(n, noun, many, fmtCount)
}

const UNITS = ['bytes', 'kB', 'MB', 'GB', 'TB']

/** 1234567 → "1.23 MB" (decimal units, as file managers show sizes). */
export function fmtBytes(n: number): string {
  if (n < 1000) return `${String(n)} ${n === 1 ? 'byte' : 'bytes'}`
  let v = n
  let u = 0
  while (v >= 1000 && u < UNITS.length - 1) {
    v /= 1000
    u++
  }
  return `${v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0)} ${UNITS[u] ?? ''}`
}

export function fmtRate(bytesPerSecond: number): string {
  return `${fmtBytes(Math.round(bytesPerSecond))}/s`
}

/** Seconds → "0.4 s", "12 s", "3 min 05 s". */
export function fmtDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—'
  if (seconds < 10) return `${seconds.toFixed(1)} s`
  if (seconds < 60) return `${String(Math.round(seconds))} s`
  const m = Math.floor(seconds / 60)
  const s = Math.round(seconds % 60)
  return `${String(m)} min ${String(s).padStart(2, '0')} s`
}

export function fmtPercent(part: number, whole: number): string {
  if (whole <= 0) return '0%'
  const p = (100 * part) / whole
  return `${p >= 99.95 && part < whole ? '99.9' : p.toFixed(p < 10 ? 1 : 0)}%`
}

/** Parses a non-negative integer typed by a person ("1,234" and "1 234" allowed). */
export function parseIndex(text: string): number | undefined {
  const clean = text.replace(/[\s,_]/g, '')
  if (!/^\d+$/.test(clean)) return undefined
  const n = Number(clean)
  return Number.isSafeInteger(n) ? n : undefined
}
