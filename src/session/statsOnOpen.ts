import type { SourceSpec } from '../io/sourceSpec'
import type { IndexSource } from '../workers/protocol'

/**
 * Whether the whole-file statistics pass waits to be asked for instead of
 * starting once the index is in. It does for a URL opened with its `.rdx`
 * sidecar: the sidecar's point is to read only the prelude and the chunks on
 * screen (docs/sidecar.md), and the pass would fetch the whole file — 50 GB
 * through an ssh tunnel — behind the user's back. Everywhere else the file
 * was just read whole anyway (a scan) or is local, and the pass starts.
 */
export function statsWaitForAsk(source: SourceSpec, indexSource: IndexSource): boolean {
  return source.kind === 'url' && indexSource === 'sidecar'
}
