import { useEffect, useEffectEvent, useRef, useState } from 'react'
import { readGoto, waitingText } from './gotoInput'
import type { GotoTarget } from './gotoInput'

/** What "Go to" says under its fields: why the input cannot be used, or that it waits for the index. */
export interface GotoMessage {
  field: GotoTarget
  text: string
  /** Waiting for the record or chunk to be indexed (not a problem with the input). */
  waiting: boolean
}

export interface GotoOptions {
  records: number
  chunks: number
  /** The index is still growing: a number past it waits for it. */
  indexing: boolean
  onRecord: (record: number) => void
  onChunk: (chunk: number) => void
}

export interface Goto {
  submit: (text: string, what: GotoTarget) => void
  /** The field's text changed: a complaint about it goes. */
  edited: (what: GotoTarget) => void
  message: GotoMessage | undefined
}

/**
 * "Go to record/chunk": reads the input (gotoInput.ts) and jumps. While the file is indexed, a
 * number not indexed yet waits and the jump happens as soon as it is; a complaint measured
 * against the count indexed so far goes when indexing ends (the count it named is stale).
 */
export function useGoto({ records, chunks, indexing, onRecord, onChunk }: GotoOptions): Goto {
  const [problem, setProblem] = useState<{ field: GotoTarget; text: string; partial: boolean } | undefined>()
  const [waiting, setWaiting] = useState<{ field: GotoTarget; index: number } | undefined>()
  const limit = (what: GotoTarget) => (what === 'record' ? records : chunks)
  const go = (what: GotoTarget, index: number) => {
    if (what === 'record') onRecord(index)
    else onChunk(index)
  }

  const submit = (text: string, what: GotoTarget) => {
    const result = readGoto(text, what, limit(what), indexing)
    setWaiting(undefined)
    setProblem(undefined)
    if ('problem' in result) setProblem({ field: what, text: result.problem, partial: indexing })
    else if (result.wait) setWaiting({ field: what, index: result.index })
    else go(what, result.index)
  }

  // Once indexed, the waiting target is gone to once (it stays set: reached, it says nothing more).
  const reached = waiting !== undefined && waiting.index < limit(waiting.field)
  const arrived = useRef<typeof waiting>(undefined)
  const arrive = useEffectEvent(() => {
    if (!waiting || arrived.current === waiting) return
    arrived.current = waiting
    go(waiting.field, waiting.index)
  })
  useEffect(() => {
    if (reached) arrive()
  }, [reached])

  let message: GotoMessage | undefined
  if (waiting && !reached) {
    const { field, index } = waiting
    const final = readGoto(String(index), field, limit(field))
    message = indexing
      ? { field, text: waitingText(field, index, limit(field)), waiting: true }
      : { field, text: 'problem' in final ? final.problem : '', waiting: false }
  } else if (problem && (indexing || !problem.partial)) {
    message = { field: problem.field, text: problem.text, waiting: false }
  }

  const edited = (what: GotoTarget) => {
    if (message?.field === what && !message.waiting) {
      setProblem(undefined)
      setWaiting(undefined)
    }
  }
  return { submit, edited, message }
}
