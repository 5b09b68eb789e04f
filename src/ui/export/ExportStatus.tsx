import type { ExportFormat, ExportState } from '../../session'
import { fmtBytes, fmtCount, fmtCounted } from '../format'

interface StatusProps {
  state: ExportState
  /** The picked file is closed, or the download handed to the browser. */
  saved: boolean
  savedTo: string
  format: ExportFormat
}

export function ExportStatus({ state, saved, savedTo, format }: StatusProps) {
  if (state.phase === 'running') {
    const share = state.total ? state.visited / state.total : 0
    return (
      <p className="export-status" role="status" data-testid="export-progress">
        <progress max={1} value={share} aria-label="Export" />{' '}
        {state.total ? `chunk ${fmtCount(state.visited)} of ${fmtCount(state.total)}, ` : ''}
        {fmtBytes(state.bytes)} written
      </p>
    )
  }
  if (state.phase === 'done' && !saved) return <p className="export-status">Saving…</p>
  if (state.phase === 'done' && state.summary) {
    const s = state.summary
    const chunks = format === 'rad' ? ` in ${fmtCounted(s.chunks, 'chunk')}` : ''
    return (
      <p
        className="export-status"
        role="status"
        data-testid="export-summary"
        data-records={String(s.records)}
        data-chunks={String(s.chunks)}
        data-bytes={String(s.bytes)}
      >
        Wrote {fmtCounted(s.records, 'record')}
        {chunks}, {fmtBytes(s.bytes)}, to {savedTo}.
      </p>
    )
  }
  if (state.phase === 'cancelled') {
    return (
      <p className="export-status" role="status">
        Cancelled: nothing was saved.
      </p>
    )
  }
  return null
}
