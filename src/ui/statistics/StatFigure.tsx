import { fmtCount } from '../format'

export interface StatFigureProps {
  testId?: string | undefined
  label: string
  value: number | null | undefined
  /** The value as shown (default: the count, grouped); a dash when there is no value. */
  text?: string | undefined
  note?: string | undefined
  /** `data-value` when the figure is a word, not a number (`value` null, `text` shown). */
  dataValue?: string | undefined
}

/** One headline figure: its label, its value as shown, and the exact value in `data-value` (tests, scripts). */
export function StatFigure({ testId, label, value, text, note, dataValue }: StatFigureProps) {
  const missing = (value === null || value === undefined) && dataValue === undefined
  return (
    <div className="stat" data-testid={testId} data-value={dataValue ?? (missing ? '' : String(value))}>
      <dt>{label}</dt>
      <dd>
        {missing ? '—' : (text ?? fmtCount(value ?? 0))}
        {note && <span className="stat-note"> {note}</span>}
      </dd>
    </div>
  )
}

export const fmtShare = (x: number): string => `${(100 * x).toFixed(1)}%`
