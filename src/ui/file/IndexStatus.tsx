import type { DroppedSection, SessionState } from '../../session'
import { fmtBytes, fmtCount, fmtDuration, fmtPercent, fmtRate } from '../format'

/**
 * A rate means something only over enough bytes and time: below these a figure is mostly worker
 * start-up and timer resolution ("2.25 GB/s" for a file that took 0.88 s to show).
 */
const RATE_MIN_BYTES = 50_000_000
const RATE_MIN_SECONDS = 0.2

export function meaningfulRate(bytes: number, seconds: number): number | undefined {
  return bytes >= RATE_MIN_BYTES && seconds >= RATE_MIN_SECONDS ? bytes / seconds : undefined
}

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
  if (state.cancelled && !state.opened) return 'Cancelled before the header was read'
  if (state.cancelled) return 'Indexing cancelled — showing the chunks found'
  if (state.indexSource === 'sidecar') return 'Indexed from its sidecar index (.rdx) — the file was not scanned'
  if (state.indexSource === 'cache') return 'Indexed from this browser’s cache — not scanned again'
  return state.summary?.status === 'damaged' ? 'Indexed — damaged chunks found (see Integrity)' : 'Indexed'
}

/** A section of a sidecar's or cached index that was not used (docs/sidecar.md), and what the page does instead. */
function droppedText(state: SessionState, dropped: DroppedSection): string {
  const what = state.indexSource === 'cache' ? 'cached index' : 'sidecar index'
  const instead =
    dropped.section === 'statistics'
      ? 'The statistics are not taken from it.'
      : 'There is no recorded verdict: check the records for one.'
  const wrong =
    dropped.reason === 'disagrees'
      ? `does not describe the file its chunk table describes (${dropped.why})`
      : `does not have the expected shape (${dropped.why})`
  return `Part of the ${what} was not used: its ${dropped.section} section ${wrong}. ${instead}`
}

/**
 * What a screen reader hears, in a polite live region: the phase, and while indexing the share
 * scanned in steps of 10% (the bar moves ~10 times a second: announcing each move would drown
 * everything else).
 */
export function announcement(state: SessionState, scanned: number, total: number): string {
  const running = state.phase === 'opening' || state.phase === 'indexing'
  if (!running || total <= 0) return label(state)
  return `${label(state)} ${String(10 * Math.floor((10 * scanned) / total))}%`
}

/** Bytes scanned, chunks and records found, rate and time left (~10 updates a second), Cancel. */
export function IndexStatus({ state, onCancel }: Props) {
  const p = state.progress
  const total = p?.bytesTotal ?? state.opened?.sourceSize ?? state.fileSize
  const fromKnown = state.indexSource !== 'scan'
  const scanned = fromKnown ? 0 : state.phase === 'done' && !state.cancelled ? total : (p?.bytesScanned ?? 0)
  const running = state.phase === 'opening' || state.phase === 'indexing'
  // From the drop to the last chunk indexed: what the person waited, worker start-up included.
  const took = state.finishedAt === undefined ? undefined : (state.finishedAt - state.openedAt) / 1000
  const rate = meaningfulRate(scanned, (p?.elapsedMs ?? 0) / 1000)
  const left = rate === undefined ? undefined : (total - scanned) / rate
  const ds = dataState(state)
  // A file that is not RAD, or a cancel before its header: no scan happened, so no scan figures.
  const figures = running || state.opened !== undefined
  return (
    <div className={`status status-${ds}`} data-testid="index-status" data-state={ds} data-source={state.indexSource}>
      <div className="status-head">
        <span className="status-file" title={state.fileName}>
          {state.fileName}
        </span>
        <span className="status-label">{label(state)}</span>
        <span className="visually-hidden" role="status" data-testid="index-announcement">
          {announcement(state, scanned, total)}
        </span>
        {running && (
          <button type="button" className="btn btn-small" data-testid="cancel-index" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      {state.cacheRejected !== undefined && (
        <p className="sidecar-rejected" role="alert" data-testid="cache-rejected">
          The cached index was not used: {state.cacheRejected}. It was dropped and the file is scanned.
        </p>
      )}
      {state.rescannedBecause !== undefined && (
        <p className="sidecar-rejected" role="alert" data-testid="index-rescanned">
          {state.rescannedBecause}
        </p>
      )}
      {state.summary?.dropped?.map((d) => (
        <p
          key={d.section}
          className="sidecar-rejected"
          role="alert"
          data-testid="section-dropped"
          data-section={d.section}
        >
          {droppedText(state, d)}
        </p>
      ))}
      {state.sidecarRejected !== undefined && (
        <p className="sidecar-rejected" role="alert" data-testid="sidecar-rejected">
          The sidecar index was not used: {state.sidecarRejected}. The file is scanned instead.
        </p>
      )}
      {figures && (
        <Figures
          scanned={scanned}
          total={total}
          state={state}
          rate={rate}
          running={running}
          timeText={
            running
              ? left === undefined
                ? '—'
                : `~${fmtDuration(left)}`
              : took === undefined
                ? '—'
                : fmtDuration(took)
          }
        />
      )}
    </div>
  )
}

interface FiguresProps {
  scanned: number
  total: number
  state: SessionState
  rate: number | undefined
  running: boolean
  timeText: string
}

function Figures({ scanned, total, state, rate, running, timeText }: FiguresProps) {
  // A sidecar's or the cache's index is whole at once: the bar is full though nothing was scanned.
  const fromKnown = state.indexSource !== 'scan'
  const share = fromKnown ? 1 : total > 0 ? scanned / total : 0
  return (
    <>
      <div
        className="progress"
        role="progressbar"
        aria-label={`Indexing ${state.fileName}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(100 * share)}
      >
        <div className="progress-fill" style={{ transform: `scaleX(${String(share)})` }} />
      </div>
      <dl className="status-figures">
        <div>
          <dt>Scanned</dt>
          <dd data-testid="stat-bytes" data-value={String(scanned)}>
            {fromKnown
              ? `none of ${fmtBytes(total)}: indexed from the ${state.indexSource === 'cache' ? 'cache' : 'sidecar'}`
              : `${fmtBytes(scanned)} of ${fmtBytes(total)} (${fmtPercent(scanned, total)})`}
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
        {rate !== undefined && (
          <div>
            <dt>Rate</dt>
            <dd data-testid="stat-rate">{fmtRate(rate)}</dd>
          </div>
        )}
        <div>
          <dt title={running ? undefined : 'From opening the file to the last chunk indexed'}>
            {running ? 'Time left' : 'Took'}
          </dt>
          <dd data-testid="stat-time">{timeText}</dd>
        </div>
      </dl>
    </>
  )
}
