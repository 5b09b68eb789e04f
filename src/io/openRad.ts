import type { Prelude } from '../rad/types'
import type { ByteSource } from './byteSource'
import { openSource, readPrelude } from './readPrelude'
import type { OpenedSource } from './readPrelude'

export interface OpenedRad extends OpenedSource {
  prelude: Prelude
}

/** Unwraps a Snappy container if there is one, then reads the prelude. */
export async function openRad(file: ByteSource, signal?: AbortSignal): Promise<OpenedRad> {
  const opened = await openSource(file, signal)
  const prelude = await readPrelude(opened.source, signal)
  if (opened.container === 'snappy-framed') {
    prelude.warnings.unshift(
      'whole-file Snappy stream (.sz from `alevin-fry collate --compress`): unwrapped; offsets are positions in the decompressed RAD stream',
    )
  }
  return { ...opened, prelude }
}
