import { RadError } from '../rad/errors'
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
  let prelude: Prelude
  try {
    prelude = await readPrelude(opened.source, signal)
  } catch (e) {
    // Name the container: "a plain text file" alone would describe the unwrapped bytes, not the file.
    if (opened.container === 'snappy-framed' && e instanceof RadError && e.code === 'NOT_RAD') {
      throw new RadError(
        e.code,
        `this is a whole-file Snappy stream (the framing of .sz files from \`alevin-fry collate --compress\`), but what it holds is ${e.message}`,
        e.offset,
        e.chunk,
        e.part,
      )
    }
    throw e
  }
  if (opened.container === 'snappy-framed') {
    prelude.warnings.unshift(
      'whole-file Snappy stream (.sz from `alevin-fry collate --compress`): unwrapped; offsets are positions in the decompressed RAD stream',
    )
  }
  return { ...opened, prelude }
}
