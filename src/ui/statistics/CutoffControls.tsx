import { useId, useState } from 'react'
import { fmtCounted, parseIndex } from '../format'

interface Props {
  /** Points of the drawn curve; the slider moves over them. */
  points: number
  cutoff: number
  onCutoff: (point: number) => void
  cells: number
  readsShare: number
  /** The expect/force cut-offs are asked of the finished totals only. */
  done: boolean
  onAsk: (expectCells: number | undefined, forceCells: number | undefined) => Promise<void>
}

/** The knee plot's cut-off for the keyboard (a slider over the drawn points), and alevin-fry's alternatives. */
export function CutoffControls({ points, cutoff, onCutoff, cells, readsShare, done, onAsk }: Props) {
  const id = useId()
  const [expect, setExpect] = useState('')
  const [force, setForce] = useState('')
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const summary = `${fmtCounted(cells, 'cell')} ${cells === 1 ? 'keeps' : 'keep'} ${(readsShare * 100).toFixed(1)}% of the reads`
  return (
    <div className="cutoff">
      <label className="cutoff-slider" htmlFor={`${id}-cut`}>
        Cut-off
        <input
          id={`${id}-cut`}
          type="range"
          min={0}
          max={Math.max(0, points - 1)}
          value={cutoff}
          aria-valuetext={summary}
          data-testid="stats-cutoff"
          onChange={(e) => {
            onCutoff(Number(e.currentTarget.value))
          }}
        />
      </label>
      <output className="cutoff-summary" data-testid="stats-cutoff-summary" data-cells={String(cells)}>
        {summary}
      </output>
      {done && (
        <form
          className="cutoff-alt"
          onSubmit={(e) => {
            e.preventDefault()
            setFailure(undefined)
            onAsk(parseIndex(expect), parseIndex(force)).catch((err: unknown) => {
              setFailure(err instanceof Error ? err.message : String(err))
            })
          }}
        >
          <label htmlFor={`${id}-expect`}>--expect-cells</label>
          <input
            id={`${id}-expect`}
            className="input input-num"
            inputMode="numeric"
            value={expect}
            onChange={(e) => {
              setExpect(e.currentTarget.value)
            }}
          />
          <label htmlFor={`${id}-force`}>--force-cells</label>
          <input
            id={`${id}-force`}
            className="input input-num"
            inputMode="numeric"
            value={force}
            onChange={(e) => {
              setForce(e.currentTarget.value)
            }}
          />
          <button type="submit" className="btn btn-small">
            Show
          </button>
          {failure && <span role="alert">{failure}</span>}
        </form>
      )}
    </div>
  )
}
