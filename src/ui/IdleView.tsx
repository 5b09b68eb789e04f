interface Props {
  onSample: () => void
}

/** What the page shows before a file is opened: the drop target and a one-line guide. */
export function IdleView({ onSample }: Props) {
  return (
    <main className="idle">
      <div className="status" data-testid="index-status" data-state="idle">
        <span className="status-label">No file open</span>
      </div>
      <div className="drop-target" data-testid="drop-zone">
        <div className="drop-icon" aria-hidden="true">
          ⤓
        </div>
        <p className="drop-title">Drop a RAD file anywhere on this page</p>
        <p className="drop-sub">
          <code>map.rad</code> or <code>map.collated.rad</code> from salmon, piscem or alevin-fry — any size, also
          lz4/zstd chunk-compressed files and Snappy <code>.sz</code> streams.
        </p>
        <p className="drop-sub">
          Or use <strong>Open file…</strong> above, or{' '}
          <button type="button" className="link" onClick={onSample}>
            try a small salmon sample
          </button>
          .
        </p>
      </div>
    </main>
  )
}
