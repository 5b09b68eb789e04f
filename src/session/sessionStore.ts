/**
 * What the page shows about one open file, in the shape React's
 * useSyncExternalStore reads: an immutable SessionState replaced on each
 * change, and a separate version number that moves whenever decoded rows
 * arrive (so the table re-renders without the panels doing so).
 */
import type { RadError } from '../rad/errors'
import type { Semantics } from '../rad/semantics'
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

export class SessionStore {
  private state: SessionState
  private readonly listeners = new Set<() => void>()
  private readonly dataListeners = new Set<() => void>()
  private dataVersion = 0

  constructor(file: { name: string; size: number }) {
    this.state = initialState(file)
  }

  get current(): SessionState {
    return this.state
  }

  update(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch }
    for (const l of this.listeners) l()
  }

  /** Adds a line to the notices. */
  notice(message: string): void {
    this.update({ notices: [...this.state.notices, message] })
  }

  /** Decoded rows changed: a chunk arrived or failed. */
  bumpData(): void {
    this.dataVersion++
    for (const l of this.dataListeners) l()
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  readonly getState = (): SessionState => this.state

  readonly subscribeData = (listener: () => void): (() => void) => {
    this.dataListeners.add(listener)
    return () => this.dataListeners.delete(listener)
  }

  readonly getDataVersion = (): number => this.dataVersion

  /** Forgets every listener (the session is gone). */
  clear(): void {
    this.listeners.clear()
    this.dataListeners.clear()
  }
}
