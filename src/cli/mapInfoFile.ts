/**
 * `stats --map-info FILE`: the mapper's run statistics, for the summary's mapping rate
 * (rad/report/mapInfo.ts). Without the flag, the files salmon and piscem write beside map.rad
 * are looked for: `map_info.json` (piscem, simpleaf's af_map folder) and
 * `aux_info/meta_info.json` (salmon alevin --rad).
 */
import { readFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseMapInfo } from '../rad/report/mapInfo'
import type { MapInfo } from '../rad/report/mapInfo'
import { RadError } from '../rad/errors'

const BESIDE = ['map_info.json', join('aux_info', 'meta_info.json')]

/** The run statistics' path: the one given, else the first beside the RAD file; undefined when none. */
export function mapInfoPath(given: string | undefined, radPath: string): string | undefined {
  if (given !== undefined) return given
  const folder = dirname(radPath)
  return BESIDE.map((name) => join(folder, name)).find((p) => existsSync(p))
}

/** The mapping rate of the file at `path`; a file found beside (not given) that says none is skipped with a note. */
export async function readMapInfo(path: string | undefined, given: boolean): Promise<MapInfo | undefined> {
  if (path === undefined) return undefined
  try {
    const text = await readFile(path, 'utf8').catch((e: unknown) => {
      throw new RadError('BAD_VALUE', `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`)
    })
    const info = parseMapInfo(text, path)
    if (!given) process.stderr.write(`note: mapping rate from ${path} (${info.from})\n`)
    return info
  } catch (e) {
    if (given || !(e instanceof RadError)) throw e
    process.stderr.write(`note: ${e.message}; no mapping rate\n`)
    return undefined
  }
}
