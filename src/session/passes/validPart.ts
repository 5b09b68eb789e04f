/**
 * The valid part of a damaged file (docs/integrity.md, "Save the valid part"): the File the
 * salvage plan assembles from slices of the open one (io/salvage.ts), given only once a decode
 * worker has confirmed that the file is still the one indexed.
 */
import { isFileChange } from '../../io/fileFingerprint'
import { salvagedFile } from '../../io/salvage'
import { sourceName } from '../../io/sourceSpec'
import type { SourceSpec } from '../../io/sourceSpec'
import { RadError } from '../../rad/errors'
import type { OpenedFile } from '../../workers/protocol'
import type { DecodePool } from '../rows/decodePool'
import { salvagedName } from '../open/indexClaims'
import type { SessionState } from '../sessionStore'

export interface ValidPartOf {
  source: SourceSpec
  opened: OpenedFile | undefined
  state: () => SessionState
  pool: DecodePool
  /** The check found the file changed: the session switches its view to that state. */
  onFileChanged: (e: RadError) => void
}

/**
 * The valid part as a File; undefined when there is no salvage plan, or the file changed. A
 * URL's valid part would have to be downloaded first: `rad salvage` on the server is the way.
 */
function validPartFile(source: SourceSpec, state: SessionState): File | undefined {
  const offer = state.summary?.salvage
  if (!offer || state.changed || source.kind !== 'file') return undefined
  return salvagedFile(source.file, offer, salvagedName(sourceName(source)))
}

/**
 * The valid part once the file is confirmed unchanged (a download of slices of a changed file
 * fails in the browser without a word). Rejects with FILE_CHANGED (after onFileChanged) when it
 * is not, or when there is nothing to save.
 */
export async function confirmedValidPart(s: ValidPartOf): Promise<File> {
  if (!s.opened) throw new Error('internal: saveValidPart() before the file was opened')
  try {
    await s.pool.recheck(s.opened.fingerprint)
  } catch (e) {
    if (e instanceof RadError && isFileChange(e)) s.onFileChanged(e)
    throw e
  }
  const now = s.state()
  const file = validPartFile(s.source, now)
  if (!file) throw now.changed ?? new Error('there is no valid part to save')
  return file
}
