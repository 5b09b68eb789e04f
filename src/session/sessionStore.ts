/**
 * What the page shows about one open file, in the shape React's
 * useSyncExternalStore reads: an immutable SessionState replaced on each
 * change, and a separate version number that moves whenever decoded rows
 * arrive (so the table re-renders without the panels doing so).
 */
import type { RadError } from '../rad/errors'
import { Store } from './store'
import type { Semantics } from '../rad/prelude/semantics'
import type { NbytesConvention } from '../rad/types'
import type { IndexSource, OpenedFile, ScanProgress, ScanSummary } from '../workers/protocol'

export type SessionPhase = 'opening' | 'indexing' | 'done' | 'error'

export interface SessionState {
  phase: SessionPhase
  fileName: string
  fileSize: number
  opened: OpenedFile | undefined
  semantics: Semantics | undefined
  progress: ScanProgress | undefined
  /** Chunks and records indexed so far (what can be browsed). */
  chunks: number
  records: number
  convention: NbytesConvention | undefined
  summary: ScanSummary | undefined
  /** True when the user stopped the indexing; the chunks found stay browsable. */
  cancelled: boolean
  /** The problem; when `opened` is set, everything indexed before it stays browsable. */
  error: RadError | Error | undefined
  /** Worker failures and the like, in plain words. */
  notices: string[]
  /** performance.now() when the file was opened (the drop), and when indexing ended: "Took" is the difference. */
  openedAt: number
  finishedAt: number | undefined
  /**
   * Set at the first read that shows the file changed on disk after it was
   * opened (FILE_CHANGED or READ_FAILED): the verdict is withdrawn and no
   * decoded chunk is shown any more (docs/integrity.md).
   */
  changed: RadError | undefined
  /** Where the index came from: a walk of the file, or a `.rdx` sidecar (docs/sidecar.md). */
  indexSource: IndexSource
  /** Why a sidecar given with the file was not used (it is then scanned), in plain words. */
  sidecarRejected: string | undefined
  /** Why the index cache's entry for this file was not used (it is dropped, the file scanned), in plain words. */
  cacheRejected: string | undefined
  /**
   * Why this session scans a file another session had opened from a sidecar or the cache: that
   * index disagreed with the file's chunk headers (docs/sidecar.md), in a sentence.
   */
  rescannedBecause: string | undefined
}

function initialState(file: { name: string; size: number }): SessionState {
  return {
    phase: 'opening',
    fileName: file.name,
    fileSize: file.size,
    opened: undefined,
    semantics: undefined,
    progress: undefined,
    chunks: 0,
    records: 0,
    convention: undefined,
    summary: undefined,
    cancelled: false,
    error: undefined,
    notices: [],
    openedAt: performance.now(),
    finishedAt: undefined,
    changed: undefined,
    indexSource: 'scan',
    sidecarRejected: undefined,
    cacheRejected: undefined,
    rescannedBecause: undefined,
  }
}

/** The session's state, and a version that moves whenever decoded rows arrive (a store of its own). */
export class SessionStore {
  private readonly store: Store<SessionState>
  private readonly data = new Store({ version: 0 })

  constructor(file: { name: string; size: number }) {
    this.store = new Store(initialState(file))
  }

  get current(): SessionState {
    return this.store.getState()
  }

  update(patch: Partial<SessionState>): void {
    this.store.update(patch)
  }

  /** Adds a line to the notices. */
  notice(message: string): void {
    this.update({ notices: [...this.current.notices, message] })
  }

  /** Decoded rows changed: a chunk arrived or failed. */
  bumpData(): void {
    this.data.update({ version: this.data.getState().version + 1 })
  }

  get subscribe(): Store<SessionState>['subscribe'] {
    return this.store.subscribe
  }

  get getState(): Store<SessionState>['getState'] {
    return this.store.getState
  }

  get subscribeData(): Store<{ version: number }>['subscribe'] {
    return this.data.subscribe
  }

  readonly getDataVersion = (): number => this.data.getState().version

  /** Forgets every listener (the session is gone). */
  clear(): void {
    this.store.clear()
    this.data.clear()
  }
}
