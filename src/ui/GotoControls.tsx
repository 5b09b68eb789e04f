import { memo, useId, useState } from 'react'
import type { SubmitEvent } from 'react'
import { fmtCount } from './format'
import { readGoto } from './gotoInput'
import type { GotoTarget } from './gotoInput'

interface Props {
  records: number
  chunks: number
  onRecord: (record: number) => void
  onChunk: (chunk: number) => void
}

interface Problem {
  field: GotoTarget
  text: string
}

/**
 * "Go to record #" and "Go to chunk #" (0-based, as the table shows them): Enter or the Go button
 * jumps; invalid input gets a message saying why, tied to its field (aria-describedby).
 */
export const GotoControls = memo(function GotoControls({ records, chunks, onRecord, onChunk }: Props) {
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const messageId = useId()

  const submit = (ev: SubmitEvent<HTMLFormElement>, what: GotoTarget) => {
    ev.preventDefault()
    const input = ev.currentTarget.elements.namedItem('index')
    const text = input instanceof HTMLInputElement ? input.value : ''
    const result = readGoto(text, what, what === 'record' ? records : chunks)
    if ('problem' in result) {
      setProblem({ field: what, text: result.problem })
      return
    }
    setProblem(undefined)
    if (what === 'record') onRecord(result.index)
    else onChunk(result.index)
  }

  const field = (what: GotoTarget, limit: number) => {
    const invalid = problem?.field === what
    return (
      <form
        className="goto-field"
        noValidate
        onSubmit={(ev) => {
          submit(ev, what)
        }}
      >
        <label>
          <span className="goto-long" aria-hidden="true">
            Go to {what}
          </span>
          <span className="goto-short" aria-hidden="true">
            {what === 'record' ? 'Record' : 'Chunk'}
          </span>
          <input
            name="index"
            aria-label={`Go to ${what}`}
            className="input input-num"
            data-testid={`goto-${what}`}
            inputMode="numeric"
            autoComplete="off"
            placeholder={limit > 0 ? `0 – ${fmtCount(limit - 1)}` : '#'}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? messageId : undefined}
            onInput={() => {
              if (invalid) setProblem(undefined)
            }}
          />
        </label>
        <button type="submit" className="btn btn-small" data-testid={`goto-${what}-button`}>
          Go
        </button>
      </form>
    )
  }

  return (
    <div className="goto">
      {field('record', records)}
      {field('chunk', chunks)}
      <span id={messageId} className="goto-message" role="status" data-testid="goto-message">
        {problem?.text}
      </span>
    </div>
  )
})
