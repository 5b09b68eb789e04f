import type { MouseEvent, ReactNode } from 'react'

interface Props {
  onSample: () => void
  /** Opens the file chooser (the top bar's file input). */
  onChoose: () => void
  /** Shown under the drop target: a pending deep link, the recent files. */
  children?: ReactNode
}

/** What the page shows before a file is opened: the drop target (also a click target) and a one-line guide. */
export function IdleView({ onSample, onChoose, children }: Props) {
  const onAreaClick = (ev: MouseEvent) => {
    // The sample link and the choose button inside the area do their own thing.
    if (ev.target instanceof Element && ev.target.closest('button')) return
    onChoose()
  }
  return (
    <main className="idle">
      <div className="status" data-testid="index-status" data-state="idle">
        <span className="status-label">No file open</span>
      </div>
      <div className="drop-target clickable" data-testid="drop-zone" onClick={onAreaClick}>
        <div className="drop-icon" aria-hidden="true">
          ⤓
        </div>
        <p className="drop-title">
          <span className="pointer-fine">Drop a RAD file anywhere on this page, or click here</span>
          <span className="pointer-coarse">Tap here to choose a RAD file</span>
        </p>
        <p className="drop-sub">
          <code>map.rad</code> or <code>map.collated.rad</code> from salmon, piscem or alevin-fry — any size, also
          lz4/zstd chunk-compressed files and Snappy <code>.sz</code> streams. Dropping the mapper&apos;s output folder
          shows its RAD files and run reports.
        </p>
        <p className="drop-sub">
          <button type="button" className="btn" data-testid="choose-file" onClick={onChoose}>
            Choose a file…
          </button>{' '}
          or{' '}
          <button type="button" className="link" onClick={onSample}>
            try a small salmon sample
          </button>
          .
        </p>
      </div>
      {children}
    </main>
  )
}
