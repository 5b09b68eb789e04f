import type { SessionState } from '../workers/client'
import { fmtBytes, fmtCount, fmtDuration, fmtPercent, fmtRate } from './format'

interface Props {
  state: SessionState
  onCancel: () => void
}

type DataState = 'indexing' | 'done' | 'error'

function dataState(state: SessionState): DataState {
  if (state.phase === 'error') return 'error'
  return state.phase === 'done' ? 'done' : 'indexing'
}

function label(state: SessionState): string {
  if (state.changed) return 'The file changed on disk — reopen it'
  if (state.phase === 'opening') return 'Reading the header…'
  if (state.phase === 'indexing') return 'Indexing chunks…'
  if (state.phase === 'error') return state.opened ? 'Stopped at a problem' : 'Could not open the file'
  if (state.cancelled) return 'Indexing cancelled — showing the chunks found'
  return state.summary?.status === 'damaged' ? 'Indexed — damaged chunks found (see Integrity)' : 'Indexed'
}

/** Bytes scanned, chunks and records found, rate and time left (~10 updates a second), Cancel. */
export function IndexStatus({ state, onCancel }: Props) {
  const p = state.progress
  const total = p?.bytesTotal ?? state.opened?.sourceSize ?? state.fileSize
  const scanned = state.phase === 'done' && !state.cancelled ? total : (p?.bytesScanned ?? 0)
  const seconds = (p?.elapsedMs ?? 0) / 1000
  const rate = seconds > 0 ? scanned / seconds : 0
  const left = rate > 0 ? (total - scanned) / rate : Infinity
  const running = state.phase === 'opening' || state.phase === 'indexing'
  const ds = dataState(state)
  return (
    <div className={`status status-${ds}`} data-testid="index-status" data-state={ds}>
      <div className="status-head">
        <span className="status-file" title={state.fileName}>
          {state.fileName}
        </span>
        <span className="status-label">{label(state)}</span>
        {running && (
          <button type="button" className="btn btn-small" data-testid="cancel-index" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(total > 0 ? (100 * scanned) / total : 0)}
      >
        <div className="progress-fill" style={{ transform: `scaleX(${String(total > 0 ? scanned / total : 0)})` }} />
      </div>
      <dl className="stats">
        <div>
          <dt>Scanned</dt>
          <dd data-testid="stat-bytes" data-value={String(scanned)}>
            {fmtBytes(scanned)} of {fmtBytes(total)} ({fmtPercent(scanned, total)})
          </dd>
        </div>
        <div>
          <dt>Chunks</dt>
          <dd data-testid="stat-chunks" data-value={String(state.chunks)}>
            {fmtCount(state.chunks)}
          </dd>
        </div>
        <div>
          <dt>Records</dt>
          <dd data-testid="stat-records" data-value={String(state.records)}>
            {fmtCount(state.records)}
          </dd>
        </div>
        <div>
          <dt>Rate</dt>
          <dd>{rate > 0 ? fmtRate(rate) : '—'}</dd>
        </div>
        <div>
          <dt>{running ? 'Time left' : 'Took'}</dt>
          <dd>{running ? (rate > 0 ? `~${fmtDuration(left)}` : '—') : fmtDuration(seconds)}</dd>
        </div>
      </dl>
    </div>
  )
}
