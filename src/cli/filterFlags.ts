/**
 * The record-filter flags shared by `view`, `dump` (and `subset`): read out of
 * the argument list into a RecordFilter (src/rad/filter/recordFilter.ts), leaving
 * the other arguments for the command's own parser; and, once a file is open,
 * the selection they make with --chunks and --records (filteredSelection).
 */
import type { RecordSelection } from '../io/selectedRecords'
import { compileFilter, matchRecords } from '../rad/filter/recordFilter'
import type { Orientation, RecordFilter } from '../rad/filter/recordFilter'
import { inferSemantics } from '../rad/prelude/semantics'
import type { Prelude } from '../rad/types'

export const FILTER_USAGE = `filters (view, dump, subset; all given must hold):
  --barcode ACGT…         records whose cell barcode is this sequence (any barcode level of its length)
  --hamming 0|1           mismatches allowed in --barcode (default 0)
  --umi ACGT…             records with this UMI
  --ref NAME|/REGEX/      records with an alignment to a reference whose name contains NAME or matches REGEX
  --min-aln N, --max-aln N  records with at least / at most N alignments
  --orientation fw|rc     records with an alignment in this orientation (bit 31, alevin-fry's DIR)
  --frag-map-type N       bulk frag_map_type (0 unmapped, 1 single, 2/3 orphan, 4 pair); scATAC type`

export interface FilterFlags {
  /** Undefined when no filter flag was given. */
  filter: RecordFilter | undefined
  /** The arguments that are not filter flags, in order. */
  rest: string[]
}

function count(text: string | undefined, flag: string): number | string {
  const n = Number(text)
  if (text === undefined || text.trim() === '' || !Number.isSafeInteger(n) || n < 0) {
    return `${flag} needs a whole number ≥ 0`
  }
  return n
}

type Setter = (filter: RecordFilter, value: string | undefined, flag: string) => string | undefined

function setCount(key: 'minAln' | 'maxAln' | 'fragMapType'): Setter {
  return (filter, value, flag) => {
    const n = count(value, flag)
    if (typeof n === 'string') return n
    filter[key] = n
    return undefined
  }
}

function setText(key: 'barcode' | 'umi' | 'ref', what: string): Setter {
  return (filter, value, flag) => {
    if (value === undefined || value === '') return `${flag} needs ${what}`
    filter[key] = value
    return undefined
  }
}

const SETTERS: Record<string, Setter> = {
  '--barcode': setText('barcode', 'a barcode sequence (ACGT…)'),
  '--umi': setText('umi', 'a UMI sequence (ACGT…)'),
  '--ref': setText('ref', 'a reference name or /regex/'),
  '--min-aln': setCount('minAln'),
  '--max-aln': setCount('maxAln'),
  '--frag-map-type': setCount('fragMapType'),
  '--hamming': (filter, value) => {
    if (value !== '0' && value !== '1') return '--hamming needs 0 or 1'
    filter.hamming = value === '1' ? 1 : 0
    return undefined
  },
  '--orientation': (filter, value) => {
    if (value !== 'fw' && value !== 'rc') return '--orientation needs fw or rc'
    filter.orientation = value satisfies Orientation
    return undefined
  },
}

/** Takes the filter flags (`--flag VALUE` or `--flag=VALUE`) out of `argv`; a string says what is wrong. */
export function extractFilterFlags(argv: readonly string[]): FilterFlags | string {
  const filter: RecordFilter = {}
  const rest: string[] = []
  let any = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    const eq = arg.indexOf('=')
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg
    const set = SETTERS[flag]
    if (!set) {
      rest.push(arg)
      continue
    }
    const value = flag === arg ? argv[++i] : arg.slice(eq + 1)
    const problem = set(filter, value, flag)
    if (problem !== undefined) return problem
    any = true
  }
  if (filter.hamming !== undefined && filter.barcode === undefined) return '--hamming needs --barcode'
  return { filter: any ? filter : undefined, rest }
}

/**
 * The records `view`, `dump`, `subset` and `export` take from one file
 * (docs/subsets.md, "Selections"): the ranges of --chunks and --records and,
 * when filter flags were given, the filter compiled for this file's tags;
 * all must hold.
 */
export function filteredSelection(
  prelude: Prelude,
  ranges: RecordSelection,
  filter: RecordFilter | undefined,
): RecordSelection {
  if (!filter) return ranges
  const compiled = compileFilter(filter, prelude, inferSemantics(prelude))
  return { ...ranges, match: (cols) => matchRecords(cols, compiled) }
}
