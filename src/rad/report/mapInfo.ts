/**
 * The mapping rate of the run, from the JSON its mapper writes beside the RAD file
 * (docs/format.md, "Files beside map.rad"): salmon's `aux_info/meta_info.json` and piscem's
 * `map_info.json`. Their keys are not all confirmed (the format spec marks piscem's UNCONFIRMED):
 * reads mapped are `num_mapped` (else `num_reads_mapped`), reads processed `num_processed` (else
 * `num_reads`); with neither pair, salmon's `percent_mapped`. docs/stats.md, "The summary", says so.
 */
import { RadError } from '../errors'

export interface MapInfo {
  /** Reads mapped / reads processed, 0…1. */
  mappingRate: number
  /** The keys it was read from, for a note ("num_mapped / num_processed"). */
  from: string
}

function numberAt(o: Record<string, unknown>, keys: readonly string[]): [string, number] | undefined {
  for (const k of keys) {
    const v = o[k]
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return [k, v]
  }
  return undefined
}

/** The mapping rate of a map_info.json / meta_info.json text; a RadError naming `name` when it has none. */
export function parseMapInfo(text: string, name: string): MapInfo {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new RadError('BAD_VALUE', `${name}: not JSON (${e instanceof Error ? e.message : String(e)})`)
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new RadError('BAD_VALUE', `${name}: not a JSON object of run statistics`)
  }
  const o = json as Record<string, unknown>
  const mapped = numberAt(o, ['num_mapped', 'num_reads_mapped'])
  const processed = numberAt(o, ['num_processed', 'num_reads'])
  if (mapped && processed && processed[1] > 0 && mapped[1] <= processed[1]) {
    return { mappingRate: mapped[1] / processed[1], from: `${mapped[0]} / ${processed[0]}` }
  }
  const percent = numberAt(o, ['percent_mapped'])
  if (percent && percent[1] <= 100) return { mappingRate: percent[1] / 100, from: 'percent_mapped' }
  throw new RadError(
    'BAD_VALUE',
    `${name}: no mapping rate (expected num_mapped and num_processed, or percent_mapped, as salmon and piscem write)`,
  )
}
