import { useRef } from 'react'
import type { ChangeEvent } from 'react'
import { RadError } from '../../rad/errors'
import type { RadErrorCode } from '../../rad/errors'
import type { SessionState } from '../../session'
import { fmtCount, fmtCounted } from '../format'

const TITLES: Record<RadErrorCode, string> = {
  NOT_RAD: 'This is not a RAD file',
  UNSUPPORTED_VERSION: 'This RAD version is not supported',
  TRUNCATED: 'The file is cut short',
  BAD_TAG_TYPE: 'A tag has an unknown type',
  BAD_HEADER: 'The header is damaged',
  BAD_CHUNK_HEADER: 'A chunk header is damaged',
  CHUNK_OVERRUN: "A chunk's records run past its end",
  CHUNK_UNDERRUN: "A chunk's records end before it does",
  VALUE_TOO_LARGE: 'A value is too large',
  BAD_VALUE: 'A value is invalid',
  BAD_CODEC: 'Unknown chunk compression',
  DECOMPRESS_FAILED: 'A chunk failed to decompress',
  BAD_SNAPPY: 'The Snappy stream is damaged',
  READ_FAILED: 'The file could not be read',
  FILE_CHANGED: 'The file changed on disk after it was opened',
  FETCH_FAILED: 'The file could not be fetched',
  WORKER_FAILED: 'A background worker stopped',
  CANCELLED: 'Cancelled',
  TOO_MANY_BARCODES: 'Too many barcodes to list in the page',
}

const HINTS: Partial<Record<RadErrorCode, string>> = {
  TRUNCATED: 'The file was probably copied or written incompletely (a mapper killed mid-run, a full disk).',
  READ_FAILED: 'The file may have been moved, changed or deleted since it was opened. Open it again.',
  FILE_CHANGED:
    'Nothing shown from before the change can be trusted, and no verdict is given. Choose the file again to see it as it is now.',
  // The message names the failure (httpSource.ts); none of them is about the file's bytes.
  FETCH_FAILED: 'This is about reaching the file, not about its contents: no verdict is given.',
  WORKER_FAILED:
    'A background worker stopped, perhaps for lack of memory; a new one is ready. What was indexed stays browsable.',
}

interface Props {
  error: Error
  state: SessionState
  /** Offered when a worker failed or a URL could not be fetched: opens the file again. */
  onRetry?: () => void
  /** Offered when the file changed on disk: the file chosen again (the old handle reads the old snapshot, or nothing). */
  onReopen?: (file: File) => void
}

/** "Reopen…": a file chooser, since a browser's handle on a changed file can no longer read it. */
function ReopenButton({ onReopen }: { onReopen: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null)
  const onChange = (ev: ChangeEvent<HTMLInputElement>) => {
    const file = ev.target.files?.[0]
    ev.target.value = ''
    if (file) onReopen(file)
  }
  return (
    <>
      <button type="button" className="btn btn-small" data-testid="reopen" onClick={() => input.current?.click()}>
        Reopen…
      </button>
      <input
        ref={input}
        type="file"
        data-testid="reopen-input"
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Choose the file again"
        onChange={onChange}
      />
    </>
  )
}

/** What stays browsable, in one line. */
function keptText(state: SessionState, code: RadErrorCode | undefined): string {
  if (code === 'FILE_CHANGED') return 'The rows read before the change are no longer shown; the header is.'
  if (code === 'FETCH_FAILED') {
    return `What was read before is shown: ${fmtCount(state.chunks)} chunks with ${fmtCount(state.records)} records.`
  }
  return state.chunks > 0
    ? `Everything before the problem is shown: ${fmtCounted(state.chunks, 'intact chunk')} with ${fmtCounted(state.records, 'record')}.`
    : 'No intact chunk comes before the problem; the header is shown.'
}

/** The problem in plain words, naming the byte offset; says what stays browsable. */
export function ErrorBanner({ error, state, onRetry, onReopen }: Props) {
  const rad = error instanceof RadError ? error : undefined
  const title = rad ? TITLES[rad.code] : 'Internal error'
  const hint = rad ? HINTS[rad.code] : 'This is a bug in the viewer, not a problem with your file.'
  return (
    <div
      className="error-banner"
      role="alert"
      data-testid="error-banner"
      data-code={rad?.code ?? 'INTERNAL'}
      data-offset={rad?.offset === undefined ? undefined : String(rad.offset)}
    >
      <div className="error-title">
        {title}
        {rad?.offset !== undefined && (
          <span className="error-where">
            {' '}
            at byte {fmtCount(rad.offset)}
            {rad.chunk !== undefined && <> (chunk {fmtCount(rad.chunk)})</>}
          </span>
        )}
      </div>
      <div className="error-message">{error.message}</div>
      {hint && <div className="error-hint">{hint}</div>}
      {rad?.code === 'WORKER_FAILED' && onRetry && (
        <button type="button" className="btn btn-small" data-testid="retry" onClick={onRetry}>
          Open the file again
        </button>
      )}
      {rad?.code === 'FETCH_FAILED' && onRetry && (
        <button type="button" className="btn btn-small" data-testid="retry" onClick={onRetry}>
          Retry
        </button>
      )}
      {rad?.code === 'FILE_CHANGED' && onReopen && <ReopenButton onReopen={onReopen} />}
      {state.opened && <div className="error-keep">{keptText(state, rad?.code)}</div>}
    </div>
  )
}
