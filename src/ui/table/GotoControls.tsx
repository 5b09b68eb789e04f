import { memo, useId } from 'react'
import type { SubmitEvent } from 'react'
import { fmtCount } from '../format'
import type { GotoTarget } from './gotoInput'
import { useGoto } from './useGoto'
import type { GotoOptions } from './useGoto'

type Props = GotoOptions

/**
 * "Go to record #" and "Go to chunk #" (0-based, as the table shows them): Enter or the Go button
 * jumps; invalid input gets a message saying why, tied to its field (aria-describedby); one not
 * indexed yet says so and is gone to when it is (useGoto.ts).
 */
export const GotoControls = memo(function GotoControls(props: Props) {
  const { records, chunks } = props
  const goto = useGoto(props)
  const { message } = goto
  const messageId = useId()

  const submit = (ev: SubmitEvent<HTMLFormElement>, what: GotoTarget) => {
    ev.preventDefault()
    const input = ev.currentTarget.elements.namedItem('index')
    goto.submit(input instanceof HTMLInputElement ? input.value : '', what)
  }

  const field = (what: GotoTarget, limit: number) => {
    const invalid = message?.field === what && !message.waiting
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
            aria-describedby={message?.field === what ? messageId : undefined}
            onInput={() => {
              goto.edited(what)
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
      <span
        id={messageId}
        className={`goto-message${message?.waiting ? ' waiting' : ''}`}
        role="status"
        data-testid="goto-message"
      >
        {message?.text}
      </span>
    </div>
  )
})
