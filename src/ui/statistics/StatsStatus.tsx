/** The statistics pass's status line (docs/stats.md): offered, running, done, or read from a sidecar. */
import type { ReactNode } from 'react'
import type { StatsProgress, StatsView } from '../../session'
import { fmtBytes, fmtCounted, fmtDuration, fmtPercent } from '../format'

export function StatsStatus({
  view,
  onCancel,
  onRestart,
}: {
  view: StatsView
  onCancel: () => void
  onRestart: () => void
}) {
  const p = view.progress
  if (view.phase === 'idle' && view.offered) {
    return (
      <span className="stats-status">
        <span className="muted">
          The sidecar index holds no statistics: computing them reads the whole file from its server.
        </span>
        <button type="button" className="btn btn-small" data-testid="stats-start" onClick={onRestart}>
          Compute statistics
        </button>
      </span>
    )
  }
  if (view.phase === 'idle') return <span className="muted">Computed once the file is indexed.</span>
  if (view.phase === 'running') {
    return <PassProgress progress={p} label="Statistics pass" testId="stats-progress" onCancel={onCancel} />
  }
  if (view.phase === 'error') {
    return (
      <span className="stats-status" role="status">
        {view.cancelled
          ? 'Cancelled: the figures below cover part of the file.'
          : `Failed: ${view.error?.message ?? ''}`}
        <button type="button" className="btn btn-small" data-testid="stats-restart" onClick={onRestart}>
          Run again
        </button>
      </span>
    )
  }
  if (view.totalsProgress) return <CountingBehind progress={view.totalsProgress} onCancel={onCancel} />
  if (view.restoredFrom === 'sidecar') return <FromSidecar view={view} onRestart={onRestart} />
  if (view.restoredFrom === 'walk') {
    // A URL's statistics, counted beside the index walk (docs/stats.md, "One read for a URL").
    return (
      <span className="muted" data-testid="stats-progress">
        Every record counted during the index walk: one read of the file.
      </span>
    )
  }
  return (
    <span className="muted" data-testid="stats-progress">
      Every record counted
      {view.restored ? ' on an earlier visit' : ''}
      {p ? ` in ${fmtDuration(p.elapsedMs / 1000)}` : ''}
      {p && p.skippedChunks > 0 ? `; ${fmtCounted(p.skippedChunks, 'damaged chunk')} left out` : ''}.
      <Spilled bytes={view.restored ? undefined : view.report?.spilledBytes} />
    </span>
  )
}

/**
 * A kept report's per-barcode answers (Save TSV, typed cut-offs, the cells above the knee) need
 * every barcode's count in the decode workers: the pass runs behind the shown report, once
 * (docs/stats.md), and shows how far it is.
 */
function CountingBehind({ progress, onCancel }: { progress: StatsProgress; onCancel: () => void }) {
  return (
    <PassProgress progress={progress} label="Counting every barcode" testId="stats-totals-progress" onCancel={onCancel}>
      Reading the whole file to count each barcode (the kept figures hold totals only):{' '}
    </PassProgress>
  )
}

/** A whole-file pass under way: its bar, the share read, the time left, and its Cancel. */
function PassProgress({
  progress,
  label,
  testId,
  onCancel,
  children,
}: {
  progress: StatsProgress | undefined
  label: string
  testId: 'stats-progress' | 'stats-totals-progress'
  onCancel: () => void
  children?: ReactNode
}) {
  const share = progress && progress.totalBytes > 0 ? progress.bytes / progress.totalBytes : 0
  return (
    <span className="stats-status">
      <progress className="stats-progress" max={1} value={share} aria-label={label} />
      <span data-testid={testId}>
        {children}
        {fmtPercent(share, 1)}
        {progress?.etaMs !== undefined && `, about ${fmtDuration(progress.etaMs / 1000)} left`}
      </span>
      <button
        type="button"
        className="btn btn-small"
        data-testid={testId === 'stats-progress' ? 'stats-cancel' : 'stats-totals-cancel'}
        onClick={onCancel}
      >
        Cancel
      </button>
    </span>
  )
}

/**
 * Statistics read from the file's `.rdx` sidecar (docs/sidecar.md, "The statistics section"):
 * say who counted them, and offer to count them here (a whole-file pass, over the network for a URL).
 */
function FromSidecar({ view, onRestart }: { view: StatsView; onRestart: () => void }) {
  const writer = view.report?.writer ?? 'the tool that wrote it'
  return (
    <span className="stats-status">
      <span className="muted" data-testid="stats-progress" data-writer={view.report?.writer ?? ''}>
        Every record counted by <code>{writer}</code>, stored in the sidecar index (.rdx); not counted again here.
      </span>
      <button
        type="button"
        className="btn btn-small"
        data-testid="stats-recount"
        title="Count every record in this page (reads the whole file)"
        onClick={onRestart}
      >
        Count here
      </button>
    </span>
  )
}

/** A pass that counted exactly in parts (ADR 0015): how much it wrote to the browser's private storage. */
function Spilled({ bytes }: { bytes: number | undefined }) {
  if (!bytes) return null
  return (
    <span data-testid="stats-spilled" data-value={bytes}>
      {' '}
      Counted exactly in parts: {fmtBytes(bytes)} written to this browser&apos;s private storage, then removed.
    </span>
  )
}
