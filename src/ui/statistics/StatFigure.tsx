import { fmtCount } from '../format'

export interface StatFigureProps {
  testId?: string | undefined
  label: string
  value: number | null | undefined
  /** The value as shown (default: the count, grouped); a dash when there is no value. */
  text?: string | undefined
  note?: string | undefined
}

/** One headline figure: its label, its value as shown, and the exact value in `data-value` (tests, scripts). */
export function StatFigure({ testId, label, value, text, note }: StatFigureProps) {
  const missing = value === null || value === undefined
  return (
    <div className="stat" data-testid={testId} data-value={missing ? '' : String(value)}>
      <dt>{label}</dt>
      <dd>
        {missing ? '—' : (text ?? fmtCount(value))}
        {note && <span className="stat-note"> {note}</span>}
      </dd>
    </div>
  )
}

export const fmtShare = (x: number): string => `${(100 * x).toFixed(1)}%`
