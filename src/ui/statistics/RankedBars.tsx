import { fmtCount, fmtPercent } from '../format'

interface Props {
  /** `[key, count]`, already ranked (StatsJson top lists). */
  rows: readonly (readonly [string, number])[]
  /** The whole the shares are of. */
  total: number
  /** Each key is a button calling this (for now: jump to its first record); undefined: plain text. */
  onPick?: (key: string) => void
  pickTitle?: (key: string) => string
  mono?: boolean
  testId: string
  label: string
}

/** A top list drawn as horizontal bars: the bar chart and the click-through list in one. */
export function RankedBars({ rows, total, onPick, pickTitle, mono, testId, label }: Props) {
  const most = rows[0]?.[1] ?? 0
  return (
    <ol className="ranked" data-testid={testId} aria-label={label}>
      {rows.map(([key, count]) => (
        <li key={key} className="ranked-row" data-key={key} data-value={String(count)}>
          <span
            className="ranked-bar"
            style={{ width: `${String(most > 0 ? (count / most) * 100 : 0)}%` }}
            aria-hidden="true"
          />
          {onPick ? (
            <button
              type="button"
              className={`link ranked-key${mono ? ' mono' : ''}`}
              title={pickTitle?.(key)}
              onClick={() => {
                onPick(key)
              }}
            >
              {key}
            </button>
          ) : (
            <span className={`ranked-key${mono ? ' mono' : ''}`}>{key}</span>
          )}
          <span className="ranked-count">
            {fmtCount(count)} <span className="muted">({fmtPercent(count, total)})</span>
          </span>
        </li>
      ))}
    </ol>
  )
}
