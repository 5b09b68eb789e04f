import { fmtCount } from '../format'

interface Props {
  records: number
  windowStart: number
  windowLength: number
  /** First record on screen. */
  top: number
  onSeek: (record: number) => void
  summary: string
}

/**
 * Under the table: where the cursor is, and — for files with more records
 * than one scroll window holds — which window is shown plus a position bar
 * over the whole file.
 */
export function WindowBar({ records, windowStart, windowLength, top, onSeek, summary }: Props) {
  const windowed = windowLength < records
  return (
    <div className="window-bar">
      <span className="muted" data-testid="view-summary">
        {summary}
      </span>
      {windowed && (
        <>
          <span className="muted" data-testid="window-range">
            {`scroll range: records ${fmtCount(windowStart)}–${fmtCount(windowStart + windowLength - 1)} of ${fmtCount(records)}`}
          </span>
          <input
            type="range"
            className="position"
            aria-label="Position in the file"
            data-testid="record-position"
            min={0}
            max={Math.max(0, records - 1)}
            value={Math.min(top, records - 1)}
            onChange={(e) => {
              onSeek(Number(e.target.value))
            }}
          />
        </>
      )}
      <span className="muted keys">↑↓ PgUp PgDn Home End · → expands · ← collapses</span>
    </div>
  )
}
