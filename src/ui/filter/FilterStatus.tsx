import type { FilterState } from '../../session'
import { MAX_KEPT_MATCHES } from '../../session'
import { fmtCount, fmtCounted, fmtPercent } from '../format'

function statusText(s: FilterState): string {
  const found = fmtCounted(s.matches, 'matching record')
  const listed = s.matches > s.kept ? ` (the first ${fmtCount(MAX_KEPT_MATCHES)} listed)` : ''
  const bad = s.badChunks > 0 ? `; ${fmtCounted(s.badChunks, 'damaged chunk')} skipped` : ''
  switch (s.phase) {
    case 'running':
      return `Filtering… ${fmtPercent(s.bytesDone, s.bytes)} of ${fmtCounted(s.chunks, 'chunk')} · ${found}${bad}`
    case 'done':
      return `${found}${listed}${bad}.`
    case 'cancelled':
      return `Cancelled after ${fmtPercent(s.bytesDone, s.bytes)}: ${found} so far${listed}.`
    case 'error':
      return s.error?.message ?? 'The filter failed.'
  }
}

/** The running filter's progress and count, or its outcome. */
export function FilterStatus({ state, onCancel }: { state: FilterState; onCancel: () => void }) {
  const running = state.phase === 'running'
  const share = state.bytes > 0 ? state.bytesDone / state.bytes : 0
  return (
    <div className={`filter-status filter-${state.phase}`}>
      <span role="status" data-testid="filter-status" data-state={state.phase}>
        {statusText(state)}
      </span>
      <span hidden data-testid="filter-count" data-value={state.matches} />
      {state.collatedFastPath && (
        <span className="muted"> Collated file: each chunk answered from its first record.</span>
      )}
      {running && (
        <>
          <div className="progress filter-progress" aria-hidden="true">
            <div className="progress-fill" style={{ transform: `scaleX(${String(share)})` }} />
          </div>
          <button type="button" className="btn btn-small" data-testid="filter-cancel" onClick={onCancel}>
            Cancel
          </button>
        </>
      )}
    </div>
  )
}
