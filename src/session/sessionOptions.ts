import type { KeptCells } from '../rad/cells/cellsSection'
import type { IndexCache } from './open/sessionCache'

/** How RadSession opens a source (client.ts). */
export interface SessionOptions {
  /** Byte budget of the decoded-chunk cache. */
  cacheBytes?: number
  decodeWorkers?: number
  /** Where the workers come from; the default starts the real ones (tests run them on a MessageChannel). */
  workers?: { index: () => Worker; decode: () => Worker }
  /** A `.rdx` sidecar index of the file (docs/sidecar.md): installed instead of a scan when it matches. */
  sidecar?: Blob
  /** The page's index cache (ADR 0007): a local file seen before opens from it, and a finished index is kept in it. */
  indexCache?: IndexCache
  /**
   * Opened again to be scanned whatever is known of it (docs/sidecar.md): no sidecar, nothing read from
   * the cache. `because`: why the known index of the session before was dropped, shown to the user;
   * undefined when the user asked for the check.
   */
  fresh?: { because: string | undefined; keptCells?: readonly KeptCells[] }
  /**
   * Asks the page to open the same source again, fresh (checkRecords, or a known index that
   * disagrees with the file); `keptCells`: the cells passes of this session, still this file's
   * (checkRecords: the same bytes), for the next session to keep.
   */
  onRescan?: (because: string | undefined, keptCells?: readonly KeptCells[]) => void
}
