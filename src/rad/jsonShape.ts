/**
 * Checks that a value parsed from JSON has the shape the code reading it expects (docs/sidecar.md: a
 * sidecar is a claim, not the truth). A `.rdx` sidecar or a cached index whose checksum is valid
 * may still hold a section of another shape — written by another tool, or crafted — and the page
 * must drop that section with a message rather than throw while rendering it (docs/sidecar.md).
 * Each check returns undefined when the value fits, else where and how it does not, in words.
 */

/** A check of one value at `path` (e.g. `barcodes.top[3]`): undefined when it fits, else what is wrong. */
export type ShapeCheck = (value: unknown, path: string) => string | undefined

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'missing'
  if (Array.isArray(value)) return 'a list'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/** The root is "it"; anything below is named by its path. */
function named(path: string): string {
  return path === '' ? 'it' : path
}

function expected(path: string, what: string, value: unknown): string {
  return `${named(path)} is ${kindOf(value)}, not ${what}`
}

/** A finite number (JSON has no NaN or Infinity, but a crafted section may hold a string). */
export const num: ShapeCheck = (v, path) => {
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : `${named(path)} is not a finite number`
  return expected(path, 'a number', v)
}

export const str: ShapeCheck = (v, path) => (typeof v === 'string' ? undefined : expected(path, 'a string', v))

export const bool: ShapeCheck = (v, path) => (typeof v === 'boolean' ? undefined : expected(path, 'true or false', v))

/** One of a few strings. */
export function oneOf(values: readonly string[]): ShapeCheck {
  return (v, path) =>
    typeof v === 'string' && values.includes(v) ? undefined : `${named(path)} is not one of ${values.join(', ')}`
}

/** The check, or null. */
export function nullable(check: ShapeCheck): ShapeCheck {
  return (v, path) => (v === null ? undefined : check(v, path))
}

/** The check, or absent (undefined). */
export function optional(check: ShapeCheck): ShapeCheck {
  return (v, path) => (v === undefined ? undefined : check(v, path))
}

/** What a writer never writes: more entries than it would (a crafted section, made to freeze the page). */
function tooMany(path: string, n: number, max: number): string {
  return `${named(path)} has ${n.toLocaleString('en-US')} entries, more than the ${max.toLocaleString('en-US')} a writer writes`
}

/**
 * A list whose every item passes `item`, and of at most `max` items (what the writer writes:
 * checked first, so a list of a million is refused without a look at its items).
 */
export function listOf(item: ShapeCheck, max = Infinity): ShapeCheck {
  return (v, path) => {
    if (!Array.isArray(v)) return expected(path, 'a list', v)
    if (v.length > max) return tooMany(path, v.length, max)
    for (const [i, x] of v.entries()) {
      const problem = item(x, `${path}[${String(i)}]`)
      if (problem !== undefined) return problem
    }
    return undefined
  }
}

/** A fixed-length list, item by item (`[barcode, count]`). */
export function tuple(...items: ShapeCheck[]): ShapeCheck {
  return (v, path) => {
    if (!Array.isArray(v) || v.length !== items.length) return expected(path, `a list of ${String(items.length)}`, v)
    for (const [i, check] of items.entries()) {
      const problem = check(v[i], `${path}[${String(i)}]`)
      if (problem !== undefined) return problem
    }
    return undefined
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** An object whose every value passes `value` (a map from names to counts), of at most `max` names. */
export function recordOf(value: ShapeCheck, max = Infinity): ShapeCheck {
  return (v, path) => {
    if (!isObject(v)) return expected(path, 'an object', v)
    const entries = Object.entries(v)
    if (entries.length > max) return tooMany(path, entries.length, max)
    for (const [key, x] of entries) {
      const problem = value(x, `${path}.${key}`)
      if (problem !== undefined) return problem
    }
    return undefined
  }
}

/** An object with these fields (others are ignored: nothing reads them). */
export function shape(fields: Record<string, ShapeCheck>): ShapeCheck {
  return (v, path) => {
    if (!isObject(v)) return expected(path, 'an object', v)
    for (const [key, check] of Object.entries(fields)) {
      const problem = check(v[key], path === '' ? key : `${path}.${key}`)
      if (problem !== undefined) return problem
    }
    return undefined
  }
}

/**
 * Why `value` nests deeper than `max` levels of arrays and objects (a crafted section: docs/
 * sidecar.md, "A sidecar is a claim"), or undefined. Walked with a stack of its own, not by
 * recursion: JSON.parse reads 200,000 levels, but copying such a value to another thread, or
 * writing it back, overflows the call stack.
 */
export function depthProblem(value: unknown, max: number, path = ''): string | undefined {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!
    if (typeof v !== 'object' || v === null) continue
    if (depth >= max) return `${path || 'it'} nests deeper than the ${String(max)} levels any writer writes`
    for (const child of Object.values(v)) stack.push([child, depth + 1])
  }
  return undefined
}
