/**
 * Sample names for the files of a study (docs/engines.md, "Sample names"), one rule for the page's
 * study view, `rad stats A B …`, `--multiqc` and `rad export --out DIR`: the file's name without
 * `.rad` (or `.rad.sz`), or the run folder's for `…/<sample>/af_map/map.rad`; names two files
 * share take the folders above them until they differ (`a_s1`, `b_s1`), and only characters safe
 * in a folder name are kept.
 */

const RAD_SUFFIX = /\.rad(\.sz)?$/i
/** The folder simpleaf and alevin-fry write a run's map.rad into. */
const RUN_FOLDER = /^af_map$/i

function safe(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_') || 'sample'
}

/** The path's parts that may name it, nearest first: the file's stem (or its run folder), then the folders above. */
function nameParts(path: string): string[] {
  const parts = path.split(/[\\/]+/).filter((p) => p !== '' && p !== '.')
  const file = parts.pop() ?? ''
  const stem = file.replace(RAD_SUFFIX, '')
  const folder = parts.at(-1)
  if (folder !== undefined && RUN_FOLDER.test(folder) && parts.length >= 2) {
    parts.pop()
    return [parts.pop()!, ...parts.reverse()]
  }
  return [stem, ...parts.reverse()]
}

/** One name per path, in order, distinct (a path given twice gets `_2`, `_3`, …). */
export function sampleNames(paths: readonly string[]): string[] {
  const parts = paths.map(nameParts)
  const depth = paths.map(() => 1)
  const nameOf = (i: number): string => safe(parts[i]!.slice(0, depth[i]).reverse().join('_'))
  for (;;) {
    const byName = new Map<string, number[]>()
    paths.forEach((_, i) => {
      const n = nameOf(i)
      byName.set(n, [...(byName.get(n) ?? []), i])
    })
    let deeper = false
    for (const same of byName.values()) {
      if (same.length < 2) continue
      for (const i of same) {
        if (depth[i]! < parts[i]!.length) {
          depth[i]!++
          deeper = true
        }
      }
    }
    if (!deeper) break
  }
  const seen = new Map<string, number>()
  return paths.map((_, i) => {
    const n = nameOf(i)
    const k = (seen.get(n) ?? 0) + 1
    seen.set(n, k)
    return k === 1 ? n : `${n}_${String(k)}`
  })
}

/**
 * DuckDB's Hive reader types a partition's values when every one parses (hive_types_autocast):
 * `NULL` becomes SQL NULL, `2024-01-01` and `2024-1-1` one DATE, `01` and `1` one number. Names
 * it would read so are written with an `s` before them (docs/engines.md, "Sample names").
 */
const HIVE_TYPED = [
  /^null$/i,
  /^(true|false)$/i,
  /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/,
  /^[+-]?(inf|infinity|nan)$/i,
  /^\d{1,4}-\d{1,2}-\d{1,2}([ T_].*)?$/,
]

/** The name as a Hive partition value no engine reads as another type; unchanged when it is safe. */
export function hiveSafeName(name: string): string {
  return HIVE_TYPED.some((re) => re.test(name)) ? `s${name}` : name
}
