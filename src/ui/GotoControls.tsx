import { memo, useState } from 'react'
import type { KeyboardEvent } from 'react'
import { fmtCount, parseIndex } from './format'

interface Props {
  records: number
  chunks: number
  onRecord: (record: number) => void
  onChunk: (chunk: number) => void
}

/** "Go to record #" and "Go to chunk #" (0-based, as the table shows them); Enter jumps. */
export const GotoControls = memo(function GotoControls({ records, chunks, onRecord, onChunk }: Props) {
  const [message, setMessage] = useState('')

  const submit = (ev: KeyboardEvent<HTMLInputElement>, what: 'record' | 'chunk') => {
    if (ev.key !== 'Enter') return
    ev.preventDefault()
    const limit = what === 'record' ? records : chunks
    const n = parseIndex(ev.currentTarget.value)
    if (n === undefined) {
      setMessage(`Type a ${what} number from 0 to ${fmtCount(Math.max(0, limit - 1))}.`)
    } else if (n >= limit) {
      setMessage(
        limit === 0
          ? `No ${what}s indexed yet.`
          : `There are ${fmtCount(limit)} ${what}s indexed (0 to ${fmtCount(limit - 1)}).`,
      )
    } else {
      setMessage('')
      if (what === 'record') onRecord(n)
      else onChunk(n)
    }
  }

  return (
    <div className="goto">
      <label>
        Go to record
        <input
          className="input input-num"
          data-testid="goto-record"
          inputMode="numeric"
          placeholder={records > 0 ? `0 – ${fmtCount(records - 1)}` : '#'}
          onKeyDown={(ev) => {
            submit(ev, 'record')
          }}
        />
      </label>
      <label>
        Go to chunk
        <input
          className="input input-num"
          data-testid="goto-chunk"
          inputMode="numeric"
          placeholder={chunks > 0 ? `0 – ${fmtCount(chunks - 1)}` : '#'}
          onKeyDown={(ev) => {
            submit(ev, 'chunk')
          }}
        />
      </label>
      <span className="goto-message" role="status" data-testid="goto-message">
        {message}
      </span>
    </div>
  )
})
