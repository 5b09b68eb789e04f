import { useId } from 'react'
import type { RankBy } from './KneePlot'

/** Reads | UMIs: what the knee plot ranks barcodes by (a radio group: one tab stop, arrows move). */
export function RankByToggle({ by, onBy }: { by: RankBy; onBy: (by: RankBy) => void }) {
  const name = useId()
  const options: [RankBy, string][] = [
    ['reads', 'Reads'],
    ['umis', 'UMIs'],
  ]
  return (
    <fieldset className="rank-by" data-testid="knee-rank-by">
      <legend className="visually-hidden">Rank barcodes by</legend>
      {options.map(([value, text]) => (
        <label key={value} className={by === value ? 'rank-by-on' : undefined}>
          <input
            type="radio"
            name={name}
            value={value}
            checked={by === value}
            data-testid={`knee-by-${value}`}
            onChange={() => {
              onBy(value)
            }}
          />
          {text}
        </label>
      ))}
    </fieldset>
  )
}
